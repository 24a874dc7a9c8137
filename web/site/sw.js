// The service worker: every file of the site kept for offline use, by the build's
// version (offline.json, written by make web), and served from there first.
const VERSION = new URL(self.location).searchParams.get("v") || "unversioned";
const CACHE = `chess-clock-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const offline = await (await fetch("offline.json", { cache: "no-cache" })).json();
      const cache = await caches.open(CACHE);
      // from the server, never the browser's HTTP cache: it may hold the last build's
      await cache.addAll(offline.files.map((file) => new Request(file, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const kept = await cache.match(request, { ignoreSearch: true });
      return kept || fetch(request);
    })(),
  );
});
