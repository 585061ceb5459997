// The standard library of a snapshot boot, downloaded only if an import needs it.
//
// Python imports the standard library from one zip (python_stdlib.zip, 2.5 MB, on
// the critical path of a normal boot). A snapshot holds every module the course
// imports, and the zip importer's table of contents of that zip, read when the
// snapshot was made (the build keys its snapshot on the zip's bytes). So a snapshot
// boot asks Pyodide to install an empty zip instead, and then puts at the zip's path
// a file whose bytes are fetched, synchronously, the first time Python opens it: when
// code imports a module that the snapshot lacks. The course's own boot and Checks
// never do (tests/e2e/test_snapshot.py).

// Kept before worker.js deletes the global once Python is up: this fetches one fixed
// URL of the site, whatever the code that triggers it.
const Request = globalThis.XMLHttpRequest;
const EIO = 29; // Emscripten's errno: Python sees OSError

function fetchNow(FS, url) {
  const request = new Request();
  try {
    request.open("GET", url, false); // a worker may block: Python is waiting for the bytes
    request.responseType = "arraybuffer";
    request.send();
  } catch {
    throw new FS.ErrnoError(EIO);
  }
  if (request.status !== 200) throw new FS.ErrnoError(EIO);
  return new Uint8Array(request.response);
}

/** After loadPyodide: the zip at Python's path becomes a read-only file whose contents
 * come from `url` (the real python_stdlib.zip) at its first read or stat. */
export function fetchStdlibWhenRead(pyodide, url) {
  const FS = pyodide.FS;
  const name = FS.readdir("/lib").find((entry) => /^python\d+\.zip$/.test(entry));
  if (!name) return;
  const path = `/lib/${name}`;
  FS.unlink(path);
  FS.writeFile(path, new Uint8Array(0));
  FS.chmod(path, 0o444);
  const node = FS.lookupPath(path).node;
  let bytes = null;
  const contents = () => {
    bytes ||= fetchNow(FS, url);
    return bytes;
  };
  Object.defineProperties(node, {
    contents: { get: contents, set() {}, configurable: true },
    usedBytes: { get: () => contents().length, set() {}, configurable: true },
  });
}
