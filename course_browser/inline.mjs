// The classic scripts the site puts inline in its pages (course_build/templates/main.html),
// each bundled by esbuild into a small IIFE from its module here, which imports what it
// needs (the worker launcher, runner/facts.json's storage key and blank marker): no value
// is pasted into them by the build. Run before the page's modules, they cannot import.
//   scripted  marks the page as scripted before its first paint (locks and recaps)
//   early     starts Python from the <head> (pages with code or a lab)
//   drafts    puts saved code into the plain-text editors (pages with an exercise)
//   lazy-search  starts Material's search worker when the learner reaches for search (every page)
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

export const INLINE = ["scripted", "early", "drafts", "lazy-search"];

/** The minified classic script of `course_browser/<name>.js`, as the page inlines it. */
export async function inlineScript(name) {
  const result = await build({
    entryPoints: [join(here, `${name}.js`)],
    bundle: true,
    format: "iife",
    minify: true,
    target: "es2020",
    write: false,
    logLevel: "warning",
  });
  return result.outputFiles[0].text.trim();
}
