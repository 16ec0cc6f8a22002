// The page's engine, in a worker of its own so that loading it never holds up a tap: Pyodide (CPython in
// WebAssembly) running the service's own Python sources, service.answers.answer, which makes the answer of a
// POST to /v1/score, /v1/settle, /v1/replay or /v1/evening exactly as the service does (docs/page-engine.md).
// engine.json says where the sources' zip and Pyodide's files are, relative to /table/.

const BASE = new URL("../", import.meta.url);
const HOME = "/gostop"; // where the sources are unpacked in Pyodide's file system

let answers = null; // the Python module service.answers

// Pyodide's loader fetches several files at once; when the connection goes in the middle of a load, the fetches
// it no longer waits for reject unheard. The load's own failure is posted to the page (engine.js says it once),
// so a network failure is not reported twice; any other rejection still is.
self.addEventListener("unhandledrejection", (event) => {
  if (event.reason instanceof TypeError && event.reason.message === "Failed to fetch") event.preventDefault();
});

// Where the start's time goes (docs/page-engine.md, bench/page_engine.py): when each step ended, from the
// worker's start, and how long Pyodide compiled and instantiated its WebAssembly.
const phases = {};
const mark = (name) => { phases[name] = Math.round(performance.now()); };
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (...args) => {
  mark("wasm_asked");
  const made = await instantiateStreaming(...args);
  mark("wasm_instantiated");
  return made;
};

const SNAPSHOTS = "gostop-engine-snapshot"; // the Cache API's cache of the snapshot (one: the latest engine's)

async function keptSnapshot(key) {
  try {
    const kept = await (await caches.open(SNAPSHOTS)).match(key);
    return kept ? new Uint8Array(await kept.arrayBuffer()) : null;
  } catch {
    return null; // no Cache API here (a page not from a secure origin): a start without it
  }
}

async function keepSnapshot(key, snapshot) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const request of await cache.keys()) await cache.delete(request); // an older engine's
    await cache.put(key, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }));
  } catch {
    // kept next time, or never: the engine starts without it
  }
}

const started = (async () => {
  const t0 = performance.now();
  const manifest = await (await fetch(new URL("engine.json", BASE))).json();
  mark("manifest");
  if (!manifest.pyodide) throw new Error(manifest.why || "no engine");
  const indexURL = new URL(manifest.pyodide, BASE).href;
  const snapshotKey = new URL(`${manifest.engine}.${manifest.pyodide.replace(/\W/g, "")}.snapshot`, BASE).href;
  const [{ loadPyodide }, zip, kept] = await Promise.all([
    import(new URL("pyodide.mjs", indexURL).href),
    fetch(new URL(manifest.engine, BASE)).then((r) => {
      if (!r.ok) throw new Error(`engine: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
    keptSnapshot(snapshotKey),
  ]);
  mark("pyodide_module_and_zip");
  // A start from the memory kept after an earlier start's imports (Pyodide's memory snapshot) skips starting
  // CPython and importing the engine: most of the time. Kept per engine and Pyodide; a snapshot Pyodide
  // refuses (another build) is made again.
  let pyodide = null;
  if (kept) {
    pyodide = await loadPyodide({ indexURL, fullStdLib: false, _loadSnapshot: kept }).catch((error) => {
      phases.snapshot_refused = String(error?.message || error);
      return null;
    });
  }
  if (!pyodide) pyodide = await loadPyodide({ indexURL, fullStdLib: false, _makeSnapshot: true });
  const t1 = performance.now();
  mark("pyodide_loaded");
  // the files are read after the start too (the catalogs' words, modules imported when first needed)
  pyodide.unpackArchive(zip, "zip", { extractDir: HOME });
  const t2 = performance.now();
  mark("unpacked");
  if (!kept || !pyodide.runPython(`"service.answers" in __import__("sys").modules`)) {
    pyodide.runPython(`import sys\nsys.path.insert(0, "${HOME}")\nimport service.answers`);
    keepSnapshot(snapshotKey, pyodide.makeMemorySnapshot());
  }
  answers = pyodide.pyimport("service.answers");
  mark("imported");
  phases.from_snapshot = Boolean(kept) && !phases.snapshot_refused;
  phases.snapshot_bytes = kept?.length ?? 0;
  for (const entry of performance.getEntriesByType("resource")) {
    const name = entry.name.split("/").pop();
    phases[`fetched ${name.startsWith("engine-") ? "engine.zip" : name}`] = Math.round(entry.responseEnd);
  }
  const memory = pyodide._module?.HEAP8?.length ?? null; // the WebAssembly memory the engine holds, in bytes
  return {
    engine_version: manifest.engine_version,
    pyodide: pyodide.version,
    pyodide_ms: Math.round(t1 - t0),
    imports_ms: Math.round(performance.now() - t2), // the engine's modules, compiled and run
    ready_ms: Math.round(performance.now() - t0),
    wasm_memory_bytes: memory,
    phases,
    time_origin: performance.timeOrigin, // the worker's start, to set its phases against the page's navigation
  };
})();

started.then(
  (info) => postMessage({ ready: info }),
  (error) => postMessage({ failed: String(error?.message || error) }),
);

self.onmessage = async ({ data }) => {
  try {
    await started;
    const t0 = performance.now();
    const said = data.body === undefined
      ? answers.catalog_json(data.path, data.lang) // GET /v1/cards, /v1/rules, /v1/rules/{preset}
      : answers.answer_json(data.path, data.body, data.lang);
    const [status, body] = JSON.parse(said);
    postMessage({ id: data.id, status, body, ms: performance.now() - t0 });
  } catch (error) {
    postMessage({ id: data.id, error: String(error?.message || error) });
  }
};
