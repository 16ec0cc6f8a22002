// Flow 1, settle a hand (the dispute): the rules and the house rules a table argues about, the players, who
// stopped, each player's calls (go, shakes, bombs) and the cards each captured, tapped on the deck month by
// month (plain junk may be a count); then POST /v1/settle and the ruling, below the entry.
//
// Top to bottom the order a table tells a hand in, and nothing above a control changes height when it is
// tapped: the rules panel opens and closes only by its own summary, and the ruling is drawn below the entry
// (an entry changed after a ruling marks that ruling stale instead of removing it, so the page never shrinks
// under the finger). Beside the card grid a second way in (quick.js): the counts said at the table (points,
// brights, animals, ribbons, junk units, the cup) as the `declared` field of /v1/settle (API.md "Additions
// in v1.2"), every player's on the screen at once; the way chosen stays for the next hand.

import { h, field, stepper } from "./dom.js";
import { post, Problem } from "./api.js";
import { app, presetKnobs, presetsFor, reach } from "./app.js";
import { CARD, CARDS, cardName, chip, deckGrid, deckIds, countsOf } from "./cards.js";
import { addHand, ledgerContext } from "./ledger.js";
import { askBlanks, askEmpty, blanks, countsRow, declared, entered, freshCounts, impliedFor, unsaid, upgradeCounts } from "./quick.js";
import { carrySaid, rulingView, problemView } from "./ruling.js";
import { offers } from "./shared.js";
import { rulingLines, shareBar } from "./share.js";
import { load, save } from "./store.js";
import { t, number, language, handName } from "./words.js";

const SWITCHES = ["pibak_max_loser_junk", "gobak", "bonus_cards", "sep_animal"];
// The bonus cards there are: the deck's, from the catalog (GET /v1/cards), not a copy of the engine's.
const bonusCards = () => CARDS.filter((c) => c.kind === "bonus").map((c) => c.id);
// The house rules other tables play (issue 19, RULES.md's knob table), offered as GET /v1/rules describes them.
const HOUSE = ["four_brights_points", "ten_ribbons_points", "chongtong_at_deal", "chongtong_by_bonus", "multiple_chongtong",
  "floor_four", "two_card_bomb", "bonus_on_ppuk", "chok_sseul", "steal_dealt_stack", "sep_animal_stealable", "gwang_palgi",
  // issue 29: the calculator's and the online services' rules
  "meongbak", "three_ppuk_baks", "ppuk_price", "bright_sale_price", "chongtong_play_on_multiplier", "shodang"];

let state = null;

// The names a new table starts with: the default names (갑 을 병 정 무), numbers only should a list be short.
const defaultNames = () => [...t("default_names"), "4", "5"].slice(0, 5);

function fresh(count = 2, names = null, people = count) {
  return {
    count, // who play a hand (the preset's players)
    people, // who sit at the table (2-5); those beyond `count` sit the hand out
    sitters: [], // the indices of those who sit out (chosen, else the last ones)
    shown: [], // the cards the one who sits out and sells shows (RULES.md 4.5)
    names: [...(names || []), ...defaultNames()].slice(0, 5),
    preset: `korean-${count}p`,
    knobs: {},
    stake: 100,
    active: 0,
    captured: [[], [], []],
    junk: [0, 0, 0],
    go: [0, 0, 0],
    shakes: [0, 0, 0],
    bombs: [0, 0, 0],
    mode: "cards", // or "counts": the quick entry
    counts: freshCounts(),
    winner: -1, // not chosen yet (null: nobody, a nagari)
    nagari_streak: 0,
    result: null,
    error: null,
    added: null,
  };
}

function store() {
  save("settle", state);
}

async function usePreset(name) {
  state.preset = name;
  for (const key of HOUSE) delete state.knobs[key]; // the preset's own, until the table changes one
  const knobs = await reach(() => presetKnobs(name));
  if (knobs) for (const key of SWITCHES) state.knobs[key] = knobs[key];
  dropUnusedBonus();
}

function dropUnusedBonus() {
  const used = state.knobs.bonus_cards || [];
  state.captured = state.captured.map((ids) => ids.filter((id) => CARD[id].kind !== "bonus" || used.includes(id)));
}

export async function init() {
  state = load("settle", () => null);
  if (state && !state.counts) Object.assign(state, { mode: "cards", counts: freshCounts() }); // kept by an older page
  if (state) {
    state.counts = upgradeCounts(state.counts);
    state.people = state.people || state.count;
    state.sitters = state.sitters || [];
    state.shown = state.shown || [];
    state.names = [...state.names, ...defaultNames()].slice(0, Math.max(5, state.names.length)).slice(0, 5);
  }
  if (!state) {
    state = fresh();
    await usePreset(state.preset);
    store();
  }
}

export function retry() {
  if (!Object.keys(state.knobs).length) usePreset(state.preset).then(() => { store(); app.rerender(); });
  else if (state.waiting) submit();
}

// After a reload: a ruling asked for while the service was unreachable is asked again (and the page says
// at once when it still cannot be reached); a ruling kept in another language is asked in this one.
export function resume() {
  if (state.waiting) submit();
  else if (state.result && state.result.lang && state.result.lang !== language()) relanguage();
}

// Called by the ledger: a new hand for the ledger's players, rules and stake, the nagari carry filled in.
export async function startFromLedger(ctx) {
  const mode = state ? state.mode : "cards";
  const people = ctx.people || ctx.players;
  // the dealer first (who plays every hand), then the others in the ledger's order
  const d = Math.max(0, people.indexOf(ctx.dealer));
  const order = people.map((_, i) => people[(d + i) % people.length]);
  const count = String(ctx.preset).includes("2p") ? 2 : 3;
  state = fresh(Math.min(count, people.length), order, people.length);
  state.mode = mode;
  state.stake = ctx.stake;
  state.nagari_streak = ctx.nagari_streak;
  state.carry = ctx.carry; // the engine's factor for that streak, said at the foot
  await usePreset(ctx.preset);
  // the ledger's own house rules (광팔기 at a table of four or five) come with it: the sale is sent and shown
  Object.assign(state.knobs, ctx.knobs || {});
  store();
  app.go("settle");
}

// The entry changed: a ruling or a refusal already on the page is marked stale (kept, so the page does not
// shrink under the finger). A field's change is drawn once the tap that ended the typing is over.
function changed(typed = false) {
  state.waiting = false;
  if (state.result || state.error) state.stale = true;
  store();
  if (typed) app.later();
  else app.rerender();
}

// Who sit out this hand: those chosen, else the last at the table (never the first, who deals).
function sitters() {
  const want = Math.max(0, state.people - state.count);
  const chosen = (state.sitters || []).filter((s) => s > 0 && s < state.people);
  if (chosen.length === want) return chosen;
  return Array.from({ length: want }, (_, i) => state.people - want + i);
}

const players = () => state.names.slice(0, state.people).filter((_, i) => !sitters().includes(i));

// The one who sat out and sold the brights (4 at the table, 광팔기 on): the last seat from the dealer sells;
// one who chose to sit out (seat 2 or 3) sells nothing.
// At five, two sit out and the API names one: the first of them from the dealer, his seat counted as at a
// table of four (the other, the last at the table, sits out as the fifth: RULES.md 11.1).
function sitOut() {
  if (state.people < 4 || state.count !== 3 || !rules().gwang_palgi) return null;
  const s = Math.min(...sitters());
  const seat = s + 1;
  return { player: state.names[s], seat, hand: seat === 4 ? [...state.shown] : [] };
}

// Plain junk entered as a count: distinct plain junk cards nobody tapped, in catalog order, seat by seat.
function fillers() {
  const taken = new Set(state.captured.slice(0, state.count).flat());
  const pool = CARDS.filter((c) => c.kind === "junk" && c.junk_units === 1 && !taken.has(c.id)).map((c) => c.id);
  return players().map((_, seat) => pool.splice(0, state.junk[seat]));
}

function plainJunkLeft(seat) {
  const taken = new Set(state.captured.slice(0, state.count).flat());
  const free = CARDS.filter((c) => c.kind === "junk" && c.junk_units === 1 && !taken.has(c.id)).length;
  const others = state.junk.slice(0, state.count).reduce((sum, n, i) => (i === seat ? sum : sum + n), 0);
  return Math.max(0, free - others);
}

// The players as /v1/settle takes them: the cards tapped (and the junk counted), or the counts declared.
function seatsOf() {
  const fill = fillers();
  return players().map((id, seat) => ({
    id,
    ...(state.mode === "counts"
      ? { declared: declared(state.counts[seat], seat === state.winner, impliedFor(state.counts, seat, players().map((_, s) => s))) }
      : { captured: [...state.captured[seat], ...fill[seat]] }),
    go_count: state.go[seat],
    ...(rules().allow_shake === false ? {} : { shakes: state.shakes[seat] }),
    ...(rules().allow_bomb === false ? {} : { bombs: state.bombs[seat] }),
  }));
}

function request() {
  const names = players();
  return {
    rules: { preset: state.preset, ...state.knobs },
    players: seatsOf(),
    winner: state.winner === null || state.winner < 0 ? null : names[state.winner],
    nagari_streak: state.nagari_streak,
    stake: state.stake,
    ...(sitOut() ? { sit_out: sitOut() } : {}),
  };
}

const seatList = () => players().map((_, seat) => seat);
const blanksOf = (seat) => blanks(state.counts, seat, state.winner, rules(), seatList());
const toAsk = (seat) => seat !== state.winner && (unsaid(state.counts[seat]) || blanksOf(seat).length > 0);
// A loser with no card tapped and no junk counted: asked about as in the counts ("did X capture nothing?"),
// never sent as one who captured nothing (who pays nothing) without a word; yes is kept as the counts' `empty`.
const emptyHanded = (seat) => seat !== state.winner && !state.captured[seat].length && !state.junk[seat] && !state.counts[seat].empty;

// An answer to the questions asked before a ruling: the last one answered rules at once, as the ledger adds
// its hand (trial r5 D7: the old ruling stayed greyed until 판정하기 was tapped again).
function answered() {
  changed();
  const open = players().some((_, seat) => (state.mode === "counts" ? toAsk(seat) : emptyHanded(seat)));
  if (state.winner !== -1 && !open) submit();
}

async function submit() {
  if (state.winner === -1) {
    state.needWinner = true;
    store();
    app.rerender();
    return;
  }
  state.needWinner = false;
  // a loser of whom no count was said is asked about, never sent as "captured nothing"
  // and a loser's blank that a check rests on (their brights when the winner scores brights ...) is asked too
  if (state.winner !== null && players().some((_, seat) => (state.mode === "counts" ? toAsk(seat) : emptyHanded(seat)))) {
    state.asked = true;
    store();
    app.rerender();
    return;
  }
  state.asked = false;
  try {
    const body = request();
    const counted = state.mode === "counts" ? [] : fillers().flat();
    const answer = await reach(() => post("/v1/settle", body));
    // unreachable: asked again by itself when the connection is back (retry)
    state.waiting = !answer;
    if (!answer) {
      store();
      return;
    }
    state.result = { settlement: answer, request: body, counted, lang: language() };
    state.error = null;
    state.added = null;
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    state.error = error.body;
    state.refusedRequest = request();
    state.result = null;
  }
  state.stale = false;
  store();
  app.rerender();
  // the ruling is below the entry: the page goes to it (the person asked for it)
  const target = document.querySelector(state.result ? "#ruling-title" : ".settle .problem");
  if (target) {
    target.scrollIntoView({ block: "start" });
    if (state.result) target.focus({ preventScroll: true });
  }
}

// The ruling on the page, again in the page's new language (the same request: the same ruling).
export async function relanguage() {
  const request = state.result ? state.result.request : state.error ? state.refusedRequest : null;
  if (!request) return;
  try {
    const answer = await reach(() => post("/v1/settle", request));
    if (!answer) return;
    if (state.result) state.result = { ...state.result, settlement: answer, lang: language() };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    // a refusal on the page is said again in the new language (the same request: the same refusal)
    if (state.error) state.error = error.body;
    else return;
  }
  store();
  app.rerender();
}

function toLedger() {
  const result = state.result;
  const outcome = addHand({
    players: [...result.request.players.map((p) => p.id), ...(result.request.sit_out ? [result.request.sit_out.player] : [])],
    preset: state.preset,
    knobs: state.knobs,
    stake: state.stake,
    settle: result.request,
  });
  state.added = outcome;
  store();
  app.rerender();
}

// The table this tab is set for (the ledger's quick entry starts an evening with it).
export function tableNow() {
  return { players: players(), preset: state.preset, knobs: state.knobs, stake: state.stake };
}

// bonus-2a and bonus-2b share a name: tell them apart by their letter
const bonusName = (id) => (id === "bonus-3" ? cardName(id) : `${cardName(id)} (${id.slice(-1)})`);

// A new hand with the same players and rules; the ledger's nagari carry comes along when it is their ledger.
// The page goes back to its top, where the next hand is told from.
async function startOver() {
  const { count, names, preset, knobs, stake, rulesOpen, mode, people } = state;
  state = { ...fresh(count, names, people), preset, knobs, stake, rulesOpen, mode };
  const ctx = ledgerContext();
  if (ctx.players && ctx.players.join("\n") === players().join("\n")) Object.assign(state, { nagari_streak: ctx.nagari_streak, carry: ctx.carry });
  store();
  app.rerender();
  window.scrollTo(0, 0);
}

// The rule set's knobs as this hand uses them (the preset's, with the house rules chosen here).
const rules = () => ({ ...(app.knobs[state.preset] || {}), ...state.knobs });

function rulesPanel() {
  const knobs = state.knobs;
  const select = (key, options, value, onchange) => h("select", { "data-key": key, "data-test": key, onchange: (e) => onchange(e.target.value) },
    options.map(([v, label]) => h("option", { value: v, selected: String(v) === String(value) }, label)));
  // opened and closed only by its summary: never by a tap elsewhere (that would move the deck under the finger)
  return h("details", { class: "panel rules", open: state.rulesOpen === true },
    h("summary", { "data-key": "rules-summary", onclick: (e) => { state.rulesOpen = !e.target.closest("details").open; store(); } },
      t("rules"), ": ", t("preset." + state.preset), h("small", { class: "summary-more" }, " · ", players().join(", "), " · ", t("stake_short", { n: number(state.stake) }))),
    field(t("players_label"), select("players", [2, 3, 4, 5].map((n) => [n, t("players_n", { n })]), state.people, async (v) => {
      const was = state.count;
      state.people = Number(v);
      state.count = state.people === 2 ? 2 : 3;
      state.sitters = [];
      state.winner = state.winner !== null && state.winner >= state.count ? -1 : state.winner;
      if (state.count !== was || !state.preset) await usePreset(`korean-${state.count}p`);
      // four at the table: the fourth sits out and sells the brights, as tables of four play (RULES.md 4.5)
      if (state.people >= 4 && app.knobSpecs?.gwang_palgi) state.knobs.gwang_palgi = true;
      changed(true);
    })),
    field(t("preset_label"), select("preset", presetsFor(state.count).map((p) => [p.name, t("preset." + p.name)]), state.preset, async (v) => {
      await usePreset(v);
      changed(true);
    })),
    field(t("pibak_label"), select("pibak", [[-1, t("pibak_off")], ...[3, 4, 5, 6, 7, 8, 9].map((n) => [n, t("pibak_n", { n })])], knobs.pibak_max_loser_junk, (v) => {
      knobs.pibak_max_loser_junk = Number(v);
      changed(true);
    })),
    field(t("gobak_label"), select("gobak", ["none", "double", "pays-all", "pays-all-double", "pays-all-own-double", "by-table"].map((g) => [g, t("gobak." + g)]), knobs.gobak, (v) => {
      knobs.gobak = v;
      changed(true);
    })),
    h("fieldset", { class: "bonus" }, h("legend", {}, t("bonus_label")),
      bonusCards().map((id) => h("label", { class: "check-label" },
        h("input", { type: "checkbox", "data-key": "bonus-" + id, checked: (knobs.bonus_cards || []).includes(id), onchange: (e) => {
          const set = new Set(knobs.bonus_cards || []);
          if (e.target.checked) set.add(id);
          else set.delete(id);
          knobs.bonus_cards = bonusCards().filter((b) => set.has(b));
          dropUnusedBonus();
          changed(true);
        } }), " ", bonusName(id)))),
    field(t("cup_label"), select("cup", ["best", "animal"].map((c) => [c, t("cup." + c)]), knobs.sep_animal, (v) => {
      knobs.sep_animal = v;
      changed(true);
    })),
    houseRules(),
    field(t("stake_label"), h("input", { type: "number", inputmode: "numeric", min: 0, step: 1, value: state.stake, "data-key": "stake", onchange: (e) => {
      state.stake = Math.max(0, Math.floor(Number(e.target.value) || 0));
      changed(true);
    } })),
    field(t("nagari_before"), h("input", { type: "number", inputmode: "numeric", min: 0, max: 20, value: state.nagari_streak, "data-key": "nagari-streak", onchange: (e) => {
      state.nagari_streak = Math.max(0, Math.min(20, Math.floor(Number(e.target.value) || 0)));
      changed(true);
    } })),
    state.names.slice(0, state.people).map((name, seat) => field(t("name_label", { n: seat + 1 }), h("input", { type: "text", value: name, maxlength: 20, autocomplete: "off", "data-key": "name-" + seat, onchange: (e) => {
      state.names[seat] = e.target.value.trim() || defaultNames()[seat];
      changed(true);
    } }))),
  );
}

// The house rules, each as GET /v1/rules describes it (its label, its choices, its bounds): a switch, a choice
// or a number. Opened by their own summary, inside the rules panel.
function houseRules() {
  const specs = app.knobSpecs;
  if (!specs) return null;
  const shown = HOUSE.filter((name) => specs[name] && name in rules());
  if (!shown.length) return null;
  const value = (name) => rules()[name];
  const set = (name, v) => {
    state.knobs[name] = v;
    changed(true);
  };
  const control = (name) => {
    const spec = specs[name];
    const label = spec.label || name;
    const key = "knob-" + name;
    if (spec.kind === "bool") {
      return h("label", { class: "check-label knob" },
        h("input", { type: "checkbox", "data-key": key, checked: !!value(name), onchange: (e) => set(name, e.target.checked) }), " ", label);
    }
    if (spec.kind === "choice") {
      return field(label, h("select", { "data-key": key, onchange: (e) => set(name, e.target.value) },
        (spec.choices || []).map((c) => h("option", { value: c.value, selected: c.value === value(name) }, c.label))));
    }
    // -1 is a knob's "as its other knob" (steal_dealt_stack: as steal_stack): said in words, not as a bare -1
    if (spec.minimum === -1) {
      const v = Number(value(name));
      return field(label, h("select", { "data-key": key, onchange: (e) => set(name, Number(e.target.value)) },
        h("option", { value: -1, selected: v === -1 }, t("knob_as_other")),
        [0, 1, 2, 3, 4, 5].map((n) => h("option", { value: n, selected: v === n }, String(n))),
        v > 5 ? h("option", { value: v, selected: true }, String(v)) : null));
    }
    return field(label, h("input", { type: "number", inputmode: "numeric", min: spec.minimum, max: spec.maximum, value: value(name), "data-key": key,
      onchange: (e) => {
        const n = Math.floor(Number(e.target.value));
        set(name, Number.isFinite(n) ? Math.max(spec.minimum ?? n, Math.min(spec.maximum ?? n, n)) : value(name));
      } }));
  };
  return h("details", { class: "house", open: state.houseOpen === true },
    h("summary", { "data-key": "house-summary", onclick: (e) => { state.houseOpen = !e.target.closest("details").open; store(); } }, t("house_rules")),
    shown.map(control));
}

// With more at the table than play a hand: who sits this one out, and what the one who sells shows.
function sitOutPanel() {
  if (state.people <= state.count) return null;
  const out = sitters();
  const want = state.people - state.count;
  const sale = sitOut();
  // the entries are kept by player, not by place: only the one who now sits out loses his, and is asked about
  // first (trial r5 D5: every card, count and the winner went without a word)
  const toggle = (s) => {
    if (out.includes(s)) return; // another is chosen in its place by tapping them
    const before = players();
    const j = before.indexOf(state.names[s]);
    const lost = j >= 0 && (state.winner === j || state.captured[j]?.length || state.junk[j] || state.go[j] || state.shakes[j] || state.bombs[j] || entered(state.counts[j]));
    if (lost && !window.confirm(t("confirm_sit_out", { p: state.names[s] }))) {
      app.rerender(); // the box unticked again
      return;
    }
    state.sitters = [...out, s].slice(-want);
    const after = players();
    const from = after.map((name) => before.indexOf(name));
    const blank = { captured: [], junk: 0, go: 0, shakes: 0, bombs: 0 };
    for (const key of Object.keys(blank)) {
      const kept = state[key];
      state[key] = kept.map((_, seat) => (seat < from.length && from[seat] >= 0 ? kept[from[seat]] : blank[key]));
    }
    const counts = state.counts;
    state.counts = freshCounts().map((c, seat) => (seat < from.length && from[seat] >= 0 ? counts[from[seat]] : c));
    if (state.winner !== null && state.winner >= 0) state.winner = after.indexOf(before[state.winner]);
    state.active = Math.max(0, after.indexOf(before[state.active]));
    state.shown = [];
    changed();
  };
  const shownIds = CARDS.filter((c) => c.kind === "bright" || (c.kind === "bonus" && (state.knobs.bonus_cards || []).includes(c.id))).map((c) => c.id);
  return h("fieldset", { class: "panel sit-out" }, h("legend", {}, t("sits_out", { n: want })),
    h("div", { class: "segments" }, state.names.slice(0, state.people).map((name, s) => h("label", { class: "radio-label segment" },
      h("input", { type: "checkbox", "data-key": "sit-" + s, checked: out.includes(s), disabled: s === 0, onchange: () => toggle(s) }),
      " ", name, s === 0 ? ` (${t("dealer_word")})` : ""))),
    // the same place whoever sits out (nothing below moves): the cards to tap, or why there is no sale
    sale
      ? h("div", { class: "shown" }, h("p", { class: "hint" }, t(sale.seat === 4 ? "sale_shown" : "sale_none", { p: sale.player })),
          h("div", { class: "chips-row" }, shownIds.map((id) => h("button", { type: "button", class: "chip-toggle", "data-key": "shown-" + id, disabled: sale.seat !== 4, "aria-pressed": String(state.shown.includes(id)), onclick: () => {
            state.shown = state.shown.includes(id) ? state.shown.filter((x) => x !== id) : [...state.shown, id];
            changed();
          } }, chip(id)))))
      : null);
}

// Who stopped, before anything else: there is no default (a wrong default gave a silent wrong ruling).
function winnerPanel() {
  const options = [...players().map((name, seat) => [seat, name]), [null, t("nobody")]];
  return h("fieldset", { class: "panel winner" }, h("legend", {}, t("winner_label")),
    h("div", { class: "segments" }, options.map(([seat, label]) => h("label", { class: "radio-label segment" },
      h("input", { type: "radio", name: "winner", "data-key": "winner-" + seat, checked: state.winner === seat, onchange: () => {
        state.winner = seat;
        state.needWinner = false;
        changed();
      } }),
      " ", label))));
}

// A player's calls, named with the player, above the deck; only those the rule set has (RULES.md 5).
function callsOf(seat, name) {
  const knobs = rules();
  const cell = (key, label, value, max, set) => stepper(label, value, 0, max, (v) => { set(v); changed(); }, `${key}-${seat}`);
  return h("div", { class: "calls" },
    cell("go", t("go_of", { p: name }), state.go[seat], 20, (v) => (state.go[seat] = v)),
    knobs.allow_shake === false ? null : cell("shakes", t("shakes_of", { p: name }), state.shakes[seat], 4, (v) => (state.shakes[seat] = v)),
    knobs.allow_bomb === false ? null : cell("bombs", t("bombs_of", { p: name }), state.bombs[seat], 4, (v) => (state.bombs[seat] = v)));
}

function seatTabs() {
  const names = players();
  const deck = deckIds(state.knobs.bonus_cards);
  const owner = {};
  names.forEach((_, seat) => state.captured[seat].forEach((id) => (owner[id] = seat)));
  const seat = Math.min(state.active, state.count - 1);
  const counts = (s) => {
    const c = countsOf(state.captured[s]);
    c.j += state.junk[s];
    return t("counts", c);
  };
  const tap = (id) => {
    const list = state.captured[seat];
    const at = list.indexOf(id);
    if (at >= 0) list.splice(at, 1);
    else list.push(id);
    changed();
  };
  return h("section", { class: "panel seats" },
    entrySwitch(),
    h("div", { role: "tablist", class: "tabs", "aria-label": t("captured_by_seat"), onkeydown: (e) => {
      // the tab pattern: arrow keys move between the players' tabs
      const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (!step) return;
      state.active = (seat + step + state.count) % state.count;
      store();
      app.rerender();
      document.getElementById("seat-tab-" + state.active)?.focus();
    } },
      names.map((name, s) => h("button", {
        type: "button", role: "tab", id: "seat-tab-" + s, "data-key": "seat-tab-" + s, "aria-selected": String(s === seat),
        "aria-controls": "seat-panel", tabindex: s === seat ? 0 : -1,
        onclick: () => { state.active = s; store(); app.rerender(); },
      }, h("b", {}, name), h("small", {}, counts(s))))),
    h("div", { role: "tabpanel", id: "seat-panel", "aria-labelledby": "seat-tab-" + seat, "data-seat": seat },
      callsOf(seat, names[seat]),
      stepper(t("junk_count"), state.junk[seat], 0, state.junk[seat] + plainJunkLeft(seat), (v, typed) => { state.junk[seat] = v; changed(typed); },
        "junk-" + seat, { big: 5, typed: true }),
      h("p", { class: "hint" }, t("tap_cards")),
      // the place of a second way in, beside this grid: the counts a table says (the `declared` of /v1/settle)
      deckGrid(deck, t("captured_of", { p: names[seat] }), (id) => {
        if (owner[id] === undefined) return { pressed: false, key: "cap" };
        if (owner[id] === seat) return { pressed: true, owner: seat, key: "cap" };
        return { pressed: false, disabled: true, owner: owner[id], note: t("taken_by", { p: names[owner[id]] }), key: "cap" };
      }, tap)));
}

// The two ways in: the cards tapped, or the counts the table says (all players at once).
function entrySwitch() {
  return h("div", { class: "segments entry-mode", role: "radiogroup", "aria-label": t("entry_label") },
    ["cards", "counts"].map((mode) => h("label", { class: "radio-label segment" },
      h("input", { type: "radio", name: "entry-mode", "data-key": "mode-" + mode, checked: state.mode === mode, onchange: () => {
        state.mode = mode;
        changed();
      } }),
      " ", t("entry." + mode))));
}

function countsPanel() {
  const knobs = rules();
  return h("section", { class: "panel seats quick", "aria-label": t("entry.counts") },
    entrySwitch(),
    h("p", { class: "hint" }, t("q_hint")),
    players().map((name, seat) => h("div", { class: "qplayer", "data-seat": seat },
      h("h3", { class: "qname" }, name),
      callsOf(seat, name),
      countsRow(state.counts, seat, name, state.winner === -1 ? null : seat === state.winner, knobs, changed),
      !state.asked || seat === state.winner || state.winner === null ? null
        : unsaid(state.counts[seat]) ? askEmpty(state.counts, seat, name, answered)
        : blanksOf(seat).length ? askBlanks(state.counts, seat, name, blanksOf(seat), answered) : null)));
}

function ledgerActions() {
  if (state.stale) return null;
  return h("div", { class: "actions" },
    state.added && state.added.ok
      ? h("p", { role: "status", class: "added" }, t("added_to_ledger", { hand: handName(state.added.hand) }), " ", h("a", { href: "#ledger", class: "link-button", "data-key": "see-ledger" }, t("see_ledger")))
      : h("button", { type: "button", class: "primary", "data-key": "add-ledger", onclick: toLedger }, t("add_to_ledger")),
    state.added && !state.added.ok ? h("p", { role: "alert", class: "problem" }, t("ledger_mismatch")) : null,
    h("button", { type: "button", "data-key": "start-over", onclick: startOver }, t("start_over")));
}

export function view() {
  return h("div", { class: "settle" },
    rulesPanel(),
    sitOutPanel(),
    winnerPanel(),
    state.mode === "counts" ? countsPanel() : seatTabs(),
    // stays at the foot of the screen while the deck scrolls: the ruling is always one tap away. What it will
    // count in (the nagari carry), and what it still needs, are said there: a line added at the foot moves
    // nothing above it
    h("div", { class: "submit-bar" },
      // the factor is the engine's (the ledger's answer): a streak typed here is said by the ruling itself
      state.carry && state.carry.streak === state.nagari_streak ? h("p", { class: "carry" }, carrySaid(state.carry)) : null,
      h("button", { type: "button", class: "primary submit", "data-key": "submit", onclick: submit }, t("submit")),
      state.needWinner ? h("p", { class: "need", role: "alert" }, t("winner_needed")) : null,
      // the cards entry's question, asked below the button that asked it
      state.asked && state.mode === "cards" && state.winner !== null && state.winner >= 0
        ? players().map((name, seat) => (emptyHanded(seat) ? askEmpty(state.counts, seat, name, answered, "c", () => { state.active = seat; changed(); }) : null))
        : null),
    state.error ? h("div", { class: state.stale ? "stale" : null }, problemView({ body: state.error })) : null,
    state.result
      ? rulingView(state.result.settlement, (x) => x, ledgerActions(), { counted: new Set(state.result.counted || []), stale: state.stale, go: winnerGo(state.result), said: winnerSaid(state.result.request) })
      : null,
    state.result && !state.stale ? shareBar("settle", () => state.result.request, () => rulingLines(state.result.settlement, winnerGo(state.result))) : null);
}

const winnerSaid = (request) => (request.players.find((p) => p.id === request.winner) || {}).declared || null;
const winnerGo = (result) => (result.request.players.find((p) => p.id === result.settlement.winner) || {}).go_count || 0;

offers.settle = { startFromLedger, tableNow }; // the ledger starts a hand here (ledger.js does not import this module)
