// The course's service worker: after one visit, the whole course works offline.
// The plugin fills in VERSION (a hash of everything precached) and PRECACHE
// (every file of the site). A new build has a new VERSION: the browser installs
// the new worker, which precaches the new files and deletes the old cache.
const VERSION = "__VERSION__";
const PRECACHE = __PRECACHE__;
const CACHE = `byoa-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Hashed assets may come from the HTTP cache (the visit just fetched them); pages are revalidated.
    await cache.addAll(PRECACHE.map((path) => new Request(path, { cache: path.startsWith("assets/") ? "default" : "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("byoa-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// Hashed and versioned assets never change: cache first. Pages may change with
// a new build: network first, the cache when offline.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  const immutable = url.pathname.includes("/assets/");
  event.respondWith(immutable ? cacheFirst(event.request) : networkFirst(event.request));
});

async function cacheFirst(request) {
  const cached = await caches.match(request, { ignoreSearch: true });
  return cached || fetch(request);
}

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(CACHE)).put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await caches.match(request, { ignoreSearch: true })
      || await caches.match(new URL("index.html", request.url).href.replace(/\/index\.html$/, "/"));
    if (cached) return cached;
    throw error;
  }
}
