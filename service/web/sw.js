// The table page's service worker: the page opens, with everything entered, even when the service cannot be
// reached (a phone at a table loses the connection). Network first, so a new version shows at once; when the
// network fails, the copy kept from the last visit. Only the page and the catalog it starts from are kept:
// rulings are always asked of the service.
const CACHE = "gostop-page";
const PAGE = [
  "/",
  "/favicon.ico",
  "/table/icon.svg",
  "/table/table.css",
  ...["main", "app", "api", "store", "words", "dom", "cards", "ruling", "log", "quick", "settle", "offline", "live", "ledger", "check", "shared", "share"]
    .map((name) => `/table/js/${name}.js`),
  "/v1/cards",
  "/v1/rules",
  "/v1/words",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PAGE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || !PAGE.includes(url.pathname)) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
        }
        return response;
      })
      .catch(() => caches.match(url.pathname).then((kept) => kept || Response.error())),
  );
});
