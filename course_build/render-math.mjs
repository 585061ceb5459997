// Render TeX to HTML with KaTeX, at build time (the MkDocs plugin calls this once
// per page that has math). stdin: JSON [{tex, display}], stdout: JSON [html].
import katex from "katex";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const formulas = JSON.parse(input);
const html = formulas.map(({ tex, display }) => katex.renderToString(tex, {
  displayMode: display, throwOnError: false, output: "htmlAndMathml",
}));
process.stdout.write(JSON.stringify(html));
