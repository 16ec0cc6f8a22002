// Flow 4, check a logged hand: paste or open a log (the JSON /v1/replay takes, e.g. one saved by the live
// game, or the same log in the text notation of docs/NOTATION.md, sent as text/plain) and see the verdict,
// the settlement, or the first illegal move highlighted with the reason; a text the notation cannot read is
// shown at its line and column.

import { h } from "./dom.js";
import { post, postText, Problem } from "./api.js";
import { app, reach } from "./app.js";
import { offers } from "./shared.js";
import { rulingLines, shareBar } from "./share.js";
import { eventsView, movesView } from "./log.js";
import { rulingView, problemView } from "./ruling.js";
import { load, save } from "./store.js";
import { t, language } from "./words.js";

let state = null;

export function init() {
  state = load("check", () => ({ text: "", result: null }));
}

function store() {
  save("check", state);
}

// A log opened from a share link (/#/check/<b64>): a text log as it is, a JSON log laid out; checked at once.
export async function openText(text) {
  state = { text, result: null };
  store();
  await run();
}

export function setLog(log) {
  state = { text: JSON.stringify(log, null, 1), result: null };
  store();
}

// A log in JSON (or JSON cut short: it starts with "{"); anything else is the text notation, read by the service.
function isText(text) {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return !text.trim().startsWith("{");
  }
}

async function run(quiet = false) {
  let log;
  let refused = null;
  if (isText(state.text)) return runText(quiet);
  try {
    log = JSON.parse(state.text);
    // a log is one JSON object: anything else is told here, in words, rather than as a schema error
    if (!log || typeof log !== "object" || Array.isArray(log)) refused = { notLog: true };
  } catch {
    // the browser's own parser message is English and technical: the table is told what the text is not
    refused = { notJson: true };
  }
  if (refused) {
    state.result = refused;
    store();
    app.rerender();
    return;
  }
  try {
    const answer = await reach(() => post("/v1/replay", log));
    if (!answer) return;
    state.result = { answer, log, lang: language() };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    state.result = { problem: error.body, log, lang: language() };
  }
  store();
  app.rerender();
  if (!quiet) document.querySelector(".verdict")?.scrollIntoView({ block: "start" });
}

async function runText(quiet) {
  const text = state.text;
  if (!text.trim()) return;
  try {
    const answer = await reach(() => postText("/v1/replay", text));
    if (!answer) return;
    state.result = { answer, text, lang: language() };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    state.result = { problem: error.body, text, lang: language() };
  }
  store();
  app.rerender();
  if (!quiet) document.querySelector(".verdict")?.scrollIntoView({ block: "start" });
}

// The line of the text a refusal points at (a notation error's line and column, or the line of the move a
// replay refused), drawn with a mark under the column.
function textAt(p) {
  if (!state.result || state.result.text === undefined || !Number.isInteger(p.line)) return null;
  const line = state.result.text.split(/\r?\n/)[p.line - 1] ?? "";
  const column = Number.isInteger(p.column) ? p.column : 1;
  return h("figure", { class: "text-at", "data-line": p.line, "data-column": column },
    h("figcaption", {}, t("text_at", { line: p.line, column })),
    // the caret under the column: the line's own text before it, unseen, takes the same width (Hangul is wider
    // than a space in a monospace font)
    h("pre", {}, h("code", {}, line), "\n", h("span", { class: "caret", "aria-hidden": "true" },
      h("span", { class: "caret-pad" }, [...line].slice(0, Math.max(0, column - 1)).join("")), "^")));
}

// The verdict on the page, again in the page's new language.
export function relanguage() {
  if (state.result && (state.result.answer || state.result.problem)) run(true);
}

export function retry() {
  if (state.text) run();
}

// After a reload: a verdict kept in another language is asked for in this one.
export function resume() {
  if (state.result && state.result.lang && state.result.lang !== language()) relanguage();
}

// The text changed: the verdict below it was about another log, and goes at once.
function edited(text) {
  state.text = text;
  if (state.result) {
    state.result = null;
    document.querySelector(".check-log .verdict")?.remove();
  }
  store();
}

function verdict() {
  const r = state.result;
  if (!r) return null;
  if (r.noGame) return h("div", { class: "verdict", role: "status", "data-verdict": "no-game" }, t("no_live_game"));
  if (r.notJson) return h("div", { class: "verdict bad", role: "alert", "data-verdict": "not-json" }, t("not_json"));
  if (r.notLog) return h("div", { class: "verdict bad", role: "alert", "data-verdict": "not-a-log" }, t("not_a_log"));
  const moves = Array.isArray(r.log && r.log.moves) ? r.log.moves.filter((m) => m && typeof m === "object") : [];
  if (r.problem) {
    const p = r.problem;
    if (typeof p.move_index === "number") {
      return h("div", { class: "verdict bad", "data-verdict": "illegal", "data-move-index": p.move_index },
        h("div", { role: "alert" }, h("h2", {}, t("verdict_bad", { n: p.move_index + 1 })), h("p", { class: "reason" }, p.detail)),
        textAt(p), r.log ? movesView(moves, p) : null);
    }
    if (p.code === "bad-notation") {
      return h("div", { class: "verdict bad", "data-verdict": "bad-notation" },
        h("div", { role: "alert" }, h("h2", {}, t("verdict_bad_notation")), h("p", { class: "reason" }, p.detail)), textAt(p));
    }
    // in the table's words: a deal that cannot be is not "an illegal move", and a body of the wrong shape is
    // "not a Go-Stop log" (with the parts that are wrong), not a request-schema error
    if (p.code === "bad-deal") {
      return h("div", { class: "verdict bad", "data-verdict": "bad-deal" },
        h("div", { role: "alert" }, h("h2", {}, t("verdict_bad_deal")), h("p", { class: "reason" }, p.detail)));
    }
    if (p.code === "validation-error") {
      return h("div", { class: "verdict bad", "data-verdict": "validation-error" },
        h("div", { role: "alert" }, h("h2", {}, t("not_a_log_fields"))), problemView({ body: p }, { fieldsOnly: true }));
    }
    return h("div", { class: "verdict bad", "data-verdict": p.code || "problem" }, problemView({ body: p }));
  }
  const a = r.answer;
  return h("div", { class: "verdict ok", "data-verdict": a.status },
    h("div", { role: "status" }, h("h2", {}, t("verdict_ok"), ": ", a.status === "finished" ? t("verdict_finished") : t("verdict_progress", { p: a.next.player }))),
    a.settlement ? rulingView(a.settlement) : null,
    shareBar("check", () => (isText(state.text) ? state.text : JSON.parse(state.text)), () => checkLines(a)),
    h("h3", {}, t("events")), eventsView(a.events, { inOrder: true }),
    r.log ? [h("h3", {}, t("moves")), movesView(moves, null)] : null);
}

// A checked log said in lines, for a group chat.
function checkLines(a) {
  const head = `${t("check_title")} · ${t("verdict_ok")}: ${a.status === "finished" ? t("verdict_finished") : t("verdict_progress", { p: a.next.player })}`;
  return a.settlement ? [head, ...rulingLines(a.settlement).slice(1)] : [head];
}

// The README's example log (a live game's first four turns, with a ppuk, its taking back and a steal), with
// the page's own first two names: one tap to see what a check says (trial r7 D3: an empty box, nothing to try).
function exampleLog() {
  const [a, b] = t("default_names");
  return {
    rules: "korean-2p", players: [a, b],
    deal: { layout: ["jan-bright", "feb-junk-1", "mar-ribbon", "apr-junk-1", "may-animal", "jun-junk-1", "aug-junk-2", "oct-ribbon"] },
    moves: [
      { player: a, play: "jan-junk-1", draw: "dec-double" },
      { player: b, play: "mar-bright", draw: "mar-junk-1" },
      { player: a, play: "feb-animal", draw: "oct-junk-1" },
      { player: b, play: "dec-bright", draw: "mar-junk-2" },
    ],
  };
}

export function view() {
  const openFile = async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    state.text = await file.text();
    state.result = null;
    store();
    await run();
  };
  return h("section", { class: "check-log" },
    h("h2", {}, t("check_title")),
    h("label", { class: "field", for: "log-text" }, h("span", { class: "field-label" }, t("check_prompt"))),
    h("textarea", { id: "log-text", rows: 8, spellcheck: "false", "data-key": "log-text", oninput: (e) => edited(e.target.value) }, state.text),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-key": "check-run", onclick: () => run() }, t("check_btn")),
      h("label", { class: "file-button" }, t("check_file"), h("input", { type: "file", accept: ".json,application/json,.txt,text/plain", "data-key": "log-file", onchange: openFile })),
      h("button", { type: "button", "data-key": "load-live", onclick: () => {
        if (!offers.live?.hasGame()) {
          state.result = { noGame: true };
          store();
        } else {
          const text = JSON.stringify(offers.live.logOf(), null, 1);
          // a pasted log is not replaced without a question
          if (state.text.trim() && state.text !== text && !window.confirm(t("confirm_replace_log"))) return;
          setLog(offers.live.logOf());
        }
        app.rerender();
      } }, t("load_live")),
      h("button", { type: "button", "data-key": "check-example", onclick: () => {
        const text = JSON.stringify(exampleLog(), null, 1);
        if (state.text.trim() && state.text !== text && !window.confirm(t("confirm_replace_log"))) return;
        state = { text, result: null };
        store();
        app.rerender();
        run();
      } }, t("check_example"))),
    verdict());
}
