// The engine in the page (docs/page-engine.md): window.gostop.ready, a promise that resolves when the engine is
// loaded, and window.gostop.answer(path, body, lang), the answer {status, body} of POST path (/v1/score,
// /v1/settle, /v1/replay, /v1/evening) made on the phone by the service's own Python sources under Pyodide,
// identical to the service's (window.gostop is api.js's: this module loads on its first use). Nothing loads
// until start(): the page calls it once it is drawn and the engine is in the service worker's cache, or when
// the service cannot be reached; an app that embeds gostop starts it by asking for `ready` or for an answer.
// The first paint and the first tap never wait for it.

let worker = null;
let serial = 0;
const waiting = new Map();
let loading = null; // the promise of the load under way or done; null before start() or after a failure
export let info = null; // once loaded: the engine's version, Pyodide's, the load times, its memory
let said = false;

export function start() {
  if (loading) return loading;
  performance.mark("gostop-engine-start"); // bench/page_engine.py: when the page asked for its engine
  loading = new Promise((resolve, reject) => {
    try {
      worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
    } catch (error) {
      reject(error);
      return;
    }
    worker.onmessage = ({ data }) => {
      if (data.ready) {
        info = data.ready;
        resolve(info);
        dispatchEvent(new CustomEvent("gostop-engine", { detail: info }));
      } else if (data.failed) {
        reject(new Error(data.failed));
      } else {
        const asked = waiting.get(data.id);
        waiting.delete(data.id);
        if (data.error) asked?.reject(new Error(data.error));
        else asked?.resolve({ status: data.status, body: data.body });
      }
    };
    worker.onerror = (event) => reject(new Error(event.message || "the engine's worker failed"));
  });
  loading.catch((error) => {
    // said once; a later start() tries again (the files may not have been cached yet)
    if (!said) console.info(`gostop: the page's engine did not load, the service rules (${error.message})`);
    said = true;
    worker?.terminate();
    worker = null;
    loading = null;
  });
  return loading;
}

// The answer of POST path with this body (a JSON value; for /v1/replay a string is a log in the text
// notation), in lang ("en" or "ko"): {status, body}, as the service answers it.
export async function answer(path, body, lang = "en") {
  return ask({ path, body: JSON.stringify(body ?? null), lang });
}

// GET of a catalog (/v1/cards, /v1/rules, /v1/rules/{preset}), {status, body} as the service answers it.
export async function catalog(path, lang = "en") {
  return ask({ path, lang });
}

async function ask(message) {
  await start();
  const id = ++serial;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, ...message });
  });
}
