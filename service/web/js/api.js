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

async function call(method, path, body) {
  const headers = { "Accept-Language": language(), Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new Offline(String(error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    if (response.status >= 500 || response.status === 0) throw new Offline(`HTTP ${response.status}`);
    data = { detail: `HTTP ${response.status}` };
  }
  if (response.status >= 500) throw new Offline(`HTTP ${response.status}`);
  if (!response.ok) throw new Problem(data, response.status);
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body) => call("POST", path, body);
