// Bundle the browser runtime with esbuild: minified ES modules with content hashes.
//   course.js   every page: progress, questions, locks, quiz, lab, Python client
//   inline      the classic scripts a page inlines (inline.mjs), as
//               dist/<name>.inline.js: not hashed, the build reads them and ships none
//   editor-*.js split chunk, loaded only on pages with an exercise (CodeMirror 6)
//   <lab>-*.js  a chunk per lab widget (labs/<lab>.js), loaded only on pages with that
//               lab; the graph labs share a chunk with the layout library (dagre)
//   worker.js   the module Web Worker that runs Pyodide
//   course.css  styles
// Writes dist/manifest.json mapping each entry to its hashed file name.
import { build } from "esbuild";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { INLINE, inlineScript } from "./inline.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const outdir = join(here, "dist");
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

const result = await build({
  entryPoints: {
    course: join(here, "course.js"),
    worker: join(here, "worker.js"),
    "course-style": join(here, "course.css"),
  },
  bundle: true,
  splitting: true,
  format: "esm",
  minify: process.env.MINIFY !== "0",
  sourcemap: process.env.MINIFY === "0" ? "inline" : false,
  target: "es2020",
  outdir,
  entryNames: "[name].[hash]",
  chunkNames: "chunks/[name].[hash]",
  metafile: true,
  legalComments: "linked",
  loader: { ".woff2": "file", ".woff": "file", ".ttf": "file" },
  assetNames: "fonts/[name].[hash]",
  logLevel: "warning",
});

const entries = { "course.js": "course.js", "worker.js": "worker.js", "course.css": "course.css",
  "editor.js": "editor.js", "exercise.js": "exercise.js" };
const manifest = {};
for (const [file, info] of Object.entries(result.metafile.outputs)) {
  const source = info.entryPoint && relative(here, resolve(info.entryPoint)).replace(/\\/g, "/");
  if (!(source in entries) || file.endsWith(".map")) continue;
  manifest[entries[source]] = relative(outdir, resolve(file)).replace(/\\/g, "/");
}
manifest.inline = {};
for (const name of INLINE) {
  manifest.inline[name] = `${name}.inline.js`;
  writeFileSync(join(outdir, manifest.inline[name]), await inlineScript(name));
}
writeFileSync(join(outdir, "manifest.json"), JSON.stringify(manifest, null, 2));
console.log("runtime bundle:", manifest);
