// Flow 3, an evening's ledger: hands one after another with running totals per player at the stake. A
// nagari carries into the next hand by itself (nagari_streak of the next settlement), and at the end the
// page says who pays whom with the fewest transfers.

import { h } from "./dom.js";
import { app } from "./app.js";
import { startFromLedger } from "./settle.js";
import { load, save } from "./store.js";
import { t, number } from "./words.js";
import { headline } from "./ruling.js";

let ledger = null;

const empty = () => ({ players: null, preset: null, stake: 100, hands: [] });

export function init() {
  ledger = load("ledger", empty);
}

function store() {
  save("ledger", ledger);
}

// Consecutive nagari hands at the end of the ledger: the carry of the next hand (RULES.md 8, 9).
function trailingNagari() {
  let n = 0;
  for (let i = ledger.hands.length - 1; i >= 0 && ledger.hands[i].outcome === "nagari"; i--) n++;
  return n;
}

export function ledgerContext() {
  return { players: ledger.players, preset: ledger.preset, stake: ledger.stake, nagari_streak: trailingNagari() };
}

// The rules that multiplied a hand's payments (피박 ×2, 나가리 ×2 ...), once each: why a row is more than its score.
function multipliers(payments) {
  const seen = new Map();
  for (const p of payments) {
    for (const c of p.checks || p.factors || []) {
      if ((c.applied ?? true) && c.factor > 1 && !seen.has(c.rule)) seen.set(c.rule, c.factor);
    }
  }
  return [...seen];
}

// Add a settled hand (from Settle or a finished live game). Refused when the ledger has other players.
export function addHand({ players, preset, stake, settlement, instant_payments }) {
  if (ledger.hands.length === 0) {
    ledger.players = [...players];
    ledger.preset = preset;
    ledger.stake = stake;
  } else if (ledger.players.join("\n") !== players.join("\n")) {
    return { ok: false };
  }
  ledger.hands.push({
    outcome: settlement.outcome,
    winner: settlement.winner,
    score: settlement.score ? settlement.score.total : null,
    base_points: settlement.base_points,
    payments: settlement.payments.map((p) => ({ from: p.from, to: p.to, points: p.points, amount: p.amount })),
    multipliers: multipliers(settlement.payments),
    instant: (instant_payments || []).map((p) => ({ from: p.from, to: p.to, amount: p.amount })),
  });
  store();
  return { ok: true, hand: ledger.hands.length };
}

function deltas(hand) {
  const out = Object.fromEntries(ledger.players.map((p) => [p, 0]));
  for (const p of [...hand.payments, ...hand.instant]) {
    out[p.from] -= p.amount;
    out[p.to] += p.amount;
  }
  return out;
}

function totals() {
  const out = Object.fromEntries(ledger.players.map((p) => [p, 0]));
  for (const hand of ledger.hands) for (const [p, v] of Object.entries(deltas(hand))) out[p] += v;
  return out;
}

// Fewest transfers: the biggest debtor pays the biggest creditor until everyone is square (n-1 at most).
export function transfers(balance) {
  const debtors = Object.entries(balance).filter(([, v]) => v < 0).map(([p, v]) => [p, -v]);
  const creditors = Object.entries(balance).filter(([, v]) => v > 0);
  const out = [];
  while (debtors.length && creditors.length) {
    debtors.sort((a, b) => b[1] - a[1]);
    creditors.sort((a, b) => b[1] - a[1]);
    const d = debtors[0], c = creditors[0];
    const amount = Math.min(d[1], c[1]);
    out.push({ from: d[0], to: c[0], amount });
    d[1] -= amount;
    c[1] -= amount;
    if (!d[1]) debtors.shift();
    if (!c[1]) creditors.shift();
  }
  return out;
}

const signed = (v) => (v > 0 ? "+" : v < 0 ? "−" : "") + number(Math.abs(v));

function table() {
  const players = ledger.players;
  const sum = totals();
  return h("table", { class: "ledger-table" },
    h("caption", { class: "sr" }, t("ledger")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("ruling")), players.map((p) => h("th", { scope: "col" }, p)))),
    h("tbody", {}, ledger.hands.map((hand, i) => {
      const d = deltas(hand);
      return h("tr", { "data-hand": i + 1, "data-outcome": hand.outcome },
        h("th", { scope: "row" }, t("hand_n", { n: i + 1 })),
        h("td", {}, headline({ outcome: hand.outcome, winner: hand.winner, score: hand.score === null ? null : { total: hand.score }, base_points: hand.base_points }, (x) => x),
          (hand.multipliers || []).length ? h("small", { class: "multipliers" }, (hand.multipliers || []).map(([rule, factor]) => `${t("rule." + rule)} ×${factor}`).join(" · ")) : null),
        players.map((p) => h("td", { class: "num", "data-player": p }, signed(d[p]))));
    })),
    h("tfoot", {}, h("tr", { class: "totals" }, h("th", { scope: "row", colspan: 2 }, t("totals")),
      players.map((p) => h("td", { class: "num", "data-total": p }, signed(sum[p]))))));
}

export function view() {
  const actions = h("div", { class: "actions" },
    h("button", { type: "button", class: "primary", "data-key": "ledger-settle", onclick: () => {
      if (ledger.players) startFromLedger(ledgerContext());
      else app.go("settle");
    } }, t("ledger_settle")),
    ledger.players ? h("button", { type: "button", "data-key": "ledger-nagari", onclick: () => {
      addHand({ players: ledger.players, preset: ledger.preset, stake: ledger.stake, settlement: { outcome: "nagari", winner: null, score: null, base_points: 0, payments: [] } });
      app.rerender();
    } }, t("ledger_nagari")) : null,
    ledger.hands.length ? h("button", { type: "button", "data-key": "ledger-undo", onclick: () => {
      ledger.hands.pop();
      if (!ledger.hands.length) ledger = empty();
      store();
      app.rerender();
    } }, t("ledger_undo")) : null,
    ledger.hands.length ? h("button", { type: "button", "data-key": "ledger-new", onclick: () => {
      if (!window.confirm(t("confirm_new_ledger"))) return;
      ledger = empty();
      store();
      app.rerender();
    } }, t("ledger_new")) : null);
  if (!ledger.hands.length) return h("section", { class: "ledger" }, h("h2", {}, t("ledger")), h("p", {}, t("ledger_empty")), actions);
  const owed = transfers(totals());
  const carry = trailingNagari();
  return h("section", { class: "ledger" },
    h("h2", {}, t("ledger"), " ", h("small", {}, `${t("preset." + ledger.preset)} · ${t("stake_short", { n: number(ledger.stake) })}`)),
    h("div", { class: "table-wrap" }, table()),
    carry ? h("p", { class: "carry", "data-carry": carry }, t("carry", { n: carry })) : null,
    h("h3", {}, t("transfers")),
    owed.length
      ? h("ul", { class: "transfers" }, owed.map((x) => h("li", { "data-from": x.from, "data-to": x.to, "data-amount": x.amount },
          t("transfer", { from: x.from, to: x.to, amount: t("money", { n: number(x.amount) }) }))))
      : h("p", {}, t("all_square")),
    actions);
}
