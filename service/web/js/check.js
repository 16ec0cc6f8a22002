// Flow 4, check a logged hand: paste or open a log (the JSON /v1/replay takes, e.g. one saved by the live
// game) and see the verdict, the settlement, or the first illegal move highlighted with the reason.

import { h } from "./dom.js";
import { post, Problem } from "./api.js";
import { app, reach } from "./app.js";
import { logOf } from "./live.js";
import { eventsView, movesView } from "./log.js";
import { rulingView, problemView } from "./ruling.js";
import { load, save } from "./store.js";
import { t } from "./words.js";

let state = null;

export function init() {
  state = load("check", () => ({ text: "", result: null }));
}

function store() {
  save("check", state);
}

export function setLog(log) {
  state = { text: JSON.stringify(log, null, 1), result: null };
  store();
}

async function run(quiet = false) {
  let log;
  let refused = null;
  try {
    log = JSON.parse(state.text);
    // a log is one JSON object: anything else is told here, in words, rather than as a schema error
    if (!log || typeof log !== "object" || Array.isArray(log)) refused = { notLog: true };
  } catch (error) {
    refused = { notJson: String(error.message || error) };
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
    state.result = { answer, log };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    state.result = { problem: error.body, log };
  }
  store();
  app.rerender();
  if (!quiet) document.querySelector(".verdict")?.scrollIntoView({ block: "start" });
}

// The verdict on the page, again in the page's new language.
export function relanguage() {
  if (state.result && (state.result.answer || state.result.problem)) run(true);
}

export function retry() {
  if (state.text) run();
}

function verdict() {
  const r = state.result;
  if (!r) return null;
  if (r.notJson) return h("div", { class: "verdict bad", role: "alert", "data-verdict": "not-json" }, t("not_json", { why: r.notJson }));
  if (r.notLog) return h("div", { class: "verdict bad", role: "alert", "data-verdict": "not-a-log" }, t("not_a_log"));
  const moves = Array.isArray(r.log && r.log.moves) ? r.log.moves.filter((m) => m && typeof m === "object") : [];
  if (r.problem) {
    const p = r.problem;
    if (typeof p.move_index === "number") {
      return h("div", { class: "verdict bad", "data-verdict": "illegal", "data-move-index": p.move_index },
        h("h2", { role: "alert" }, t("verdict_bad", { n: p.move_index + 1 })),
        h("p", { class: "reason" }, p.detail),
        movesView(moves, p));
    }
    return h("div", { class: "verdict bad", "data-verdict": p.code || "problem" },
      p.code === "bad-deal" ? h("h2", {}, t("verdict_bad_deal")) : null, problemView({ body: p }));
  }
  const a = r.answer;
  return h("div", { class: "verdict ok", "data-verdict": a.status },
    h("h2", { role: "status" }, t("verdict_ok"), ": ", a.status === "finished" ? t("verdict_finished") : t("verdict_progress", { p: a.next.player })),
    a.settlement ? rulingView(a.settlement) : null,
    h("h3", {}, t("events")), eventsView(a.events),
    h("h3", {}, t("moves")), movesView(moves, null));
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
    h("textarea", { id: "log-text", rows: 8, spellcheck: "false", "data-key": "log-text", oninput: (e) => { state.text = e.target.value; store(); } }, state.text),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-key": "check-run", onclick: () => run() }, t("check_btn")),
      h("label", { class: "file-button" }, t("check_file"), h("input", { type: "file", accept: ".json,application/json", "data-key": "log-file", onchange: openFile })),
      h("button", { type: "button", "data-key": "load-live", onclick: () => {
        setLog(logOf());
        app.rerender();
      } }, t("load_live"))),
    verdict());
}
