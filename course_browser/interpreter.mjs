// The course's Python, up to the moment the guard is armed: shared by the worker
// (worker.js, in the browser) and the build's memory snapshot (snapshot.mjs, in Node),
// so the snapshot holds exactly the state a normal boot reaches before runner.guard
// is armed. Arming always runs in the worker itself, after the boot or the restore:
// the functions it returns must live only in the worker's JavaScript.

export const COURSE_DIR = "/home/pyodide/course";

// The course first on the path, then the current directory, then the standard
// library. A restored snapshot gets a second "" from Pyodide's own boot; this puts
// both kinds of boot in the same order.
const SYS_PATH = `import sys
sys.path[:] = [${JSON.stringify(COURSE_DIR)}, ""] + [p for p in sys.path if p not in (${JSON.stringify(COURSE_DIR)}, "")]`;

// The finders of folders look again, for files written after the interpreter started.
// The standard library's zip importer is left alone: it keeps the table of contents a
// snapshot holds, so a snapshot boot reads the zip only to import a module that the
// snapshot lacks (stdlib.mjs). importlib.invalidate_caches() would drop that table.
// Compiled once per interpreter, in a namespace of its own: a Check writes its
// exercise's files just before it runs, and compiling this text again there cost
// 2-20 ms of the Check (a function call: 0.1-0.6 ms).
const LOOK_AGAIN = `import sys, zipimport
def look_again():
    for finder in list(sys.path_importer_cache.values()):
        if finder is not None and not isinstance(finder, zipimport.zipimporter):
            finder.invalidate_caches()
look_again`;
const lookAgain = new WeakMap(); // each interpreter's look_again, made by its first writeFiles

function lookAgainIn(pyodide) {
  if (!lookAgain.has(pyodide)) {
    const namespace = pyodide.toPy({});
    lookAgain.set(pyodide, pyodide.runPython(LOOK_AGAIN, { globals: namespace }));
    namespace.destroy();
  }
  return lookAgain.get(pyodide);
}

/** Write files, {path: text} under the course folder, into Pyodide's file system. From
 * JavaScript: Pyodide's file system is JavaScript, so no Python runs for them
 * (unpacking a zip in Python cost 30-40 ms of every boot). */
export function writeFiles(pyodide, files) {
  for (const [path, text] of Object.entries(files)) {
    const file = `${COURSE_DIR}/${path}`;
    pyodide.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
    pyodide.FS.writeFile(file, text);
  }
  lookAgainIn(pyodide)();
}

/** Write the course files (course_build/packaging.py) and import `entry`, the module
 * the worker calls: runner.api for a grading interpreter, labs.api for the labs. The
 * tracebacks' source lines, and any later import, read the files: a snapshot holds
 * memory, not files. */
export function importCourse(pyodide, files, entry = "runner.api") {
  writeFiles(pyodide, files);
  pyodide.runPython(SYS_PATH);
  return pyodide.pyimport(entry);
}

// What a snapshot would otherwise share with the build and with every visitor: the
// random module's state, seeded once when the build imported it. (The time module's
// `timezone` and `tzname` stay the build's, made in UTC: Pyodide has no time.tzset();
// time.localtime() asks the browser each time, as in a normal boot.)
export const AFTER_RESTORE = "import random; random.seed()";
