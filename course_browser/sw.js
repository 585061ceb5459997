// The course's service worker: after one visit, the whole course works offline.
// The plugin fills in VERSION (a hash of everything precached), HASHES (the SHA-256
// of every precached file, by its path under the site root) and CSP (the site's
// Content-Security-Policy). A new build has a new VERSION: the browser installs the
// new worker, which precaches the new files and deletes the old cache.
//
// Cache Storage is writable by any script of the origin, so nothing is served from it
// on trust: every cached body is checked against its hash on every serve (a bad one is
// fetched again and the cache repaired, or refused when offline), only this version's
// own cache is read, and no request of its pages or workers leaves the origin.
const VERSION = "__VERSION__";
const HASHES = __HASHES__;
const CSP = __CSP__;
const PRECACHE = Object.keys(HASHES);
const CACHE = `byoa-${VERSION}`;
const ROOT = new URL("./", self.location.href);

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The precache path of a URL of the site ("autograd/", "./", "assets/…"), or null. */
function pathOf(url) {
  if (url.origin !== ROOT.origin || !url.pathname.startsWith(ROOT.pathname)) return null;
  let rel = decodeURIComponent(url.pathname.slice(ROOT.pathname.length));
  if (rel === "" || rel === "index.html") rel = "./";
  else if (rel.endsWith("/index.html")) rel = rel.slice(0, -"index.html".length);
  return rel;
}

/** A response with this body, `source`'s status and headers, and the site's CSP if it had none
 * (so the Python worker has one even where the host sends no headers). */
function rebuild(body, source) {
  const headers = new Headers(source.headers);
  if (CSP && !headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", CSP);
  return new Response(body, { status: source.status, statusText: source.statusText, headers });
}

/** `response` itself, or with the site's CSP added if it had none (its body is passed on, not copied). */
function withCsp(response) {
  if (!CSP || response.headers.has("Content-Security-Policy")) return response;
  return rebuild(response.body, response);
}

/** This version's cache, or null once a newer worker has deleted it. An older worker
 * keeps serving its pages until the new one claims them, and `caches.open` would
 * create its deleted cache again: a stale second cache that no activation removes. */
async function ownCache() {
  return (await caches.has(CACHE)) ? caches.open(CACHE) : null;
}

/** Fetch a precached file and keep it only if its bytes are the build's (and `cache` is still this version's). */
async function fetchVerified(cache, path, init) {
  const response = await fetch(new Request(new URL(path, ROOT), init));
  const body = await response.arrayBuffer();
  const good = response.ok && (await sha256(body)) === HASHES[path];
  if (good && cache) await cache.put(new URL(path, ROOT), new Response(body, response));
  return { response, body, good };
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Hashed assets may come from the HTTP cache (the visit just fetched them); pages are revalidated.
    const results = await Promise.all(PRECACHE.map((path) => fetchVerified(cache, path,
      { cache: path.startsWith("assets/") ? "default" : "no-cache" })));
    const bad = PRECACHE.filter((_, i) => !results[i].good);
    if (bad.length) throw new Error(`precache: ${bad.length} files differ from this build`);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("byoa-") && name !== CACHE) await caches.delete(name); // older builds, and the browser-made snapshot of before
    }
    await self.clients.claim();
  })());
});

// Hashed and versioned assets never change: cache first. Pages may change with
// a new build: network first, the cache when offline. Another origin: refused.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin) {
    event.respondWith(Response.error());
    return;
  }
  if (event.request.method !== "GET") return;
  const path = pathOf(url);
  if (path === null || !(path in HASHES)) return; // not precached: the network, as without this worker
  event.respondWith(path.startsWith("assets/") ? cacheFirst(path) : networkFirst(event, path));
});

/** The cached copy if its bytes are the build's, else null (and the bad entry is dropped). */
async function verifiedFromCache(cache, path) {
  const cached = await cache.match(new URL(path, ROOT));
  if (!cached) return null;
  const served = cached.clone(); // the very bytes hashed below: a response's body can't change
  const body = await cached.arrayBuffer();
  if ((await sha256(body)) === HASHES[path]) return withCsp(served);
  await cache.delete(new URL(path, ROOT));
  return null;
}

async function cacheFirst(path) {
  const cache = await ownCache();
  const good = cache && (await verifiedFromCache(cache, path));
  if (good) return good;
  const { response, body } = await fetchVerified(cache, path, { cache: "no-cache" });
  return rebuild(body, response); // the network's answer, repaired into the cache if it is the build's
}

async function networkFirst(event, path) {
  let response;
  try {
    // past the HTTP cache: a page without Cache-Control may be kept "fresh" by heuristics,
    // and would serve the last build's page (and its data) to a returning learner
    response = await fetch(event.request.url, { cache: "no-cache", credentials: "same-origin" });
  } catch {
    const cache = await ownCache();
    const good = cache && (await verifiedFromCache(cache, path));
    if (good) return good;
    return Response.error(); // offline and no sound copy: fail closed
  }
  if (response.ok) {
    // keep the cache sound: repair a missing or bad entry with the network's copy when it is the build's
    const copy = response.clone();
    event.waitUntil(ownCache().then(async (cache) => {
      if (!cache) return;
      const body = await copy.arrayBuffer();
      if ((await sha256(body)) !== HASHES[path]) return;
      const cached = await cache.match(new URL(path, ROOT));
      if (!cached || (await sha256(await cached.arrayBuffer())) !== HASHES[path]) {
        await cache.put(new URL(path, ROOT), new Response(body, copy));
      }
    }).catch(() => {}));
  }
  return response;
}
