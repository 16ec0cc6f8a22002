// Flow 3, an evening's ledger: the hands one after another, as the service rules the evening (POST /v1/evening,
// API.md "Additions in v1.2"): each hand's settlement with the nagari carry it started under, the running
// totals, who deals next and what carry the next hand starts with, and the settle-up in the fewest transfers.
// The page keeps only what was entered (each hand as the /v1/settle body or the finished /v1/replay log it
// came from) and does no arithmetic of its own.
//
// A hand comes from Settle, from a finished live game, from the quick entry here (the counts the table says:
// quick.js), or is a nagari. Entered while the service cannot be reached, it is kept and shown as not
// checked yet; the whole evening is asked again, in order, when the service answers.

import { h, stepper } from "./dom.js";
import { post, Problem } from "./api.js";
import { app, presetKnobs, reach } from "./app.js";
import { countsRow, declared, freshCounts } from "./quick.js";
import { startFromLedger, tableNow } from "./settle.js";
import { load, save } from "./store.js";
import { t, number } from "./words.js";
import { carryText, headline, problemView } from "./ruling.js";

let ledger = null;

// hands: [{settle: body} | {replay: log}], as /v1/evening takes them; answer: its last answer for them all
const empty = () => ({ version: 2, players: null, preset: null, knobs: {}, stake: 100, hands: [], answer: null, problem: null, quick: freshQuick() });
const freshQuick = () => ({ winner: -1, go: [0, 0, 0], shakes: [0, 0, 0], bombs: [0, 0, 0], counts: freshCounts() });

export async function init() {
  ledger = load("ledger", empty);
  if (ledger.version !== 2) {
    // kept by an older page, which did the evening's arithmetic itself: set aside, not mixed into this one
    save("ledger-v1", ledger);
    ledger = empty();
    store();
  }
  ledger.quick = ledger.quick || freshQuick();
  // the carry is said with the rule set's own factor: its knobs are kept for offline use
  if (ledger.preset) await reach(() => presetKnobs(ledger.preset)).catch(() => {});
}

export function resume() {
  if (ledger.hands.length && !answered()) evening();
}

export function retry() {
  if (ledger.hands.length && !answered()) evening();
}

function store() {
  save("ledger", ledger);
}

// The answer covers every hand entered (none waits to be checked).
const answered = () => !!ledger.answer && ledger.answer.hands.length === ledger.hands.length;

// Consecutive nagari hands at the end, as entered: the carry the page says while the service cannot be asked.
function trailingNagari() {
  let n = 0;
  for (let i = ledger.hands.length - 1; i >= 0 && ledger.hands[i].settle && ledger.hands[i].settle.winner === null; i--) n++;
  return n;
}

const nagariStreak = () => (answered() ? ledger.answer.next.nagari_streak : trailingNagari());

export function ledgerContext() {
  return { players: ledger.players, preset: ledger.preset, knobs: ledger.knobs, stake: ledger.stake, nagari_streak: nagariStreak() };
}

const rulesSpec = () => ({ preset: ledger.preset, ...ledger.knobs });

// Ask the service for the whole evening. Unreachable: the hands stay, marked not checked yet.
async function evening() {
  const body = { rules: rulesSpec(), people: ledger.players, stake: ledger.stake, hands: ledger.hands };
  const asked = ledger.hands.length;
  try {
    const answer = await reach(() => post("/v1/evening", body));
    if (!answer || ledger.hands.length !== asked) return; // offline, or a hand added meanwhile (asked again)
    ledger.answer = answer;
    ledger.problem = null;
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    ledger.answer = null;
    ledger.problem = error.body;
  }
  store();
  app.rerender();
}

// The rules that multiplied each loser's payment (피박 ×2, 나가리 배수 ×2 ...): why a row is more than its
// score, loser by loser (one loser's gwangbak is not the other's).
function multipliersText(settlement) {
  const rows = settlement.payments.map((p) => [p.from, (p.checks || p.factors || [])
    .filter((c) => (c.applied ?? true) && c.factor > 1).map((c) => `${t("rule." + c.rule)} ×${c.factor}`).join(" · ")]);
  if (new Set(rows.map(([, text]) => text)).size <= 1) return rows.length ? rows[0][1] : "";
  return rows.filter(([, text]) => text).map(([who, text]) => `${who}: ${text}`).join("; ");
}

// Add a hand: `settle` (a /v1/settle body) or `replay` (a finished /v1/replay log); the rules, stake and carry
// are the evening's. Refused ({ok: false}) when the ledger has other players.
export function addHand({ players, preset, knobs = {}, stake, settle, replay }) {
  if (ledger.hands.length === 0) {
    Object.assign(ledger, { players: [...players], preset, knobs: { ...knobs }, stake });
  } else if (ledger.players.join("\n") !== players.join("\n")) {
    return { ok: false };
  }
  const strip = ({ rules, stake: s, nagari_streak, ...rest }) => rest;
  ledger.removed = null;
  ledger.hands.push(settle ? { settle: strip(settle) } : { replay: strip(replay) });
  store();
  evening();
  return { ok: true, hand: ledger.hands.length };
}

const signed = (v) => (v > 0 ? "+" : v < 0 ? "−" : "") + t("money", { n: number(Math.abs(v)) });

// The hand a refusal names (422 with the hand's index), where the service says it.
function refusedAt() {
  const p = ledger.problem;
  if (!p) return null;
  for (const key of ["hand_index", "hand", "index"]) if (Number.isInteger(p[key])) return p[key];
  return null;
}

function table() {
  const players = ledger.players;
  const ruled = ledger.answer ? ledger.answer.hands : [];
  const bad = refusedAt();
  const zero = Object.fromEntries(players.map((p) => [p, 0]));
  const last = ruled.length ? ruled[ruled.length - 1].totals : zero;
  return h("table", { class: "ledger-table" },
    h("caption", { class: "sr" }, t("ledger")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("ruling")), players.map((p) => h("th", { scope: "col" }, p)))),
    h("tbody", {}, ledger.hands.map((entry, i) => {
      const hand = ruled[i];
      if (!hand) {
        return h("tr", { "data-hand": i + 1, "data-pending": "", class: i === bad ? "bad" : "pending" },
          h("th", { scope: "row" }, t("hand_n", { n: i + 1 })),
          h("td", { colspan: players.length + 1 }, i === bad ? t("ledger_refused", { n: i + 1 }) : t("ledger_pending")));
      }
      const before = i ? ruled[i - 1].totals : zero;
      const s = hand.settlement;
      const why = multipliersText(s);
      return h("tr", { "data-hand": i + 1, "data-outcome": s.outcome },
        h("th", { scope: "row" }, t("hand_n", { n: i + 1 })),
        h("td", {}, headline(s, (x) => x), why ? h("small", { class: "multipliers" }, why) : null),
        players.map((p) => h("td", { class: "num", "data-player": p }, signed((hand.totals[p] ?? 0) - (before[p] ?? 0)))));
    })),
    h("tfoot", {}, h("tr", { class: answered() ? "totals" : "totals pending" }, h("th", { scope: "row", colspan: 2 }, t("totals")),
      players.map((p) => h("td", { class: "num", "data-total": p }, signed(last[p] ?? 0))))));
}

// --- the quick entry: the next hand, as the table says it ------------------------------------------------

// The players, rules and stake of the next hand: the ledger's, or before its first hand the Settle tab's.
function tableOfNextHand() {
  return ledger.players ? { players: ledger.players, preset: ledger.preset, knobs: ledger.knobs, stake: ledger.stake } : tableNow();
}

function quickEntry() {
  const q = ledger.quick;
  const next = tableOfNextHand();
  const knobs = { ...(app.knobs[next.preset] || {}), ...next.knobs };
  const changed = (typed = false) => { store(); if (typed) app.later(); else app.rerender(); };
  const options = [...next.players.map((name, seat) => [seat, name]), [null, t("nobody")]];
  const add = () => {
    if (q.winner === -1) {
      q.needWinner = true;
      changed();
      return;
    }
    const body = {
      winner: q.winner === null ? null : next.players[q.winner],
      players: next.players.map((id, seat) => ({
        id,
        declared: declared(q.counts[seat], seat === q.winner),
        go_count: q.go[seat],
        ...(knobs.allow_shake === false ? {} : { shakes: q.shakes[seat] }),
        ...(knobs.allow_bomb === false ? {} : { bombs: q.bombs[seat] }),
      })),
    };
    const outcome = addHand({ ...next, settle: body });
    if (outcome.ok) ledger.quick = { ...freshQuick(), added: outcome.hand, open: true };
    else ledger.quick.mismatch = true;
    store();
    app.rerender();
  };
  const cell = (key, label, list, seat, max) => stepper(label, list[seat], 0, max, (v) => { list[seat] = v; changed(); }, `lq-${key}-${seat}`);
  // above the table: a hand added below it moves nothing the next hand is told in; opened and closed only by
  // its own summary
  return h("details", { class: "panel quick ledger-quick", open: q.open !== false },
    h("summary", { "data-key": "ledger-quick-summary", onclick: (e) => { q.open = !e.target.closest("details").open; store(); } }, t("ledger_quick")),
    h("fieldset", { class: "winner" }, h("legend", {}, t("winner_label")),
      h("div", { class: "segments" }, options.map(([seat, label]) => h("label", { class: "radio-label segment" },
        h("input", { type: "radio", name: "ledger-winner", "data-key": "lq-winner-" + seat, checked: q.winner === seat, onchange: () => {
          q.winner = seat;
          q.needWinner = false;
          changed();
        } }),
        " ", label)))),
    h("p", { class: "hint" }, t("q_hint")),
    next.players.map((name, seat) => h("div", { class: "qplayer", "data-seat": seat },
      h("h4", { class: "qname" }, name),
      h("div", { class: "calls" },
        cell("go", t("go_of", { p: name }), q.go, seat, 20),
        knobs.allow_shake === false ? null : cell("shakes", t("shakes_of", { p: name }), q.shakes, seat, 4),
        knobs.allow_bomb === false ? null : cell("bombs", t("bombs_of", { p: name }), q.bombs, seat, 4)),
      countsRow(q.counts, seat, name, q.winner === -1 ? null : seat === q.winner, knobs, changed))),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-key": "ledger-quick-add", onclick: add }, t("ledger_quick_add"))),
    // one line kept for what the last tap did: the hand written, or the winner still to choose
    h("p", { class: q.needWinner ? "need" : "added", role: q.needWinner ? "alert" : "status" },
      q.needWinner ? t("winner_needed") : q.added ? t("added_to_ledger", { n: q.added }) : "\u00a0"),
    q.mismatch ? h("p", { role: "alert", class: "problem" }, t("ledger_mismatch")) : null);
}

export function view() {
  const actions = h("div", { class: "actions" },
    h("button", { type: "button", "data-key": "ledger-settle", onclick: () => {
      if (ledger.players) startFromLedger(ledgerContext());
      else app.go("settle");
    } }, t("ledger_settle")),
    ledger.players ? h("button", { type: "button", "data-key": "ledger-nagari", onclick: () => {
      addHand({ ...tableOfNextHand(), settle: { winner: null, players: ledger.players.map((id) => ({ id })) } });
      app.rerender();
    } }, t("ledger_nagari")) : null,
    // taken out at once, and kept to be put back until the next change (nothing erased without an undo)
    ledger.hands.length ? h("button", { type: "button", "data-key": "ledger-undo", onclick: () => {
      const hand = ledger.hands.pop();
      ledger.removed = { hand, n: ledger.hands.length + 1, players: ledger.players, preset: ledger.preset, knobs: ledger.knobs, stake: ledger.stake };
      ledger.answer = null;
      store();
      app.rerender();
      if (ledger.hands.length) evening();
    } }, t("ledger_undo")) : null,
    ledger.removed ? h("button", { type: "button", "data-key": "ledger-restore", onclick: () => {
      const { hand, players, preset, knobs, stake } = ledger.removed;
      if (!ledger.hands.length) Object.assign(ledger, { players, preset, knobs: knobs || {}, stake });
      ledger.hands.push(hand);
      ledger.removed = null;
      ledger.answer = null;
      store();
      app.rerender();
      evening();
    } }, t("ledger_restore", { n: ledger.removed.n })) : null,
    ledger.removed ? h("span", { class: "sr", role: "status" }, t("ledger_removed", { n: ledger.removed.n })) : null,
    ledger.hands.length ? h("button", { type: "button", "data-key": "ledger-new", onclick: () => {
      if (!window.confirm(t("confirm_new_ledger"))) return;
      ledger = empty();
      store();
      app.rerender();
    } }, t("ledger_new")) : null);
  if (!ledger.hands.length) {
    return h("section", { class: "ledger" }, h("h2", {}, t("ledger")), actions, quickEntry(), h("p", {}, t("ledger_empty")));
  }
  const a = answered() ? ledger.answer : null;
  const carry = nagariStreak();
  return h("section", { class: "ledger" },
    h("h2", {}, t("ledger"), " ", h("small", {}, `${t("preset." + ledger.preset)} · ${t("stake_short", { n: number(ledger.stake) })}`)),
    // the buttons above the table: a hand added or taken out never moves them
    actions,
    quickEntry(),
    h("div", { class: "table-wrap" }, table()),
    ledger.problem ? problemView({ body: ledger.problem }) : null,
    carry ? h("p", { class: "carry", "data-carry": carry }, carryText(carry, { ...(app.knobs[ledger.preset] || {}), ...ledger.knobs })) : null,
    a && a.next && a.next.dealer ? h("p", { class: "dealer", "data-dealer": a.next.dealer }, t("ledger_dealer", { p: a.next.dealer })) : null,
    h("h3", {}, t("transfers")),
    !a
      ? h("p", { class: "hint", "data-pending": "" }, t("ledger_pending"))
      : a.transfers.length
        ? h("ul", { class: "transfers" }, a.transfers.map((x) => h("li", { "data-from": x.from, "data-to": x.to, "data-amount": x.amount },
            t("transfer", { from: x.from, to: x.to, amount: t("money", { n: number(x.amount) }) }))))
        : h("p", {}, t("all_square")));
}
