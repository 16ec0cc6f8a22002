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

const started = (async () => {
  const t0 = performance.now();
  const manifest = await (await fetch(new URL("engine.json", BASE))).json();
  if (!manifest.pyodide) throw new Error(manifest.why || "no engine");
  const indexURL = new URL(manifest.pyodide, BASE).href;
  const [{ loadPyodide }, zip] = await Promise.all([
    import(new URL("pyodide.mjs", indexURL).href),
    fetch(new URL(manifest.engine, BASE)).then((r) => {
      if (!r.ok) throw new Error(`engine: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
  ]);
  const pyodide = await loadPyodide({ indexURL, fullStdLib: false });
  const t1 = performance.now();
  pyodide.unpackArchive(zip, "zip", { extractDir: HOME });
  const t2 = performance.now();
  pyodide.runPython(`import sys\nsys.path.insert(0, "${HOME}")\nimport service.answers`);
  answers = pyodide.pyimport("service.answers");
  const memory = pyodide._module?.HEAP8?.length ?? null; // the WebAssembly memory the engine holds, in bytes
  return {
    engine_version: manifest.engine_version,
    pyodide: pyodide.version,
    pyodide_ms: Math.round(t1 - t0),
    imports_ms: Math.round(performance.now() - t2), // the engine's modules, compiled and run
    ready_ms: Math.round(performance.now() - t0),
    wasm_memory_bytes: memory,
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
