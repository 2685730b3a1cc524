// Service worker: the site works offline after one visit.
//
// build.py copies this file to the root of dist/ (a service worker controls only
// pages at or below its own URL) and inserts the build info. Each build has its
// own cache, named after the build id: install fills it with every file of the
// build but those the build lists as online or later, activate deletes the caches
// of older builds, fetch answers from it first and keeps a "later" file (a wheel
// only an invite's QR code needs, a friends' table's code) the first time the page asks for it.

const BUILD = __PISHE_BUILD__; // replaced by build.py: {id, wheels, files, online, later}
const PREFIX = "pishe-";
const CACHE = PREFIX + BUILD.id;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // "no-cache" revalidates with the server, so a copy of a file that the HTTP
      // cache kept from an older build never lands in this build's cache.
      // The files listed "online" are left to the network: the settings a host edits
      // in dist/, and the Nostr library, which only a friend's table loads.
      // index.html is kept as the site's address ("./"), the one a visitor opens (a link, an
      // invite): the page just loaded from it is in the HTTP cache, and revalidated, not sent again.
      const kept = BUILD.files.filter((f) => !BUILD.online.includes(f) && !BUILD.later.includes(f));
      await cache.addAll(kept.map((f) => new Request(new URL(f === "index.html" ? "./" : f, self.location),
                                                     { cache: "no-cache" })));
      // Take over at once: a page already running keeps what it has loaded.
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(cacheFirst(request));
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  let key = request;
  if (request.mode === "navigate") {
    // A page address may carry settings in its query (index.html?delay=0), and
    // index.html is "./": look both up as the site's address, as install kept it.
    const url = new URL(request.url);
    url.search = "";
    url.hash = "";
    if (url.pathname.endsWith("/index.html")) url.pathname = url.pathname.slice(0, -"index.html".length);
    key = url.href;
  }
  const kept = await cache.match(key);
  if (kept) return kept;
  const response = await fetch(request);
  const path = new URL(request.url).pathname.slice(new URL(self.registration.scope).pathname.length);
  if (response.ok && BUILD.later.includes(path)) await cache.put(request, response.clone());
  return response;
}
