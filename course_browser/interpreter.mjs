// The course's Python, up to the moment the grader takes over: shared by the worker
// (worker.js, in the browser) and the build's memory snapshot (snapshot.mjs, in Node),
// so the snapshot holds exactly the state a normal boot reaches before grader.guard
// is armed and the pristine interpreter is captured. Those two steps always run in
// the worker itself, after the boot or the restore: the functions they return must
// live only in the worker's JavaScript, and the capture must be the browser's own.

export const COURSE_DIR = "/home/pyodide/course";

// The course first on the path, then the current directory, then the standard
// library. A restored snapshot gets a second "" from Pyodide's own boot; this puts
// both kinds of boot in the same order.
const SYS_PATH = `import sys
sys.path[:] = [${JSON.stringify(COURSE_DIR)}, ""] + [p for p in sys.path if p not in (${JSON.stringify(COURSE_DIR)}, "")]`;

/** Write the course files, {path: text} (course_build/packaging.py), and import the
 * worker's API. The files are written from JavaScript: Pyodide's file system is
 * JavaScript, so no Python runs for them (unpacking a zip in Python cost 30-40 ms of
 * every boot). The tracebacks' source lines, and any later import, read them: a
 * snapshot holds memory, not files. */
export function importCourse(pyodide, files) {
  for (const [path, text] of Object.entries(files)) {
    const file = `${COURSE_DIR}/${path}`;
    pyodide.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
    pyodide.FS.writeFile(file, text);
  }
  pyodide.runPython(SYS_PATH);
  return pyodide.pyimport("grader.worker_api");
}

// What a snapshot would otherwise share with the build and with every visitor: the
// random module's state, seeded once when the build imported it. (The time module's
// `timezone` and `tzname` stay the build's, made in UTC: Pyodide has no time.tzset();
// time.localtime() asks the browser each time, as in a normal boot.)
export const AFTER_RESTORE = "import random; random.seed()";
