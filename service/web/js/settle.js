// Flow 1, settle a hand (the dispute): the rules and the house rules a table argues about, the players, the
// cards each captured tapped on the deck month by month (plain junk may be a count), the calls, who stopped;
// then POST /v1/settle and the ruling.

import { h, field, stepper } from "./dom.js";
import { post, Problem } from "./api.js";
import { app, presetKnobs, presetsFor, reach } from "./app.js";
import { CARD, CARDS, cardName, deckGrid, deckIds, countsOf } from "./cards.js";
import { addHand, ledgerContext } from "./ledger.js";
import { rulingView, problemView } from "./ruling.js";
import { load, save } from "./store.js";
import { t, number } from "./words.js";

const SWITCHES = ["pibak_max_loser_junk", "gobak", "bonus_cards", "sep_animal"];
const BONUS = ["bonus-2a", "bonus-2b", "bonus-3"];

let state = null;

function fresh(count = 2, names = null) {
  return {
    count,
    names: names || t("default_names").slice(0, 3),
    preset: `korean-${count}p`,
    knobs: {},
    stake: 100,
    active: 0,
    captured: [[], [], []],
    junk: [0, 0, 0],
    go: [0, 0, 0],
    shakes: [0, 0, 0],
    bombs: [0, 0, 0],
    winner: 0,
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

// Called by the ledger: a new hand for the ledger's players, rules and stake, the nagari carry filled in.
export async function startFromLedger(ctx) {
  state = fresh(ctx.players.length, [...ctx.players, ...t("default_names")].slice(0, 3));
  state.stake = ctx.stake;
  state.nagari_streak = ctx.nagari_streak;
  await usePreset(ctx.preset);
  store();
  app.go("settle");
}

function changed() {
  state.waiting = false;
  state.result = null;
  state.error = null;
  state.added = null;
  store();
  app.rerender();
}

const players = () => state.names.slice(0, state.count);

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

function request() {
  const fill = fillers();
  const names = players();
  return {
    rules: { preset: state.preset, ...state.knobs },
    players: names.map((id, seat) => ({
      id,
      captured: [...state.captured[seat], ...fill[seat]],
      go_count: state.go[seat],
      shakes: state.shakes[seat],
      bombs: state.bombs[seat],
    })),
    winner: state.winner === null ? null : names[state.winner],
    nagari_streak: state.nagari_streak,
    stake: state.stake,
  };
}

async function submit() {
  state.error = null;
  try {
    const body = request();
    const answer = await reach(() => post("/v1/settle", body));
    // unreachable: asked again by itself when the connection is back (retry)
    state.waiting = !answer;
    if (!answer) {
      store();
      return;
    }
    state.result = { settlement: answer, request: body };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    state.error = error.body;
  }
  store();
  app.rerender();
  const target = document.querySelector(state.result ? "#ruling-title" : ".problem");
  if (target) {
    target.scrollIntoView({ block: "start" });
    if (state.result) target.focus({ preventScroll: true });
  }
}

// The ruling on the page, again in the page's new language (the same request: the same ruling).
export async function relanguage() {
  if (!state.result) return;
  try {
    const answer = await reach(() => post("/v1/settle", state.result.request));
    if (!answer) return;
    state.result = { ...state.result, settlement: answer };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    return;
  }
  store();
  app.rerender();
}

function toLedger() {
  const result = state.result;
  const outcome = addHand({
    players: result.request.players.map((p) => p.id),
    preset: state.preset,
    stake: state.stake,
    settlement: result.settlement,
    instant_payments: [],
  });
  state.added = outcome;
  store();
  app.rerender();
}

// bonus-2a and bonus-2b share a name: tell them apart by their letter
const bonusName = (id) => (id === "bonus-3" ? cardName(id) : `${cardName(id)} (${id.slice(-1)})`);

// A new hand with the same players and rules; the ledger's nagari carry comes along when it is their ledger.
async function startOver() {
  const { count, names, preset, knobs, stake } = state;
  state = { ...fresh(count, names), preset, knobs, stake };
  const ctx = ledgerContext();
  if (ctx.players && ctx.players.join("\n") === players().join("\n")) state.nagari_streak = ctx.nagari_streak;
  changed();
}

function rulesPanel() {
  const knobs = state.knobs;
  const select = (key, options, value, onchange) => h("select", { "data-key": key, "data-test": key, onchange: (e) => onchange(e.target.value) },
    options.map(([v, label]) => h("option", { value: v, selected: String(v) === String(value) }, label)));
  // open while nothing is entered yet; afterwards the cards matter more than the rules
  const fresh = state.captured.every((ids) => !ids.length) && !state.result;
  return h("details", { class: "panel rules", open: state.rulesOpen ?? fresh },
    // a person's own toggle wins over the default (clicked before the details toggles itself)
    h("summary", { "data-key": "rules-summary", onclick: (e) => { state.rulesOpen = !e.target.closest("details").open; store(); } },
      t("rules"), ": ", t("preset." + state.preset), h("small", { class: "summary-more" }, " · ", players().join(", "), " · ", t("stake_short", { n: number(state.stake) }))),
    field(t("players_label"), select("players", [[2, t("players_n", { n: 2 })], [3, t("players_n", { n: 3 })]], state.count, async (v) => {
      state.count = Number(v);
      state.winner = state.winner !== null && state.winner >= state.count ? 0 : state.winner;
      await usePreset(`korean-${state.count}p`);
      changed();
    })),
    field(t("preset_label"), select("preset", presetsFor(state.count).map((p) => [p.name, t("preset." + p.name)]), state.preset, async (v) => {
      await usePreset(v);
      changed();
    })),
    field(t("pibak_label"), select("pibak", [[-1, t("pibak_off")], ...[3, 4, 5, 6, 7, 8, 9].map((n) => [n, t("pibak_n", { n })])], knobs.pibak_max_loser_junk, (v) => {
      knobs.pibak_max_loser_junk = Number(v);
      changed();
    })),
    field(t("gobak_label"), select("gobak", ["none", "double", "pays-all", "pays-all-double"].map((g) => [g, t("gobak." + g)]), knobs.gobak, (v) => {
      knobs.gobak = v;
      changed();
    })),
    h("fieldset", { class: "bonus" }, h("legend", {}, t("bonus_label")),
      BONUS.map((id) => h("label", { class: "check-label" },
        h("input", { type: "checkbox", "data-key": "bonus-" + id, checked: (knobs.bonus_cards || []).includes(id), onchange: (e) => {
          const set = new Set(knobs.bonus_cards || []);
          if (e.target.checked) set.add(id);
          else set.delete(id);
          knobs.bonus_cards = BONUS.filter((b) => set.has(b));
          dropUnusedBonus();
          changed();
        } }), " ", bonusName(id)))),
    field(t("cup_label"), select("cup", ["best", "animal"].map((c) => [c, t("cup." + c)]), knobs.sep_animal, (v) => {
      knobs.sep_animal = v;
      changed();
    })),
    field(t("stake_label"), h("input", { type: "number", inputmode: "numeric", min: 0, step: 1, value: state.stake, "data-key": "stake", onchange: (e) => {
      state.stake = Math.max(0, Math.floor(Number(e.target.value) || 0));
      changed();
    } })),
    field(t("nagari_before"), h("input", { type: "number", inputmode: "numeric", min: 0, max: 20, value: state.nagari_streak, "data-key": "nagari-streak", onchange: (e) => {
      state.nagari_streak = Math.max(0, Math.min(20, Math.floor(Number(e.target.value) || 0)));
      changed();
    } })),
    players().map((name, seat) => field(t("name_label", { n: seat + 1 }), h("input", { type: "text", value: name, maxlength: 20, autocomplete: "off", "data-key": "name-" + seat, onchange: (e) => {
      state.names[seat] = e.target.value.trim() || t("default_names")[seat];
      changed();
    } }))),
  );
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
      h("p", { class: "hint" }, t("tap_cards")),
      deckGrid(deck, t("captured_of", { p: names[seat] }), (id) => {
        if (owner[id] === undefined) return { pressed: false, key: "cap" };
        if (owner[id] === seat) return { pressed: true, owner: seat, key: "cap" };
        return { pressed: false, disabled: true, owner: owner[id], note: t("taken_by", { p: names[owner[id]] }), key: "cap" };
      }, tap),
      h("div", { class: "calls" },
        stepper(t("junk_count"), state.junk[seat], 0, state.junk[seat] + plainJunkLeft(seat), (v) => { state.junk[seat] = v; changed(); }, "junk-" + seat),
        stepper(t("go_label"), state.go[seat], 0, 20, (v) => { state.go[seat] = v; changed(); }, "go-" + seat),
        stepper(t("shakes_label"), state.shakes[seat], 0, 4, (v) => { state.shakes[seat] = v; changed(); }, "shakes-" + seat),
        stepper(t("bombs_label"), state.bombs[seat], 0, 4, (v) => { state.bombs[seat] = v; changed(); }, "bombs-" + seat))));
}

function winnerPanel() {
  const options = [...players().map((name, seat) => [seat, name]), [null, t("nobody")]];
  return h("fieldset", { class: "panel winner" }, h("legend", {}, t("winner_label")),
    options.map(([seat, label]) => h("label", { class: "radio-label" },
      h("input", { type: "radio", name: "winner", "data-key": "winner-" + seat, checked: state.winner === seat, onchange: () => { state.winner = seat; changed(); } }),
      " ", label)));
}

export function view() {
  const ledgerNote = state.nagari_streak > 0 ? h("p", { class: "carry" }, t("carry", { n: state.nagari_streak })) : null;
  let ledgerPart = null;
  if (state.result) {
    ledgerPart = h("div", { class: "actions" },
      state.added && state.added.ok
        ? h("p", { role: "status", class: "added" }, t("added_to_ledger", { n: state.added.hand }), " ", h("a", { href: "#ledger", "data-key": "see-ledger" }, t("see_ledger")))
        : h("button", { type: "button", class: "primary", "data-key": "add-ledger", onclick: toLedger }, t("add_to_ledger")),
      state.added && !state.added.ok ? h("p", { role: "alert" }, t("ledger_mismatch")) : null,
      h("button", { type: "button", "data-key": "start-over", onclick: startOver }, t("start_over")));
  }
  return h("div", { class: "settle" },
    state.result ? rulingView(state.result.settlement, (x) => x, ledgerPart) : null,
    rulesPanel(),
    ledgerNote,
    seatTabs(),
    winnerPanel(),
    state.error ? problemView({ body: state.error }) : null,
    h("button", { type: "button", class: "primary submit", "data-key": "submit", onclick: submit }, t("submit")));
}
