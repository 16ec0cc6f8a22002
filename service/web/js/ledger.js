// Flow 3, an evening's ledger: the hands one after another, as the service rules the evening (POST /v1/evening,
// API.md "Additions in v1.2"): each hand's settlement with the nagari carry it started under, the running
// totals, who deals next and what carry the next hand starts with, and the settle-up in the fewest transfers.
// The page keeps only what was entered (each hand as the /v1/settle body or the finished /v1/replay log it
// came from) and does no arithmetic of its own.
//
// The ledger's people (2-5), their names, the first dealer, the rules and the stake are the ledger's own, set
// once at its top and kept. A hand is played by as many of them as the rules seat (2 or 3); with four at a
// table that plays 광팔기 (RULES.md 4.5) the one who sits out is named with the brights he shows, and the
// sale is the service's to rule. The table and its totals come first; the next hand's entry is folded below
// them, opened by choosing who won. A hand removed or corrected stays in the list with its reason.

import { h, stepper } from "./dom.js";
import { post, Problem } from "./api.js";
import { app, presetKnobs, presetsFor, reach } from "./app.js";
import { CARDS, chip } from "./cards.js";
import { askBlanks, askEmpty, blanks, countsRow, declared, entered, freshCounts, impliedFor, unsaid, upgradeCounts } from "./quick.js";
import { offers } from "./shared.js";
import { load, save } from "./store.js";
import { t, number, handName } from "./words.js";
import { carrySaid, enteredSaid, headline, problemView, rulingRows, struckRow } from "./ruling.js";
import { shareBar } from "./share.js";

let ledger = null;

const SEATS = 5;
// hands: [{settle: body} | {replay: log}, each with `removed: {reason}` once taken out]; answer: /v1/evening's
// last answer for the hands not removed
const empty = () => ({
  version: 3, people: null, first_dealer: null, preset: null, knobs: {}, stake: 100, hands: [], answer: null, problem: null,
  quick: freshQuick(), setup: freshSetup(), edit: null,
});
const freshQuick = () => ({ winner: -1, open: false, sitters: null, shown: [], go: zeros(), shakes: zeros(), bombs: zeros(), counts: freshCounts() });
const freshSetup = () => ({ count: 3, names: ["", "", "", "", ""], first: 0, preset: null, stake: 100, gwang_palgi: true });
const zeros = () => Array(SEATS).fill(0);

export async function init() {
  ledger = load("ledger", empty);
  if (ledger.version === 2) {
    // the page before people of its own: its players are the people, the first of them dealt first
    Object.assign(ledger, { version: 3, people: ledger.players, first_dealer: ledger.players ? ledger.players[0] : null });
    delete ledger.players;
  } else if (ledger.version !== 3) {
    // kept by an older page, which did the evening's arithmetic itself: set aside, not mixed into this one
    save("ledger-v1", ledger);
    ledger = empty();
  }
  ledger.quick = { ...freshQuick(), ...(ledger.quick || {}) };
  ledger.quick.counts = upgradeCounts(ledger.quick.counts);
  for (const key of ["go", "shakes", "bombs"]) while (ledger.quick[key].length < SEATS) ledger.quick[key].push(0);
  ledger.setup = ledger.setup || freshSetup();
  // an older page kept a saved correction's old version as `fixing`: it is the superseded one unless it is
  // the hand the entry is correcting now
  ledger.hands.forEach((e, i) => {
    if (e.removed?.fixing && ledger.quick.fixes?.n !== i + 1) e.removed = { reason: e.removed.reason, superseded: true };
  });
  store();
  // the carry is said with the rule set's own factor: its knobs are kept for offline use
  if (ledger.preset) await reach(() => presetKnobs(ledger.preset)).catch(() => {});
}

export function resume() {
  if (active().length && !answered()) evening();
}

export function retry() {
  resume();
}

function store() {
  save("ledger", ledger);
}

// The hands the evening is ruled on (a removed hand is kept on the page, not sent).
// A hand open for correction still counts (its ruling and the totals stay in sight) until the correction is
// saved in its place; the version a correction replaced is kept as `removed.superseded`, never sent again.
const counts = (e) => !e.removed || !!e.removed.fixing;
const active = () => ledger.hands.filter(counts);
const answered = () => !!ledger.answer && ledger.answer.hands.length === active().length;

function trailingNagari() {
  const list = active();
  let n = 0;
  for (let i = list.length - 1; i >= 0 && list[i].settle && list[i].settle.winner === null; i--) n++;
  return n;
}

const nagariStreak = () => (answered() ? ledger.answer.next.nagari_streak : trailingNagari());
// The next hand's nagari carry as the engine counted it (its factor and cap are the engine's, never the page's);
// null without one, or while no answer covers every hand
const nextCarry = () => {
  const next = answered() ? ledger.answer.next : null;
  return next && next.nagari_streak ? { streak: next.nagari_streak, factor: next.nagari_factor, capped: next.nagari_capped } : null;
};

// Who deals the next hand: the service's word; while it cannot be asked, what RULES.md 11.2 says (the last
// winner, the same dealer after a nagari).
// `upTo`: the dealer of that hand (its place among the hands sent) instead of the next one.
function nextDealer(upTo = null) {
  if (upTo === null && answered() && ledger.answer.next?.dealer) return ledger.answer.next.dealer;
  let dealer = ledger.first_dealer || (ledger.people || [])[0];
  for (const e of upTo === null ? active() : active().slice(0, upTo)) {
    const w = e.settle ? e.settle.winner : null;
    if (w) dealer = w;
  }
  return dealer;
}

export function ledgerContext() {
  return { players: ledger.people, people: ledger.people, dealer: ledger.people ? nextDealer() : null, preset: ledger.preset, knobs: ledger.knobs, stake: ledger.stake, nagari_streak: nagariStreak(), carry: nextCarry() };
}

const rulesSpec = () => ({ preset: ledger.preset, ...ledger.knobs });
export const eveningBody = () => ({ rules: rulesSpec(), people: ledger.people, first_dealer: ledger.first_dealer, stake: ledger.stake, hands: active().map(({ settle, replay }) => (settle ? { settle } : { replay })) });

// Ask the service for the whole evening. Unreachable: the hands stay, marked not checked yet.
async function evening() {
  const body = eveningBody();
  const asked = JSON.stringify(body.hands);
  if (!body.hands.length) {
    ledger.answer = null;
    ledger.problem = null;
    store();
    app.rerender();
    return;
  }
  try {
    const answer = await reach(() => post("/v1/evening", body));
    if (!answer || JSON.stringify(eveningBody().hands) !== asked) return; // offline, or changed meanwhile (asked again)
    ledger.answer = answer;
    ledger.problem = null;
    if (shift) {
      // the hands whose money the correction changed say so (their rows change without a word otherwise)
      const now = netsOf();
      for (const [entry, net] of shift.nets) if (now.has(entry) && now.get(entry) !== net) entry.shifted = shift.hand;
      shift = null;
    }
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    if (JSON.stringify(eveningBody().hands) !== asked) return; // a refusal of hands since changed: asked again
    ledger.answer = null;
    ledger.problem = error.body;
    // the service answers for the whole evening or refuses it: the hands before the one refused are asked
    // apart, so that one slip does not hide the rulings of the night before it
    const k = refusedAt();
    ledger.before = null;
    if (k > 0) {
      const hands = body.hands.slice(0, k);
      const before = await reach(() => post("/v1/evening", { ...body, hands })).catch(() => null);
      if (before && JSON.stringify(eveningBody().hands) === asked) ledger.before = { asked: JSON.stringify(hands), answer: before };
    }
  }
  store();
  app.rerender();
}

// Asked again in the page's new language (the rows' reasons are the service's sentences).
export function relanguage() {
  if (active().length) evening();
}

// Add a hand: `settle` (a /v1/settle body) or `replay` (a finished /v1/replay log); the rules, stake and carry
// are the evening's. A ledger without people takes the hand's players as its people; one with people refuses
// ({ok: false}) a hand played by someone else.
export function addHand({ players, preset, knobs = {}, stake, settle, replay }, ask = true) {
  if (!ledger.people) {
    Object.assign(ledger, { people: [...players], first_dealer: players[0], preset, knobs: { ...knobs }, stake });
  } else if (!players.every((p) => ledger.people.includes(p))) {
    return { ok: false };
  }
  if (!ledger.preset) Object.assign(ledger, { preset, knobs: { ...knobs }, stake });
  const strip = ({ rules, stake: s, nagari_streak, ...rest }) => rest;
  // the dealer the table saw when it entered the hand, kept beside it (not sent: the service works it out)
  const dealer = nextDealer();
  ledger.hands.push(settle ? { settle: strip(settle), dealer } : { replay: strip(replay), dealer });
  store();
  if (ask) evening();
  return { ok: true, hand: handLabel(ledger.hands.length - 1) }; // its number as the rows say it
}

const signed = (v) => (v > 0 ? "+" : v < 0 ? "−" : "") + t("money", { n: number(Math.abs(v)) });

// The hand a refusal names (its index among the hands sent), where the service says it.
function refusedAt() {
  const p = ledger.problem;
  if (!p) return null;
  for (const key of ["hand_index", "hand", "index"]) if (Number.isInteger(p[key])) return p[key];
  return null;
}

// What a hand not ruled yet says: what was entered (who won, with what), so an offline row is readable.
function enteredText(entry) {
  return enteredSaid(saidOf(entry));
}

// What was entered for a hand in short: who won and the points said (null: a nagari), or a log.
function saidOf(entry) {
  if (entry.replay) return { log: true };
  const s = entry.settle;
  const w = s.players.find((p) => p.id === s.winner);
  return { winner: s.winner ?? null, ...(w?.declared?.points !== undefined ? { points: w.declared.points } : {}) };
}

// The share link's body: the evening the service rules, and beside it the page's own `notes` (trial r7 D2:
// the friend sent the link saw no correction): each hand taken out or replaced by a correction, in short,
// before the hand it stood before (`at`: the counted hands before it), and each corrected hand's reason.
// The service is sent the evening alone (docs/page-links.md).
export function shareBody() {
  const body = eveningBody();
  const struck = [];
  const fixed = [];
  ledger.hands.forEach((entry, i) => {
    if (entry.removed && !entry.removed.fixing) {
      struck.push({ at: handLabel(i) - 1, ...saidOf(entry), ...(entry.removed.superseded ? { old: true } : {}), ...(entry.removed.reason ? { reason: entry.removed.reason } : {}) });
    } else if (fixedReason(entry)) {
      fixed.push({ hand: handLabel(i), reason: fixedReason(entry) });
    }
  });
  return struck.length || fixed.length ? { ...body, notes: { struck, fixed } } : body;
}

// Who dealt hand i (its index in the list): the service's word where it has answered for that hand, else
// the dealer kept with the entry, else as nextDealer reckons while the service cannot be asked.
function dealerOf(i) {
  const entry = ledger.hands[i];
  const k = handLabel(i) - 1;
  const ruled = answered() ? ledger.answer.hands : rulingsBefore() || [];
  if (counts(entry) && ruled[k]?.dealer) return ruled[k].dealer;
  if (entry.dealer) return entry.dealer;
  return nextDealer(k);
}

// A hand's number as the service counts it: its place among the hands not taken out (one taken out: the
// place it would take back).
function handLabel(i) {
  return ledger.hands.slice(0, i).filter(counts).length + 1;
}

// The rulings of the hands before a refused one (asked apart), while those hands are still the ones sent.
function rulingsBefore() {
  const b = ledger.before;
  if (!b || answered()) return null;
  const sent = JSON.parse(b.asked).length;
  return JSON.stringify(eveningBody().hands.slice(0, sent)) === b.asked ? b.answer.hands : null;
}

// Who sat a hand out: the people not among the players the hand was entered with (what the table said, not
// a rule); none known for a logged hand.
function sittersOf(entry) {
  const players = entry.settle ? entry.settle.players : null;
  return players ? ledger.people.filter((p) => !players.some((x) => x.id === p)) : [];
}

function table() {
  const people = ledger.people;
  const before_ = rulingsBefore();
  const ruled = ledger.answer ? ledger.answer.hands : before_ || [];
  const bad = refusedAt();
  const zero = Object.fromEntries(people.map((p) => [p, 0]));
  const last = answered() && ruled.length ? ruled[ruled.length - 1].totals : null;
  let k = -1; // the place of a hand among those sent
  return h("table", { class: people.length > 3 ? "ledger-table many" : "ledger-table" },
    h("caption", { class: "sr" }, t("ledger")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("ruling")), people.map((p) => h("th", { scope: "col", class: "num" }, p)))),
    h("tbody", {}, ledger.hands.map((entry, i) => {
      // a hand is numbered as the service counts it, among the hands that count (its refusals say "the fifth
      // hand"); one taken out, or the old version of a corrected hand, has no number (never read as a live
      // hand's): its row says what it is
      const label = handLabel(i);
      const out = entry.removed && !entry.removed.fixing;
      const number_ = h("th", { scope: "row" }, h("button", { type: "button", class: "row-edit", "data-key": "edit-" + (i + 1), onclick: () => {
        ledger.quick.added = null;
        ledger.edit = ledger.edit && ledger.edit.n === i + 1 ? null : { n: i + 1, reason: "" };
        store();
        app.rerender();
      } }, out ? "–" : String(label), h("span", { class: "sr" }, " ", t("edit_hand", { hand: handName(label) }))));
      if (out) {
        return struckRow({ attrs: { "data-hand": i + 1 }, number: number_, label: handName(label), said: enteredText(entry), reason: entry.removed.reason, old: !!entry.removed.superseded, people });
      }
      const fixing = !!entry.removed?.fixing;
      k++;
      const hand = answered() || before_ ? ruled[k] : null;
      if (!hand) {
        // the refused hand says why (the service's words); those after it wait for it, not for the network
        const note = k === bad ? h("span", { class: "why" }, ledger.problem.detail || t("ledger_refused", { hand: handName(k + 1) }))
          : bad !== null && k > bad ? t("ledger_waits", { hand: handName(bad + 1) }) : t("ledger_pending_short");
        return h("tr", { "data-hand": i + 1, "data-pending": "", class: k === bad ? "bad" : "pending" }, number_,
          h("td", { colspan: people.length + 1 }, enteredText(entry), " · ", h("small", {}, note),
            fixedReason(entry) ? h("small", { class: "reason" }, t("fixed_because", { why: fixedReason(entry) })) : null));
      }
      const before = k ? ruled[k - 1].totals : zero;
      return rulingRows(hand, before, people, sittersOf(entry), {
        attrs: { "data-hand": i + 1, "data-fixing": fixing ? "" : null, class: fixing ? "fixing" : entry.fixed ? "fixed" : null },
        number: number_,
        note: fixing ? h("small", { class: "gone" }, t("fixing", { hand: handName(label) }))
          : entry.shifted ? h("small", { class: "shifted", "data-shifted": entry.shifted }, t("shifted_by", { hand: handName(entry.shifted) }), " ") : null,
        reason: fixedReason(entry) ? h("small", { class: "reason" }, t("fixed_because", { why: fixedReason(entry) })) : null,
        details: i + 1,
      });
    }).flat()),
    h("tfoot", {}, totalsRow(people, last, before_)));
}

// The totals: the evening's; with a hand refused, those of the hands ruled before it, said to be so (the
// wording of a service out of reach is for that alone).
function totalsRow(people, last, before_) {
  if (last) return h("tr", { class: "totals" }, h("th", { scope: "row", colspan: 2 }, t("totals")), people.map((p) => h("td", { class: "num", "data-total": p }, signed(last[p] ?? 0))));
  if (ledger.problem) {
    const upto = before_ && before_.length ? before_[before_.length - 1].totals : null;
    return h("tr", { class: "totals partial", "data-upto": upto ? before_.length : 0 },
      h("th", { scope: "row", colspan: 2 }, upto ? t("totals_upto", { hand: handName(before_.length) }) : t("totals_none")),
      people.map((p) => h("td", { class: "num", "data-total": p }, upto ? signed(upto[p] ?? 0) : "–")));
  }
  return h("tr", { class: "totals pending" }, h("th", { scope: "row", colspan: 2 }, t("totals_partial")), people.map((p) => h("td", { class: "num", "data-total": p }, "…")));
}

// The service's refusal of a hand already in the ledger: said as a hand to fix (not "cannot be added", said of
// a hand the table sees in its ledger), and, with a hand taken out before it, that the taking out may be why
// (the dealers after a removed hand no longer follow: trial r5 D4).
function refusalView() {
  const k = refusedAt();
  if (k === null) return problemView({ body: ledger.problem });
  let i = -1;
  for (let seen = -1; seen < k && i < ledger.hands.length - 1;) if (counts(ledger.hands[++i])) seen++;
  const removedBefore = ledger.hands.slice(0, i).some((e) => e.removed && !e.removed.fixing && !e.removed.superseded);
  return h("div", { class: "refusal" },
    problemView({ body: { ...ledger.problem, title: t("ledger_fix_hand") } }),
    removedBefore ? h("p", { class: "hint", "data-removed-before": "" }, t("ledger_removed_before", { hand: handName(k + 1) })) : null);
}

// The reason a hand was corrected, as said (an older page kept it as a string, and wrote one when none was said).
function fixedReason(entry) {
  const why = typeof entry.fixed === "string" ? entry.fixed : entry.fixed?.reason;
  return why && !["이유 없음", "no reason given"].includes(why) ? why : "";
}

// A hand's row tapped: take it out, or correct it (taken out, its entry back in the quick form), with a reason.
function editPanel() {
  const e = ledger.edit;
  if (!e) return null;
  const entry = ledger.hands[e.n - 1];
  if (!entry) return null;
  const reason = () => (document.querySelector('[data-key="edit-reason"]')?.value || e.reason || "").trim();
  // the hand being corrected: its correction is below; the old version of a corrected hand: nothing to do
  // with it (put in again it would count the hand twice)
  if (entry.removed?.fixing || entry.removed?.superseded) {
    return h("div", { class: "panel edit", "data-edit": e.n },
      h("p", {}, entry.removed.fixing ? t("fixing", { hand: handName(handLabel(e.n - 1)) }) : t("edit_superseded", { hand: handName(handLabel(e.n - 1)) })));
  }
  if (entry.removed) {
    return h("div", { class: "panel edit", "data-edit": e.n },
      h("p", {}, t("edit_removed", { hand: handName(handLabel(e.n - 1)) })),
      h("div", { class: "actions" }, h("button", { type: "button", "data-key": "edit-restore", onclick: () => {
        delete entry.removed;
        ledger.edit = null;
        ledger.answer = null;
        store();
        app.rerender();
        evening();
      } }, t("ledger_restore", { hand: handName(handLabel(e.n - 1)) }))));
  }
  const quickable = entry.settle && entry.settle.players.every((p) => p.declared || p.captured === undefined);
  return h("div", { class: "panel edit", "data-edit": e.n },
    h("label", { class: "field" }, h("span", { class: "field-label" }, t("edit_reason", { hand: handName(handLabel(e.n - 1)) })),
      h("input", { type: "text", maxlength: 80, autocomplete: "off", "data-key": "edit-reason", value: e.reason, oninput: (ev) => { e.reason = ev.target.value; store(); } })),
    // the usual reasons in one tap (typing 5-9 Hangul at a table: trial r7 D7); said in the field, which can
    // still be changed (drawn in place: nothing above the buttons moves)
    h("div", { class: "chips-row reasons" }, t("edit_reasons").map((why, k) => h("button", { type: "button", class: "chip-toggle", "data-key": "edit-why-" + k,
      "aria-pressed": String(e.reason === why), onclick: (ev) => {
        e.reason = why;
        store();
        const field = document.querySelector('[data-key="edit-reason"]');
        if (field) field.value = why;
        for (const b of ev.currentTarget.parentNode.children) b.setAttribute("aria-pressed", String(b === ev.currentTarget));
      } }, why))),
    h("div", { class: "actions" },
      h("button", { type: "button", "data-key": "edit-remove", onclick: () => {
        // the hands after it were seated from it (their dealer, who sat out): said before it goes (trial r5 D4)
        const followed = ledger.hands.slice(e.n).some(counts);
        if (followed && !window.confirm(t("confirm_remove_followed", { hand: handName(handLabel(e.n - 1)) }))) return;
        entry.removed = { reason: reason() };
        ledger.edit = null;
        ledger.answer = null;
        store();
        app.rerender();
        evening();
      } }, t("edit_remove")),
      quickable ? h("button", { type: "button", "data-key": "edit-fix", onclick: () => {
        // the hand's own seating, taken before it is out of the evening (the dealer is the service's word)
        const dealer = dealerOf(e.n - 1);
        // one correction at a time: another left open is given up (its hand back as it was), never left
        // marked as being corrected with no entry for it
        const prior = ledger.quick.fixes && ledger.hands[ledger.quick.fixes.n - 1];
        if (prior?.removed?.fixing) delete prior.removed;
        entry.removed = { reason: reason(), fixing: true };
        ledger.quick = quickFrom(entry.settle);
        ledger.quick.fixes = { n: e.n, label: handLabel(e.n - 1), reason: reason(), dealer };
        ledger.edit = null;
        // the hand still counts while it is corrected (the other rows and the totals stay as ruled); the
        // evening is asked again once the corrected hand is in its place, or folded
        store();
        app.rerender();
        document.querySelector(".ledger-quick")?.scrollIntoView({ block: "start" });
      } }, t("edit_fix")) : null));
}

// A hand's /v1/settle body back in the quick form (to correct it).
function quickFrom(body) {
  const q = freshQuick();
  q.open = true;
  const seatOf = (id) => ledger.people.indexOf(id);
  q.winner = body.winner === null ? -1 : seatOf(body.winner);
  q.sitters = ledger.people.map((_, s) => s).filter((s) => !body.players.some((p) => seatOf(p.id) === s));
  q.shown = body.sit_out ? [...body.sit_out.hand] : [];
  for (const p of body.players) {
    const s = seatOf(p.id);
    q.go[s] = p.go_count || 0;
    q.shakes[s] = p.shakes || 0;
    q.bombs[s] = p.bombs || 0;
    const d = p.declared || {};
    const cupJunk = d.cup === "junk" ? 2 : 0;
    const cupAnimal = d.cup === "animal" ? 1 : 0;
    q.counts[s] = { points: d.points ?? null, brights: d.brights ?? null, rain: !!d.rain, animals: d.animals === undefined ? null : d.animals - cupAnimal,
      ribbons: d.ribbons ?? null, junk_units: d.junk_units === undefined ? null : d.junk_units - cupJunk, cup: d.cup || "none", empty: !p.declared };
  }
  return q;
}

// --- the people, names, first dealer, rules and stake: set once -------------------------------------------

function playersPerHand(preset) {
  return (app.presets.find((p) => p.name === preset) || {}).players || (String(preset).includes("2p") ? 2 : 3);
}

function setupPanel() {
  const s = ledger.setup;
  const fixed = ledger.hands.length > 0;
  const redraw = (typed = false) => { store(); if (typed) app.later(); else app.rerender(); };
  const presetFor = (count) => (count === 2 ? "korean-2p" : "korean-3p");
  s.preset = s.preset && presetsFor(playersPerHand(s.preset)).length && (s.count === 2 || playersPerHand(s.preset) === 3) ? s.preset : presetFor(s.count);
  const presets = s.count === 2 ? [...presetsFor(2), ...presetsFor(3).filter(() => false)] : presetsFor(3);
  const start = async () => {
    const names = s.names.slice(0, s.count).map((x) => x.trim());
    if (names.some((x) => !x) || new Set(names).size !== names.length) {
      s.need = true;
      redraw();
      return;
    }
    s.need = false;
    const knobs = s.count >= 4 && playersPerHand(s.preset) === 3 ? { gwang_palgi: !!s.gwang_palgi } : {};
    Object.assign(ledger, { people: names, first_dealer: names[Math.min(s.first, s.count - 1)], preset: s.preset, knobs, stake: s.stake });
    ledger.quick = freshQuick();
    store();
    await reach(() => presetKnobs(s.preset)).catch(() => {});
    app.rerender();
  };
  if (fixed) {
    return h("details", { class: "panel ledger-setup" },
      h("summary", { "data-key": "ledger-setup-summary" }, t("ledger_people_summary", { names: ledger.people.join(", "), d: ledger.first_dealer })),
      h("p", {}, `${t("preset." + ledger.preset)} · ${t("stake_short", { n: number(ledger.stake) })}${ledger.knobs.gwang_palgi ? " · " + t("gwang_palgi") : ""}`),
      h("p", { class: "hint" }, t("ledger_people_kept")));
  }
  return h("section", { class: "panel ledger-setup", "aria-labelledby": "setup-title" },
    h("h3", { id: "setup-title" }, t("ledger_people")),
    h("div", { class: "segments", role: "radiogroup", "aria-label": t("people_count") }, [2, 3, 4, 5].map((n) => h("label", { class: "radio-label segment" },
      h("input", { type: "radio", name: "people-count", "data-key": "people-" + n, checked: s.count === n, onchange: () => { s.count = n; s.preset = presetFor(n); redraw(); } }),
      " ", t("players_n", { n })))),
    h("div", { class: "names" }, s.names.slice(0, s.count).map((name, i) => h("label", { class: "field name" },
      h("span", { class: "field-label" }, t("name_label", { n: i + 1 })),
      h("input", { type: "text", value: name, maxlength: 20, autocomplete: "off", placeholder: t("name_placeholder"), "data-key": "person-" + i,
        // the first dealer's choices say the name as it is typed (trial r5 D9), without drawing the page again
        // under the typing
        oninput: (e) => {
          s.names[i] = e.target.value.trim();
          const said = document.querySelector(`[data-first-name="${i}"]`);
          if (said) said.textContent = s.names[i] || t("name_label", { n: i + 1 });
          store();
        },
        onchange: (e) => { s.names[i] = e.target.value.trim(); redraw(true); } })))),
    h("fieldset", { class: "first-dealer" }, h("legend", {}, t("first_dealer")),
      h("div", { class: "segments" }, s.names.slice(0, s.count).map((name, i) => h("label", { class: "radio-label segment" },
        h("input", { type: "radio", name: "first-dealer", "data-key": "first-" + i, checked: s.first === i, onchange: () => { s.first = i; redraw(); } }),
        " ", h("span", { "data-first-name": i }, name || t("name_label", { n: i + 1 })))))),
    h("label", { class: "field" }, h("span", { class: "field-label" }, t("preset_label")),
      h("select", { "data-key": "ledger-preset", onchange: (e) => { s.preset = e.target.value; redraw(); } },
        presets.map((p) => h("option", { value: p.name, selected: p.name === s.preset }, t("preset." + p.name))))),
    s.count >= 4 ? h("label", { class: "check-label" }, h("input", { type: "checkbox", "data-key": "ledger-gwang-palgi", checked: !!s.gwang_palgi, onchange: (e) => { s.gwang_palgi = e.target.checked; redraw(); } }), " ", t("gwang_palgi_ask")) : null,
    h("label", { class: "field" }, h("span", { class: "field-label" }, t("stake_label")),
      h("input", { type: "number", inputmode: "numeric", min: 0, value: s.stake, "data-key": "ledger-stake", onchange: (e) => { s.stake = Math.max(0, Math.floor(Number(e.target.value) || 0)); redraw(true); } })),
    s.need ? h("p", { class: "need", role: "alert" }, t("names_needed")) : null,
    h("div", { class: "actions" }, h("button", { type: "button", class: "primary", "data-key": "ledger-start", onclick: start }, t("ledger_start"))));
}

// --- the next hand: who sits out, who won, the counts said ------------------------------------------------

// The people in turn order from the dealer; those who sit out this hand (the dealer never: RULES.md 11.2).
function handSeats() {
  const people = ledger.people;
  // a hand being corrected is seated as it was played (its own dealer and sitters), not as the next one
  const dealer = ledger.quick.fixes?.dealer || nextDealer();
  const d = Math.max(0, people.indexOf(dealer));
  const order = people.map((_, i) => (d + i) % people.length);
  const sitCount = people.length - playersPerHand(ledger.preset);
  const q = ledger.quick;
  let sitters = (q.sitters || []).filter((s) => s !== d && s < people.length);
  if (sitters.length !== sitCount) sitters = order.slice(order.length - sitCount);
  const playing = order.filter((s) => !sitters.includes(s));
  return { order, dealer: d, sitters, playing, sitCount };
}

const SHOWN = () => CARDS.filter((c) => c.kind === "bright" || (c.kind === "bonus" && (app.knobs[ledger.preset]?.bonus_cards || []).includes(c.id))).map((c) => c.id);

function sitOutPanel(seats) {
  if (!seats.sitCount) return null;
  const q = ledger.quick;
  const people = ledger.people;
  const seller = ledger.knobs.gwang_palgi ? firstSitter(seats) : null;
  const sellerSeat = seller === null ? 0 : seats.order.indexOf(seller) + 1;
  const toggle = (s) => {
    let list = seats.sitters.filter((x) => x !== s);
    if (list.length === seats.sitters.length) list = [...list, s].slice(-seats.sitCount);
    else return; // one of those who must sit out: another is chosen in its place by tapping them
    // the entries are kept by person: only the one who now sits out loses his, asked first (trial r5 D5:
    // the winner's points went without a word)
    if (q.winner === s || entered(q.counts[s]) || q.go[s] || q.shakes[s] || q.bombs[s]) {
      if (!window.confirm(t("confirm_sit_out", { p: people[s] }))) {
        app.rerender(); // the box unticked again
        return;
      }
      if (q.winner === s) q.winner = -1;
      q.counts[s] = freshCounts()[s];
      q.go[s] = q.shakes[s] = q.bombs[s] = 0;
    }
    q.sitters = list;
    q.shown = [];
    store();
    app.rerender();
  };
  return h("fieldset", { class: "sit-out" }, h("legend", {}, t("sits_out", { n: seats.sitCount })),
    h("div", { class: "segments" }, seats.order.map((s) => h("label", { class: "radio-label segment" + (s === seats.dealer ? " off" : "") },
      h("input", { type: "checkbox", "data-key": "sit-" + s, checked: seats.sitters.includes(s), disabled: s === seats.dealer, onchange: () => toggle(s) }),
      " ", people[s], s === seats.dealer ? ` (${t("dealer_word")})` : ""))),
    // the same place whoever sits out (nothing below moves): the cards to tap, or why there is no sale
    seller !== null
      ? h("div", { class: "shown" }, h("p", { class: "hint" }, t(sellerSeat === 4 ? "sale_shown" : "sale_none", { p: people[seller] })),
          h("div", { class: "chips-row" }, SHOWN().map((id) => h("button", { type: "button", class: "chip-toggle", "data-key": "shown-" + id, disabled: sellerSeat !== 4, "aria-pressed": String(q.shown.includes(id)), onclick: () => {
            q.shown = q.shown.includes(id) ? q.shown.filter((x) => x !== id) : [...q.shown, id];
            store();
            app.rerender();
          } }, chip(id)))))
      : null);
}

function quickEntry() {
  const q = ledger.quick;
  const people = ledger.people;
  const seats = handSeats();
  const knobs = { ...(app.knobs[ledger.preset] || {}), ...ledger.knobs };
  const changed = (typed = false) => { q.asked = false; store(); if (typed) app.later(); else app.rerender(); };
  // an answer keeps the other questions; the last one answered adds the hand, which the person asked for
  const answered = () => {
    store();
    if (!seats.playing.some((s) => s !== q.winner && (unsaid(q.counts[s]) || blanks(q.counts, s, q.winner, knobs, seats.playing).length))) add();
    else app.rerender();
  };
  // the hand's number as the service counts it (a hand being corrected: its own)
  const n = q.fixes ? q.fixes.label : active().length + 1;
  const add = () => {
    if (q.winner === -1 || !seats.playing.includes(q.winner)) {
      q.needWinner = true;
      changed();
      return;
    }
    // a loser of whom nothing was said is asked about, never sent as "captured nothing"
    const toAsk = (s) => s !== q.winner && (unsaid(q.counts[s]) || blanks(q.counts, s, q.winner, knobs, seats.playing).length > 0);
    if (seats.playing.some(toAsk)) {
      q.asked = true;
      store();
      app.rerender();
      return;
    }
    const body = {
      winner: people[q.winner],
      players: seats.playing.map((s) => ({
        id: people[s],
        declared: declared(q.counts[s], s === q.winner, impliedFor(q.counts, s, seats.playing)),
        go_count: q.go[s],
        ...(knobs.allow_shake === false || s !== q.winner ? {} : { shakes: q.shakes[s] }),
        ...(knobs.allow_bomb === false || s !== q.winner ? {} : { bombs: q.bombs[s] }),
      })),
    };
    const sale = saleOf(seats);
    if (sale) body.sit_out = sale;
    finish(body);
  };
  // each call named with its player ("민수의 고"), the label shown short
  const named = { go: "go_of", shakes: "shakes_of", bombs: "bombs_of" };
  const cell = (key, label, list, seat, max) => stepper(label, list[seat], 0, max, (v) => { list[seat] = v; changed(); }, `lq-${key}-${seat}`, { name: t(named[key], { p: people[seat] }) });
  const winnerRow = h("fieldset", { class: "winner" }, h("legend", {}, t("next_hand", { hand: handName(n), p: people[seats.dealer] })),
    h("div", { class: "segments" }, [...seats.playing.map((s) => [s, people[s]]), [null, t("nobody")]].map(([seat, label]) => h("label", { class: "radio-label segment" },
      h("input", { type: "radio", name: "ledger-winner", "data-key": "lq-winner-" + seat, checked: q.open && q.winner === seat, onchange: () => {
        if (seat === null) {
          // a nagari is one tap: written at once (taken out again from its row)
          const body = { winner: null, players: seats.playing.map((s) => ({ id: people[s] })) };
          const sale = saleOf(seats);
          if (sale) body.sit_out = sale;
          finish(body);
          return;
        }
        q.winner = seat;
        q.open = true;
        q.added = null;
        q.needWinner = false;
        changed();
        // the person asked for the entry: it comes into sight under the header, from the choice just made
        // (who sits out was seen before it: on a 640 px phone it took half the screen, trial r7 D4)
        document.querySelector(".ledger-quick .winner")?.scrollIntoView({ block: "start" });
      } }),
      " ", label))));
  return h("section", { class: "panel quick ledger-quick", "data-open": q.open ? "" : null },
    sitOutPanel(seats),
    winnerRow,
    q.open ? [
      h("p", { class: "hint" }, t("q_hint")),
      seats.playing.map((seat) => h("div", { class: "qplayer", "data-seat": seat, role: "group", "aria-label": people[seat] },
        h("h4", { class: "qname" }, people[seat], seat === q.winner ? h("small", {}, " · ", t("winner_word")) : null),
        // the calls, each named short (the player's name is the group's): the winner's go, shakes and bombs
        // under the counts; a loser's go (for gobak) beside the cup, the only call of a loser that counts
        countsRow(q.counts, seat, people[seat], seat === q.winner, knobs, changed, "q", seat === q.winner ? null : h("div", { class: "calls one" }, cell("go", t("event.go"), q.go, seat, 20))),
        seat === q.winner ? h("div", { class: "calls" },
          cell("go", t("event.go"), q.go, seat, 20),
          knobs.allow_shake === false ? null : cell("shakes", t("rule.shake"), q.shakes, seat, 4),
          knobs.allow_bomb === false ? null : cell("bombs", t("rule.bomb"), q.bombs, seat, 4)) : null,
        )),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", "data-key": "ledger-quick-add", onclick: add }, t("ledger_quick_add")),
        h("button", { type: "button", "data-key": "ledger-quick-fold", onclick: () => {
          q.open = false;
          if (q.fixes) { // the correction given up: the hand goes back as it was
            const entry = ledger.hands[q.fixes.n - 1];
            if (entry && entry.removed && entry.removed.fixing) delete entry.removed;
            q.fixes = null;
            evening();
          }
          store();
          app.rerender();
        } }, t("fold"))),
      q.needWinner ? h("p", { class: "need", role: "alert" }, t("winner_needed")) : null,
      // asked below the button that asked it: nothing above the thumb moves
      // an answer keeps the other questions on the screen (each goes once its player's counts are said)
      q.asked ? seats.playing.filter((seat) => seat !== q.winner).map((seat) => unsaid(q.counts[seat])
        ? askEmpty(q.counts, seat, people[seat], answered, "q")
        : blanks(q.counts, seat, q.winner, knobs, seats.playing).length ? askBlanks(q.counts, seat, people[seat], blanks(q.counts, seat, q.winner, knobs, seats.playing), answered, "q") : null) : null,
    ] : null,
    q.fixes ? h("p", { class: "hint" }, t("fixing", { hand: handName(q.fixes.label ?? q.fixes.n) })) : null,
    h("p", { class: "added", role: "status" }, q.added ? t("added_to_ledger", { hand: handName(q.added) }) : "\u00a0"));
}

// The sale of the one who sat out (4 at a table that plays 광팔기): seat 4 from the dealer sells, seat 2 or 3
// chose to sit out and is paid nothing (RULES.md 4.5).
// The one of those sitting out the API is told of (`sit_out` names one): at four the one who sits out; at five
// the first of the two from the dealer, his seat counted as at a table of four (the other, the last at the
// table, sits out as the fifth: the table's business, RULES.md 11.1). The fourth from the dealer sells.
const firstSitter = (seats) => seats.order.find((s) => seats.sitters.includes(s));

function saleOf(seats) {
  if (!seats.sitCount || !ledger.knobs.gwang_palgi) return null;
  const s = firstSitter(seats);
  const seat = seats.order.indexOf(s) + 1;
  return { player: ledger.people[s], seat, hand: seat === 4 ? [...ledger.quick.shown] : [] };
}

// Each counted hand's money, as the last answer has it, by its entry: a correction says which other hands it
// changed (a carry, a dealer, a limit), compared after the answer to it
function netsOf() {
  const nets = new Map();
  if (!answered()) return nets;
  const hands = ledger.answer.hands;
  active().forEach((entry, k) => {
    const before = k ? hands[k - 1].totals : {};
    nets.set(entry, JSON.stringify(ledger.people.map((p) => (hands[k].totals[p] ?? 0) - (before[p] ?? 0))));
  });
  return nets;
}
let shift = null; // {hand, nets}: the correction being asked, and the money of the hands before it

function finish(body) {
  const q = ledger.quick;
  const fixes = q.fixes;
  for (const e of ledger.hands) delete e.shifted;
  shift = fixes ? { hand: handLabel(fixes.n - 1), nets: netsOf() } : null;
  // a correction is asked of the service once it is in its place (at the end, the dealers would not follow)
  const out = addHand({ players: body.players.map((p) => p.id), preset: ledger.preset, knobs: ledger.knobs, stake: ledger.stake, settle: body }, !fixes);
  if (out.ok && fixes) {
    // the correction goes in the place of the hand it corrects, the reason with it
    const entry = ledger.hands.pop();
    // the version it replaces: kept with the reason, never sent again (nor offered back as a hand)
    const old = ledger.hands[fixes.n - 1];
    if (old?.removed?.fixing) old.removed = { reason: old.removed.reason, superseded: true };
    entry.dealer = fixes.dealer;
    // the reason as said (none said: none shown)
    entry.fixed = { reason: fixes.reason || "" };
    ledger.hands.splice(fixes.n, 0, entry);
    out.hand = handLabel(fixes.n);
    store();
    evening();
  }
  ledger.quick = { ...freshQuick(), added: out.ok ? out.hand : null, mismatch: !out.ok };
  store();
  app.rerender();
}

export function view() {
  if (!ledger.people) {
    return h("section", { class: "ledger" }, h("h2", {}, t("ledger")), setupPanel());
  }
  const a = answered() ? ledger.answer : null;
  const carry = nextCarry();
  return h("section", { class: "ledger" },
    // the rule set's name says how many play a hand: with more at the table, how many sit there too
    h("h2", {}, t("ledger"), " ", h("small", {}, [t("preset." + ledger.preset),
      ...(ledger.people.length > playersPerHand(ledger.preset) ? [t("at_table", { n: ledger.people.length }), ledger.knobs.gwang_palgi ? t("gwang_palgi") : null] : []),
      t("stake_short", { n: number(ledger.stake) })].filter(Boolean).join(" · "))),
    // the table and its totals first: what the table looks at between hands
    ledger.hands.length ? h("div", { class: ledger.people.length > 3 ? "table-wrap many" : "table-wrap" }, table()) : h("p", {}, t("ledger_empty")),
    editPanel(),
    ledger.problem ? refusalView() : null,
    a && a.transfers.length
      ? h("ul", { class: "transfers", "aria-label": t("transfers") }, a.transfers.map((x) => h("li", { "data-from": x.from, "data-to": x.to, "data-amount": x.amount },
          t("transfer", { from: x.from, to: x.to, amount: t("money", { n: number(x.amount) }) }))))
      : a && active().length ? h("p", { class: "transfers" }, t("all_square")) : null,
    carry ? h("p", { class: "carry", "data-carry": carry.streak }, carrySaid(carry)) : null,
    h("p", { class: "dealer", "data-dealer": nextDealer() }, t("ledger_dealer", { p: nextDealer() })),
    quickEntry(),
    ledger.quick.mismatch ? h("p", { role: "alert", class: "problem" }, t("ledger_mismatch")) : null,
    // what the table does next clears "added to the ledger (hand 2)" (trial r5 D12: it stood through a share)
    // (said in place, not drawn again: the share bar keeps what it shows)
    h("div", { class: "actions", onclick: () => {
      if (!ledger.quick.added) return;
      ledger.quick.added = null;
      store();
      const said = document.querySelector(".ledger-quick .added");
      if (said) said.textContent = "\u00a0";
    } },
      h("button", { type: "button", "data-key": "ledger-settle", onclick: () => offers.settle.startFromLedger(ledgerContext()) }, t("ledger_settle")),
      active().length ? shareBar("evening", shareBody, () => ledgerShareText(a)) : null,
      h("button", { type: "button", "data-key": "ledger-new", onclick: () => {
        if (ledger.hands.length && !window.confirm(t("confirm_new_ledger"))) return;
        const setup = { ...ledger.setup, need: false };
        ledger = empty();
        ledger.setup = setup; // the same people by default: their names typed once a night
        store();
        app.rerender();
      } }, t("ledger_new"))),
    setupPanel());
}

// The ledger said in lines, for a group chat (and its picture).
export function ledgerShareText(a) {
  const lines = [`${t("ledger")} · ${t("preset." + ledger.preset)} · ${t("stake_short", { n: number(ledger.stake) })}`];
  if (!a) return [...lines, t("ledger_pending_short")];
  // a corrected hand says so, with its reason, as the link's rows do (trial r7 D2)
  const list = active();
  a.hands.forEach((hand, i) => {
    const why = list[i] ? fixedReason(list[i]) : "";
    lines.push(`${i + 1}. ${headline(hand.settlement, (x) => x)}${why ? ` · ${t("fixed_because", { why })}` : ""}`);
  });
  const totals = a.hands.length ? a.hands[a.hands.length - 1].totals : {};
  lines.push(`${t("totals")}: ${ledger.people.map((p) => `${p} ${signed(totals[p] ?? 0)}`).join(" · ")}`);
  for (const x of a.transfers) lines.push(t("transfer", { from: x.from, to: x.to, amount: t("money", { n: number(x.amount) }) }));
  return lines;
}

