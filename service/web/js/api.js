// The page talks to the service only through its public API. Every answer's sentences come in the page's
// language (Accept-Language). A failure to reach the service is told apart from a refusal (problem+json).
// When the service cannot be reached, the engine in the page (engine.js, docs/page-engine.md) gives the same
// answer from the same Python sources, and `ruling.by` says which ruled ("service" or "page").

import { language } from "./words.js";

// The engine is not part of the first load: engine.js comes with its first use.
const loadEngine = () => import("./engine.js");
window.gostop = {
  get ready() { return loadEngine().then((engine) => engine.start()); },
  answer: (path, body, lang) => loadEngine().then((engine) => engine.answer(path, body, lang)),
};

export class Offline extends Error {}

export class Problem extends Error {
  constructor(body, status) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.body = body;
    this.status = status;
  }
}

// A connection that hangs (a phone on a weak signal) counts as unreachable after this long: the page keeps
// what was entered and goes on, rather than waiting.
const PATIENCE_MS = 10_000;
let inFlight = 0;

function busy(step) {
  inFlight += step;
  document.body.toggleAttribute("data-busy", inFlight > 0); // the tests wait for the page to be idle
}

// What the engine in the page answers.
const RULED = new Set(["/v1/score", "/v1/settle", "/v1/replay", "/v1/evening"]);
const CATALOG = /^\/v1\/(cards|rules)(\/[^/]+)?$/;
// A page written by `gostop page` has no service: it waits for its engine.
const STANDALONE = document.documentElement.hasAttribute("data-standalone");
export const ruling = { by: null };

function ruledBy(by) {
  ruling.by = by;
  document.body.dataset.ruledBy = by;
}

async function call(method, path, body, type = "application/json") {
  const headers = { "Accept-Language": language(), Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = type;
  busy(1);
  try {
    if (STANDALONE) throw new Offline("no service: a page written by gostop page");
    const data = await answer(method, path, headers, body === undefined || type !== "application/json" ? body : JSON.stringify(body));
    if (RULED.has(path)) ruledBy("service");
    return data;
  } catch (error) {
    if (!(error instanceof Offline)) throw error;
    const said = await onThePhone(method, path, body);
    if (!said) throw error;
    return said.data;
  } finally {
    busy(-1);
  }
}

// The engine's answer while the service cannot be reached: {data}, a Problem, or null while the engine loads
// (main.js asks again once it is).
async function onThePhone(method, path, body) {
  const ruled = method === "POST" && RULED.has(path);
  if (!ruled && !(method === "GET" && CATALOG.test(path))) return null;
  let engine;
  try {
    engine = await loadEngine();
  } catch {
    return null; // engine.js cannot be fetched
  }
  if (!engine.info) {
    const loading = engine.start();
    if (!STANDALONE) return null;
    try {
      await loading;
    } catch {
      return null;
    }
  }
  const { status, body: data } = ruled ? await engine.answer(path, body, language()) : await engine.catalog(path, language());
  if (status >= 500) return null;
  if (ruled) ruledBy("page");
  if (status >= 400) throw new Problem(data, status);
  return { data };
}

async function answer(method, path, headers, body) {
  let response;
  try {
    response = await fetch(path, {
      method, headers, body, signal: AbortSignal.timeout(PATIENCE_MS),
    });
  } catch (error) {
    throw new Offline(String(error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // an answer cut off (or a body that never came) is no answer at all
    if (response.ok || response.status >= 500 || response.status === 0) throw new Offline(`HTTP ${response.status}`);
    data = { detail: `HTTP ${response.status}` };
  }
  if (response.status >= 500) throw new Offline(`HTTP ${response.status}`);
  if (!response.ok) throw new Problem(data, response.status);
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body) => call("POST", path, body);
// a text body as it is (a log in the text notation, docs/NOTATION.md)
export const postText = (path, text) => call("POST", path, text, "text/plain; charset=utf-8");
