// The engine in the page (docs/page-engine.md): window.gostop.ready, a promise that resolves when the engine is
// loaded, and window.gostop.answer(path, body, lang), the answer {status, body} of POST path (/v1/score,
// /v1/settle, /v1/replay, /v1/evening) made on the phone by the service's own Python sources under Pyodide,
// identical to the service's. Nothing loads until start() (the page calls it once it is drawn) or the first
// answer asked: the first paint and the first tap never wait for it.

let worker = null;
let serial = 0;
const waiting = new Map();
let settle = null;
export const ready = new Promise((resolve, reject) => { settle = { resolve, reject }; });
ready.catch((error) => console.info(`gostop: the service rules (${error.message})`)); // said once
export let info = null; // once ready: the engine's version, Pyodide's, the load times, its memory

export function start() {
  if (worker) return ready;
  try {
    worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  } catch (error) {
    settle.reject(error);
    return ready;
  }
  worker.onmessage = ({ data }) => {
    if (data.ready) {
      info = data.ready;
      settle.resolve(info);
    } else if (data.failed) {
      settle.reject(new Error(data.failed));
    } else {
      const asked = waiting.get(data.id);
      waiting.delete(data.id);
      if (data.error) asked?.reject(new Error(data.error));
      else asked?.resolve({ status: data.status, body: data.body });
    }
  };
  worker.onerror = (event) => settle.reject(new Error(event.message || "the engine's worker failed"));
  return ready;
}

// The answer of POST path with this body (a JSON value; for /v1/replay a string is a log in the text
// notation), in lang ("en" or "ko"): {status, body}, as the service answers it.
export async function answer(path, body, lang = "en") {
  await start();
  const id = ++serial;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, path, body: JSON.stringify(body), lang });
  });
}

window.gostop = { ready, answer, start, get info() { return info; } };
