// The page talks to the service only through its public API. Every answer's sentences come in the page's
// language (Accept-Language). A failure to reach the service is told apart from a refusal (problem+json).

import { language } from "./words.js";

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

async function call(method, path, body, type = "application/json") {
  const headers = { "Accept-Language": language(), Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = type;
  busy(1);
  try {
    return await answer(method, path, headers, body === undefined || type !== "application/json" ? body : JSON.stringify(body));
  } finally {
    busy(-1);
  }
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
