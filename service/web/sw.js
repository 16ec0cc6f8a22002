// The table page's service worker: the page opens, with everything entered, even when the service cannot be
// reached (a phone at a table loses the connection). Network first, so a new version shows at once; when the
// network fails, the copy kept from the last visit. The engine (docs/page-engine.md) is kept too: engine.json
// like the page, and the files it names (the engine's zip, named by its content, and Pyodide's, under its
// version) from the cache first, since they never change; they are fetched once the page is drawn (the page
// asks: "keep-engine"), whenever engine.json names new ones, and kept when the engine loads them, so a second
// visit rules offline. The worker installs without them: it controls the page at once. Every path is relative to the
// worker's scope: the same worker serves the service's page and a page written by `gostop page` anywhere.
const CACHE = "gostop-page";
const ENGINE = "gostop-engine";
const BASE = new URL(self.registration.scope).pathname; // "/" for the service's page
const at = (path) => BASE + path;
const PAGE = [
  "",
  "favicon.ico",
  "table/icon.svg",
  "table/table.css",
  "table/engine.json",
  ...["main", "app", "api", "store", "words", "dom", "cards", "ruling", "log", "quick", "settle", "live", "ledger", "check", "shared", "share", "engine", "engine-worker"]
    .map((name) => `table/js/${name}.js`),
].map(at);
const CATALOGS = ["v1/cards", "v1/rules", "v1/words"].map(at); // the service's; a page with no service has its engine's
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const KEPT = [at("table/engine/"), at("table/pyodide/")];

// The engine's files engine.json names: fetched when missing; those of an older engine are let go.
async function keepEngine(manifest) {
  if (!manifest.pyodide) return;
  const wanted = [at(`table/${manifest.engine}`), ...PYODIDE_FILES.map((name) => at(`table/${manifest.pyodide}${name}`))];
  const cache = await caches.open(ENGINE);
  for (const request of await cache.keys()) {
    if (!wanted.includes(new URL(request.url).pathname)) await cache.delete(request);
  }
  for (const path of wanted) {
    if (!(await cache.match(path))) await cache.add(path);
  }
}

async function install() {
  const cache = await caches.open(CACHE);
  await cache.addAll(PAGE);
  await cache.addAll(CATALOGS).catch(() => {});
}

self.addEventListener("message", (event) => {
  if (event.data !== "keep-engine") return;
  const manifest = caches.match(at("table/engine.json")).then((kept) => kept || fetch(at("table/engine.json")));
  // the page works without the engine (the service rules): a failure here is no failure of the page
  // once kept, the page is told: it starts the engine once, so that its memory is kept for the next visit
  const told = () => event.source?.postMessage("engine-kept");
  event.waitUntil(manifest.then((response) => response.json()).then(keepEngine).then(told).catch(() => {}));
});

self.addEventListener("install", (event) => {
  event.waitUntil(install().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (KEPT.some((prefix) => url.pathname.startsWith(prefix))) {
    event.respondWith(caches.open(ENGINE).then(async (cache) => {
      const kept = await cache.match(url.pathname);
      if (kept) return kept;
      const response = await fetch(event.request);
      if (response.ok) event.waitUntil(cache.put(url.pathname, response.clone()));
      return response;
    }));
    return;
  }
  if (!PAGE.includes(url.pathname) && !CATALOGS.includes(url.pathname)) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
          if (url.pathname === at("table/engine.json")) {
            event.waitUntil(response.clone().json().then(keepEngine).catch(() => {}));
          }
        }
        return response;
      })
      .catch(() => caches.match(url.pathname).then((kept) => kept || Response.error())),
  );
});
