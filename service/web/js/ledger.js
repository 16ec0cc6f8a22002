// Flow 3, an evening's ledger: hands one after another with running totals per player at the stake. A
// nagari carries into the next hand by itself (nagari_streak of the next settlement), and at the end the
// page says who pays whom with the fewest transfers.

import { h } from "./dom.js";
import { app, presetKnobs, reach } from "./app.js";
import { startFromLedger } from "./settle.js";
import { load, save } from "./store.js";
import { t, number } from "./words.js";
import { carryText, headline } from "./ruling.js";

let ledger = null;

const empty = () => ({ players: null, preset: null, stake: 100, hands: [] });

export async function init() {
  ledger = load("ledger", empty);
  // the carry is said with the rule set's own factor: its knobs are kept for offline use
  if (ledger.preset) await reach(() => presetKnobs(ledger.preset)).catch(() => {});
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

// The rules that multiplied each loser's payment (피박 ×2, 나가리 배수 ×2 ...): why a row is more than its
// score, loser by loser (one loser's gwangbak is not the other's).
function multipliers(payments) {
  return payments.map((p) => [p.from, (p.checks || p.factors || [])
    .filter((c) => (c.applied ?? true) && c.factor > 1).map((c) => [c.rule, c.factor])]);
}

// A hand's multipliers in words: "광박 ×2" when every loser paid under the same ones, else loser by loser.
function multipliersText(hand) {
  let rows = hand.multipliers || [];
  // a ledger kept by an older page: [rule, factor] pairs for the whole hand
  if (rows.length && !Array.isArray(rows[0][1])) rows = [[null, rows]];
  const said = (list) => list.map(([rule, factor]) => `${t("rule." + rule)} ×${factor}`).join(" · ");
  const texts = rows.map(([who, list]) => [who, said(list)]);
  if (new Set(texts.map(([, text]) => text)).size <= 1) return texts.length ? texts[0][1] : "";
  return texts.filter(([, text]) => text).map(([who, text]) => `${who}: ${text}`).join("; ");
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
  ledger.removed = null;
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

const signed = (v) => (v > 0 ? "+" : v < 0 ? "−" : "") + t("money", { n: number(Math.abs(v)) });

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
          multipliersText(hand) ? h("small", { class: "multipliers" }, multipliersText(hand)) : null),
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
    // taken out at once, and kept to be put back until the next change (nothing erased without an undo)
    ledger.hands.length ? h("button", { type: "button", "data-key": "ledger-undo", onclick: () => {
      const hand = ledger.hands.pop();
      ledger.removed = { hand, n: ledger.hands.length + 1, players: ledger.players, preset: ledger.preset, stake: ledger.stake };
      store();
      app.rerender();
    } }, t("ledger_undo")) : null,
    ledger.removed ? h("button", { type: "button", "data-key": "ledger-restore", onclick: () => {
      const { hand, players, preset, stake } = ledger.removed;
      if (!ledger.hands.length) Object.assign(ledger, { players, preset, stake });
      ledger.hands.push(hand);
      ledger.removed = null;
      store();
      app.rerender();
    } }, t("ledger_restore", { n: ledger.removed.n })) : null,
    ledger.removed ? h("span", { class: "sr", role: "status" }, t("ledger_removed", { n: ledger.removed.n })) : null,
    ledger.hands.length ? h("button", { type: "button", "data-key": "ledger-new", onclick: () => {
      if (!window.confirm(t("confirm_new_ledger"))) return;
      ledger = empty();
      store();
      app.rerender();
    } }, t("ledger_new")) : null);
  if (!ledger.hands.length) return h("section", { class: "ledger" }, h("h2", {}, t("ledger")), actions, h("p", {}, t("ledger_empty")));
  const owed = transfers(totals());
  const carry = trailingNagari();
  return h("section", { class: "ledger" },
    h("h2", {}, t("ledger"), " ", h("small", {}, `${t("preset." + ledger.preset)} · ${t("stake_short", { n: number(ledger.stake) })}`)),
    // the buttons above the table: a hand added or taken out never moves them
    actions,
    h("div", { class: "table-wrap" }, table()),
    carry ? h("p", { class: "carry", "data-carry": carry }, carryText(carry, app.knobs[ledger.preset] || {})) : null,
    h("h3", {}, t("transfers")),
    owed.length
      ? h("ul", { class: "transfers" }, owed.map((x) => h("li", { "data-from": x.from, "data-to": x.to, "data-amount": x.amount },
          t("transfer", { from: x.from, to: x.to, amount: t("money", { n: number(x.amount) }) }))))
      : h("p", {}, t("all_square")));
}
