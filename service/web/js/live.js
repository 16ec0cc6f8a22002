// Flow 2, follow a live game (a physical game, hands hidden): the layout at the deal, then each turn the card
// played and the card flipped. The whole log is replayed by POST /v1/replay after every entry: the answer
// says whose turn it is, what happened, every player's captures and score, and at a go/stop decision what a
// stop pays now. What the next turn may be is the engine's to say (RULES.md 5 is written once, in the
// engine): the answer's `next` lists the legal moves where the hands are known, and where they are hidden
// what to prompt for (the months where a capture choice is asked, for the card played and for the card turned
// over after it, the months that can be shaken or bombed, the flip turns held, a flip due, what may follow a
// bonus card from hand, who may declare the cup); the page greys the cards and offers the tools from it, and
// compares no card's month, counts no layout card and reads no knob to judge a turn itself.
//
// A turn is two taps on a phone held upright (390 x 844) without scrolling: the score strip, the prompt with
// undo beside it, one row of tools (shake, bomb, the cup, a capture choice, go and stop) and the grid of
// cards all fit, each at a fixed height, so nothing above a tapped card moves when it is tapped.
//
// While the service cannot be reached, the engine in the page answers the same replay (api.js,
// docs/page-engine.md): the game goes on, ruled on the phone. Until the engine has loaded (or where it cannot
// load), an entry is kept as "not checked yet" and the next turn waits for it to be checked: the page carries
// no copy of the turn rules. When an answer comes the whole log is checked in order; a go/stop that was due
// meanwhile is asked for at its place, and a refused move is shown at its place.

import { h, field } from "./dom.js";
import { post, Problem } from "./api.js";
import { app, presetKnobs, presetsFor, reach } from "./app.js";
import { CARD, CARDS, chip, chips, deckGrid, deckIds, countsOf, cardName, monthOf } from "./cards.js";
import { addHand, ledgerContext } from "./ledger.js";
import { describeMove, eventsView, movesView } from "./log.js";
import { carrySaid, rulingView, problemView } from "./ruling.js";
import { setLog } from "./check.js";
import { offers } from "./shared.js";
import { load, save } from "./store.js";
import { t, number, language, handName } from "./words.js";

// The deal's layout size and the bonus cards there are: the engine's (engine.json, GET /v1/cards).
const layoutSize = () => app.layoutSize?.[state.count] ?? 0;
const bonusCards = () => CARDS.filter((c) => c.kind === "bonus").map((c) => c.id);
let state = null;
// The service is checking an entry the page could not judge alone (a call may be due): taps wait for it, so
// a double tap on the flipped card cannot become the next player's card before the service has answered.
let busy = false;
// A check of the log is on its way; another entry meanwhile asks for one more when it is back.
let checking = false;
let recheck = false;

function fresh() {
  return {
    phase: "setup",
    count: 2,
    names: t("default_names").slice(0, 3),
    preset: "korean-2p",
    knobs: {}, // house rules on top of the preset: bonus_cards, bonus_from_hand
    stake: 100,
    nagari_streak: null, // null: the ledger's carry when the ledger has these players
    layout: [],
    chongtong: { seat: -1, month: 1 }, // a player dealt four of a month shows them (RULES.md 4)
    moves: [],
    pending: 0, // the last `pending` moves are not checked by the service yet
    draft: {},
    answer: null, // the service's answer for the checked moves
    start: null, // its answer for the deal alone: where the page carries the table from when it must
    probe: null,
    error: null,
    callDue: null, // {index}: the service said a go/stop was due before this entered move
    undone: null, // what the last undo took back, said above the prompt
    added: null,
  };
}

function store() {
  save("live", state);
}

export function init() {
  state = { ...fresh(), ...load("live", fresh) };
}

const players = () => state.names.slice(0, state.count);
const knobs = () => ({ ...(app.knobs[state.preset] || {}), ...state.knobs });
const checked = () => state.moves.length - state.pending;

// The rules as the log names them: the preset, with the house rules chosen at the setup.
function rulesSpec() {
  return Object.keys(state.knobs || {}).length ? { preset: state.preset, ...state.knobs } : state.preset;
}

// The nagari hands just before this one: as entered, else the ledger's carry when it is these players' ledger.
function carry() {
  if (state.nagari_streak !== null && state.nagari_streak !== undefined) return state.nagari_streak;
  const ctx = ledgerContext();
  return ctx.players && ctx.players.join("\n") === players().join("\n") ? ctx.nagari_streak : 0;
}

// The four cards of a chongtong shown at the deal, by the player's name ({} when nobody has one).
function shown() {
  const { seat, month } = state.chongtong || { seat: -1 };
  if (seat < 0 || seat >= state.count) return {};
  return { [players()[seat]]: CARDS.filter((c) => c.month === month).map((c) => c.id) };
}

export function logOf() {
  const deal = { layout: state.layout };
  if (Object.keys(shown()).length) deal.shown = shown();
  return { rules: rulesSpec(), players: players(), deal, moves: state.moves, nagari_streak: carry(), stake: state.stake };
}

// Replay a log of these moves: {answer}, {problem} (refused), or {offline}.
async function replay(moves) {
  try {
    const answer = await reach(() => post("/v1/replay", { ...logOf(), moves }));
    return answer ? { answer } : { offline: true };
  } catch (error) {
    if (error instanceof Problem) return { problem: error.body };
    throw error;
  }
}

async function probeStop() {
  // an older service has no next.if_stop: a replay of the log with the stop call gives the same settlement
  const next = state.answer && state.answer.next;
  state.probe = null;
  if (!next || next.expects !== "call" || next.if_stop || state.pending) return;
  const result = await replay([...state.moves, { player: next.player, call: "stop" }]);
  if (result.answer) state.probe = result.answer.settlement;
}

// --- checking the log ------------------------------------------------------------------------------------

// Check every entered move with the service, in order. Moves entered meanwhile are checked next time round.
async function check() {
  if (checking) {
    recheck = true;
    return;
  }
  checking = true;
  try {
    do {
      recheck = false;
      await checkOnce();
    } while (recheck && state.pending);
  } finally {
    checking = false;
  }
  reveal = true;
  store();
  app.rerender();
}

async function checkOnce() {
  if (state.phase !== "play" || !state.pending) return;
  const moves = state.moves;
  const before = checked();
  const result = await replay(moves);
  // an undo (or a new game) meanwhile made this answer one for another log
  const same = state.moves.length >= moves.length && moves.every((m, i) => state.moves[i] === m);
  if (result.offline || !same) return;
  if (result.answer) {
    state.answer = result.answer;
    state.lang = language();
    state.pending = state.moves.length - moves.length;
    state.error = null;
    state.callDue = null;
    await probeStop();
    return;
  }
  const problem = result.problem;
  const at = problem.move_index;
  if (at === undefined || at === null || at < before) {
    state.error = problem; // not a move's fault (a log the service cannot read): said as it is
    return;
  }
  if (at === moves.length - 1 && at === before && state.moves.length === moves.length) {
    // the one move just entered is refused: it is not kept, and the refusal says why at its place
    state.moves = moves.slice(0, at);
    state.pending = 0;
    state.error = { ...problem, move: moves[at] };
    return;
  }
  // an entry made while the service could not be reached is refused: the table as it was before it, and
  // the question (a go/stop that was due) or the refusal at its place; the moves after it wait
  const upTo = await replay(moves.slice(0, at));
  if (!upTo.answer) return;
  state.answer = upTo.answer;
  state.pending = state.moves.length - at;
  if (problem.code === "call-required" && upTo.answer.next && upTo.answer.next.expects === "call") {
    state.callDue = { index: at };
    state.error = null;
  } else {
    state.callDue = null;
    state.error = problem;
  }
}

async function submit(move) {
  if (busy) return;
  state.draft = {};
  state.undone = null;
  state.error = null;
  state.moves = [...state.moves, move];
  state.pending += 1;
  store();
  if (state.pending > 1 || app.offline) {
    // already behind the service: the game goes on at once and is checked when the service answers
    app.rerender();
    check();
    return;
  }
  busy = true;
  document.querySelector(".entry")?.setAttribute("aria-busy", "true");
  try {
    await check();
  } finally {
    busy = false;
  }
  app.rerender();
}

// After a reload: moves entered while the service was unreachable are checked at once; sentences kept in
// another language are asked for in this one.
export function resume() {
  if (state.phase !== "play") return;
  if (state.pending) check();
  else if (state.lang && state.lang !== language()) relanguage();
}

export function retry() {
  if (state.phase === "play" && state.pending) check();
}

// The game's sentences (events, rulings, the go/stop reasons), again in the page's new language.
export async function relanguage() {
  if (state.phase !== "play" || state.pending || busy || checking) return;
  const result = await replay(state.moves);
  if (!result.answer || state.pending) return;
  state.answer = result.answer;
  state.lang = language();
  await probeStop();
  store();
  app.rerender();
}

// A go/stop that was due before an entry made offline: the call is put at its place and the log checked again.
function answerCallDue(call) {
  const at = state.callDue.index;
  const player = state.answer.next.player;
  const after = state.moves.length - at;
  if (call === "stop" && after && !window.confirm(t("confirm_drop_after_stop", { n: after }))) return;
  const kept = call === "stop" ? [] : state.moves.slice(at);
  state.moves = [...state.moves.slice(0, at), { player, call }, ...kept];
  state.pending = state.moves.length - at;
  state.callDue = null;
  store();
  app.rerender();
  check();
}

// A refused entry made offline, and every entry after it, are taken out (after a question).
function dropFrom(at) {
  const n = state.moves.length - at;
  if (!window.confirm(t("confirm_drop", { n: at + 1, m: n }))) return;
  state.moves = state.moves.slice(0, at);
  state.pending = Math.max(0, state.pending - n);
  state.error = null;
  state.undone = t("undo_done", { what: t("dropped", { n: at + 1, m: n }) });
  store();
  app.rerender();
}

async function undo() {
  if (busy) return;
  const d = state.draft;
  if (Object.keys(d).length) {
    state.draft = {};
    state.undone = t("undo_done", { what: t("undo_draft") });
  } else if (state.error && state.error.move) {
    state.error = null;
    state.undone = null;
  } else if (state.moves.length) {
    const last = state.moves[state.moves.length - 1];
    const moves = state.moves.slice(0, -1);
    if (state.pending) {
      // not checked yet: the last answer still holds for the moves before it
      state.moves = moves;
      state.pending -= 1;
    } else {
      busy = true;
      const result = await replay(moves).finally(() => { busy = false; });
      state.moves = moves;
      if (result.answer) {
        state.answer = result.answer;
        await probeStop();
      } else if (result.offline && state.start) {
        // the service cannot say how the table stood: carried from the deal until it can
        state.answer = state.start;
        state.pending = moves.length;
      } else if (result.problem) state.error = result.problem;
    }
    if (state.callDue && state.callDue.index > state.moves.length - 1) state.callDue = null;
    if (state.error && !state.error.move && state.error.move_index >= state.moves.length) state.error = null;
    state.undone = t("undo_done", { what: describeMove(last) });
    state.added = null;
  } else {
    state.phase = "setup";
    state.answer = null;
    state.error = null;
    state.undone = null;
  }
  store();
  app.rerender();
}

async function startGame() {
  await reach(() => presetKnobs(state.preset));
  state.nagari_streak = carry();
  const result = await replay([]);
  if (result.answer) {
    state.answer = result.answer;
    state.start = result.answer;
    state.lang = language();
    state.phase = "play";
    state.error = null;
    state.undone = null;
  } else if (result.problem) state.error = result.problem;
  store();
  app.rerender();
  if (state.phase === "play") window.scrollTo(0, 0);
}

// Every saved log has its own name: the date and time it was saved.
function fileName() {
  const d = new Date();
  const two = (n) => String(n).padStart(2, "0");
  const when = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
  return t("download_name", { when });
}

function exportLog() {
  const blob = new Blob([JSON.stringify(logOf(), null, 1)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: fileName() });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// --- the table as the page knows it --------------------------------------------------------------------

// The table as the last answer left it; while entries wait to be checked nobody's turn is known (the next
// entry waits for the service, or the engine in the page, to check them).
function table() {
  const a = state.answer;
  return { layout: a.layout, stock: a.stock_left, next: state.pending ? null : a.next, over: a.status === "finished" && !state.pending };
}

function seenCards() {
  const seen = new Set(state.layout);
  for (const m of [...state.moves, state.draft]) {
    for (const key of ["play", "draw", "bonus"]) if (m[key]) seen.add(m[key]);
    for (const key of ["bomb", "bonus_flipped"]) for (const id of m[key] || []) seen.add(id);
  }
  return seen;
}

const layoutOfMonth = (month) => table().layout.filter((id) => monthOf(id) === month);

// What the engine says the next turn may be (RULES.md 5 is the engine's to decide, not this page's): the
// answer's `next`, while no entry waits to be checked.
// `legal`: the moves, where the hands are known; where they are hidden, what to prompt for: the months where
// a capture choice is asked, the months that can be shaken or bombed, the flip turns held, a flip due.
function asked() {
  const next = !state.pending && state.answer ? state.answer.next : null;
  return next && next.expects !== "call" ? next : null;
}

// A month the service says about, or null when it does not say (an older service, or entries unchecked).
const said = (key, month) => {
  const list = asked()?.[key];
  return Array.isArray(list) ? list.includes(month) : null;
};

// How many hand cards a bomb of `card`'s month takes (the move's shape): three onto the layout's one, or two
// onto the layout's two where the engine names the month in two_card_bomb_months (RULES.md 5.5)
const bombCards = (card) => (said("two_card_bomb_months", monthOf(card)) === true ? 2 : 3);

// The hand cards a legal move starts with, when the service lists the legal moves (the hands are known).
function legalCards() {
  const legal = asked()?.legal;
  if (!Array.isArray(legal) || !legal.length) return null; // hidden hands: no list, the prompt options instead
  const cards = new Set();
  for (const m of legal) {
    for (const key of ["play", "bonus"]) if (m[key]) cards.add(m[key]);
    for (const key of ["bomb", "shake"]) for (const id of m[key] || []) cards.add(id);
  }
  return cards;
}

// The months where a card meeting the layout takes one of two cards the player names, as the engine says them:
// for the card played, `capture_months`; for the card turned over, `draw_capture_months` by the month of the
// card played this turn where that changes them (RULES.md 5.2: a flip of the month played meets it), else the
// same `capture_months`. The page looks a month up; it does not judge one.
const captureMonths = () => asked()?.capture_months || [];
const drawCaptureMonths = (d) => asked()?.draw_capture_months?.[d.play ? monthOf(d.play) : 0] ?? captureMonths();

// In a month where the engine asks, the capture takes the one of the two layout cards the player names, unless
// the engine says the two are alike to every rule (the answer's `alike_captures`: the card to name unasked).
function choiceOf(card, months) {
  if (!months.includes(monthOf(card))) return null;
  const two = layoutOfMonth(monthOf(card));
  const alike = (asked()?.alike_captures || []).find((id) => two.includes(id));
  return alike ? { auto: alike } : { two };
}

// What may follow a bonus card played from hand, as the engine says it (the answer's `bonus_from_hand.then`,
// RULES.md 5.6): a play (perhaps shaken or in a bomb) or nothing when it is replaced; with an extra flip, the
// next card entered is the stock top turned over and played.
const bonusThen = (what) => (asked()?.bonus_from_hand?.then || []).includes(what);
const extraFlip = (d) => Boolean(d.bonus) && bonusThen("extra-flip");

// The stock cards the turn has used: those entered as turned over (bonus cards, an extra flip's card) and those
// the engine says a bonus card from hand takes before the play; the flip is asked while the stock has more.
const usedStock = (d) => (d.bonus_flipped || []).length + (d.bonus ? asked()?.bonus_from_hand?.stock_taken ?? 0 : 0)
  + (extraFlip(d) && d.play ? 1 : 0);

// The step the current turn is at, from what has been entered so far.
function step() {
  const { next, stock } = table();
  const d = state.draft;
  const extra = extraFlip(d);
  if (next.expects === "call") return "call";
  if (next.expects === "chongtong" || next.expects === "shodang") return next.expects; // RULES.md 4.3, 8.7
  if (d.mode === "declare") return "declare";
  if (next.expects !== "flip" && d.mode !== "flip" && asked()?.flip_due !== true) {
    if (d.mode === "shake" && (d.shake || []).length < 3) return "shake";
    if (d.mode === "shake" && !d.play) return "shake_play";
    if (d.mode === "bomb" && !((d.bomb || []).length && d.bomb.length >= bombCards(d.bomb[0]))) return "bomb";
    if (extra && !d.play && stock - usedStock(d) > 0) return "extra_flip";
    if (!extra && !d.play && !d.bomb && !d.nothing) return "play";
    if (d.play && !d.capture && choiceOf(d.play, captureMonths())?.two) return "capture";
  }
  if (!d.draw && stock - usedStock(d) > 0) return "draw";
  if (d.draw && !d.draw_capture && choiceOf(d.draw, drawCaptureMonths(d))?.two) return "draw_capture";
  return "done";
}

function tapCard(id) {
  if (busy) return;
  const d = state.draft;
  const s = step();
  const card = CARD[id];
  if (s === "play") {
    if (card.kind === "bonus") d.bonus = id;
    else d.play = id;
  } else if (s === "shake" || s === "bomb") {
    const list = (d[s] = d[s] || []);
    if (list.includes(id)) list.splice(list.indexOf(id), 1);
    else if (!list.length || monthOf(list[0]) === card.month) list.push(id);
  } else if (s === "shake_play") {
    d.play = id;
  } else if (s === "capture") {
    d.capture = id;
  } else if (s === "extra_flip" || s === "draw") {
    if (card.kind === "bonus") (d.bonus_flipped = d.bonus_flipped || []).push(id);
    else if (s === "extra_flip") d.play = id;
    else d.draw = id;
  } else if (s === "draw_capture") {
    d.draw_capture = id;
  }
  // two alike cards to choose from: the first, without asking
  if (d.play && !d.capture && choiceOf(d.play, captureMonths())?.auto) d.capture = choiceOf(d.play, captureMonths()).auto;
  state.error = null;
  state.undone = null;
  finishIfDone();
}

function finishIfDone() {
  if (step() !== "done") {
    store();
    app.rerender();
    return;
  }
  const d = state.draft;
  const move = { player: table().next.player };
  if (table().next.expects === "flip" || d.mode === "flip" || asked()?.flip_due === true) move.flip = true;
  const drawn = d.draw ? choiceOf(d.draw, drawCaptureMonths(d)) : null;
  if (!d.draw_capture && drawn?.auto) d.draw_capture = drawn.auto;
  for (const key of ["bonus", "shake", "bomb", "play", "capture", "bonus_flipped", "draw", "draw_capture"]) {
    if (d[key] && (!Array.isArray(d[key]) || d[key].length)) move[key] = d[key];
  }
  submit(move);
}

// --- views ------------------------------------------------------------------------------------------

function setupView() {
  const k = knobs();
  const deck = deckIds(k.bonus_cards || []);
  const regular = state.layout.filter((id) => CARD[id].kind !== "bonus").length;
  const total = layoutSize();
  const select = (key, options, value, onchange) => h("select", { "data-key": key, onchange: (e) => onchange(e.target.value) },
    options.map(([v, label]) => h("option", { value: v, selected: String(v) === String(value) }, label)));
  const changed = (typed = false) => { store(); if (typed) app.later(); else app.rerender(); };
  const house = (key, value) => {
    const preset = app.knobs[state.preset] || {};
    if (JSON.stringify(preset[key]) === JSON.stringify(value)) delete state.knobs[key];
    else state.knobs[key] = value;
  };
  return h("section", { class: "live setup" },
    h("h2", {}, t("setup")),
    h("details", { class: "panel rules", open: state.rulesOpen === true },
      h("summary", { "data-key": "live-rules", onclick: (e) => { state.rulesOpen = !e.target.closest("details").open; store(); } },
        t("rules"), ": ", t("preset." + state.preset), h("small", { class: "summary-more" }, " · ", players().join(", "), " · ", t("stake_short", { n: number(state.stake) }))),
      field(t("players_label"), select("live-players", [[2, t("players_n", { n: 2 })], [3, t("players_n", { n: 3 })]], state.count, async (v) => {
        state.count = Number(v);
        state.preset = `korean-${state.count}p`;
        state.knobs = {};
        state.layout = [];
        await reach(() => presetKnobs(state.preset));
        changed(true);
      })),
      field(t("preset_label"), select("live-preset", presetsFor(state.count).map((p) => [p.name, t("preset." + p.name)]), state.preset, async (v) => {
        state.preset = v;
        state.knobs = {};
        await reach(() => presetKnobs(v));
        state.layout = state.layout.filter((id) => CARD[id].kind !== "bonus" || (knobs().bonus_cards || []).includes(id));
        changed(true);
      })),
      h("fieldset", { class: "bonus" }, h("legend", {}, t("bonus_label")),
        bonusCards().map((id) => h("label", { class: "check-label" },
          h("input", { type: "checkbox", "data-key": "live-bonus-" + id, checked: (k.bonus_cards || []).includes(id), onchange: (e) => {
            const set = new Set(k.bonus_cards || []);
            if (e.target.checked) set.add(id);
            else set.delete(id);
            house("bonus_cards", bonusCards().filter((b) => set.has(b)));
            state.layout = state.layout.filter((c) => CARD[c].kind !== "bonus" || set.has(c));
            changed(true);
          } }), " ", id === "bonus-3" ? cardName(id) : `${cardName(id)} (${id.slice(-1)})`))),
      field(t("bonus_hand_label"), select("live-bonus-hand", ["replace", "extra-flip"].map((v) => [v, t("bonus_hand." + v)]), k.bonus_from_hand, (v) => {
        house("bonus_from_hand", v);
        changed(true);
      })),
      field(t("stake_label"), h("input", { type: "number", inputmode: "numeric", min: 0, value: state.stake, "data-key": "live-stake", onchange: (e) => { state.stake = Math.max(0, Math.floor(Number(e.target.value) || 0)); changed(true); } })),
      players().map((name, seat) => field(seat === 0 ? t("name_first", { n: seat + 1 }) : t("name_label", { n: seat + 1 }), h("input", { type: "text", value: name, maxlength: 20, autocomplete: "off", "data-key": "live-name-" + seat, onchange: (e) => { state.names[seat] = e.target.value.trim() || t("default_names")[seat]; changed(true); } }))),
      field(t("nagari_before"), h("input", { type: "number", inputmode: "numeric", min: 0, max: 20, value: carry(), "data-key": "live-nagari", onchange: (e) => {
        state.nagari_streak = Math.max(0, Math.min(20, Math.floor(Number(e.target.value) || 0)));
        changed(true);
      } }))),
    // one line's height whatever it says, so the grid below never moves
    h("p", { class: state.layoutFull ? "prompt setup-prompt full" : "prompt setup-prompt", "aria-live": "polite", "data-full": state.layoutFull ? "" : null },
      state.layoutFull ? t("layout_full", { total }) : t("layout_prompt", { n: regular, total })),
    deckGrid(deck, t("layout"), (id) => ({ pressed: state.layout.includes(id), key: "deal" }), (id) => {
      const at = state.layout.indexOf(id);
      state.layoutFull = false;
      if (at >= 0) state.layout.splice(at, 1);
      else if (regular < total || CARD[id].kind === "bonus") state.layout.push(id);
      else state.layoutFull = true; // a card too many: said, not ignored
      changed();
    }),
    h("p", { class: "hint" }, t("layout_bonus")),
    chongtongPanel(select, changed),
    state.error ? problemView({ body: state.error }) : null,
    h("div", { class: "submit-bar" },
      h("button", { type: "button", class: "primary submit", "data-key": "live-start", disabled: regular !== total, onclick: startGame }, t("start"), regular === total ? null : ` (${regular}/${total})`)));
}

// A player dealt four cards of one month shows them: the hand is over at once when the rules pay a chongtong.
function chongtongPanel(select, changed) {
  const ct = state.chongtong || (state.chongtong = { seat: -1, month: 1 });
  const months = t("months");
  return h("fieldset", { class: "panel chongtong" }, h("legend", {}, t("chongtong_label")),
    field(t("chongtong_who"), select("chongtong-seat", [[-1, t("chongtong_nobody")], ...players().map((name, seat) => [seat, name])], ct.seat, (v) => {
      ct.seat = Number(v);
      changed();
    })),
    ct.seat >= 0 ? field(t("chongtong_month"), select("chongtong-month", months.slice(1).map((name, i) => [i + 1, `${t("month_n", { n: i + 1 })} ${name}`]), ct.month, (v) => {
      ct.month = Number(v);
      changed();
    })) : null);
}

// The scores in one line of fixed height, in sight above the grid: each player, whose turn it is, the stock.
function strip() {
  const answer = state.answer;
  const { next, stock } = table();
  return h("section", { class: "strip", "aria-label": t("scoreboard") },
    answer.players.map((p) => h("span", { class: next && next.player === p.id ? "strip-player next" : "strip-player", "data-strip": p.id },
      h("b", {}, p.id), " ", h("span", { class: "score" }, t("score_of", { n: p.score.total })),
      p.go_count ? [" ", h("span", { class: "badge" }, t("go_count", { n: p.go_count }))] : null)),
    h("span", { class: "strip-stock" }, t("stock_left", { n: stock })),
    state.pending ? h("span", { class: "strip-pending", "data-pending": state.pending }, t("pending_n", { n: state.pending })) : null);
}

function scoreboard() {
  const answer = state.answer;
  return h("section", { class: "scoreboard", "aria-labelledby": "scoreboard-title" },
    h("h3", { id: "scoreboard-title" }, t("captures")),
    answer.players.map((p) => {
      const c = countsOf(p.captured);
      const isNext = answer.next && answer.next.player === p.id;
      return h("article", { class: isNext ? "player next" : "player", "data-player": p.id, "data-score": p.score.total },
        h("h3", {}, p.id, " ", h("span", { class: "score" }, t("score_of", { n: p.score.total })),
          p.go_count ? h("span", { class: "badge" }, t("go_count", { n: p.go_count })) : null,
          p.shakes ? h("span", { class: "badge" }, `${t("rule.shake")} ${p.shakes}`) : null,
          p.bombs ? h("span", { class: "badge" }, `${t("rule.bomb")} ${p.bombs}`) : null,
          p.ppuk_count ? h("span", { class: "badge" }, `${t("event.ppuk")} ${p.ppuk_count}`) : null),
        h("p", { class: "counts" }, t("counts", c), answer.status === "finished" ? null : ` · ${t("hand_size", { n: p.hand_size ?? "?" })}`),
        p.captured.length ? chips(p.captured, t("captured_of", { p: p.id })) : null,
        p.hand && p.hand.length ? h("p", { class: "known-hand", "data-known-hand": p.hand.join(" ") }, t("hand_known"), ": ", chips(p.hand)) : null);
    }));
}

function prompt(s, who) {
  const d = state.draft;
  const keys = {
    play: d.bonus ? "turn_bonus" : "turn_play",
    shake: "turn_shake",
    shake_play: "turn_shake_play",
    bomb: "turn_bomb",
    capture: "turn_capture",
    extra_flip: (d.bonus_flipped || []).length ? "turn_draw_again" : "turn_extra_flip",
    draw: table().next.expects === "flip" || d.mode === "flip" || asked()?.flip_due === true ? "turn_flip" : (d.bonus_flipped || []).length ? "turn_draw_again" : "turn_draw",
    draw_capture: "turn_draw_capture",
    call: "turn_call",
    chongtong: "turn_chongtong",
    shodang: "turn_shodang",
    declare: "turn_declare",
  };
  const card = s === "capture" ? cardName(d.play) : s === "draw_capture" ? cardName(d.draw) : "";
  return t(keys[s], { p: who, card });
}

// The multipliers a payment carries, in a few words: "피박 ×2 · 흔들기 ×2".
function factorsOf(payment) {
  const rows = payment.checks ? payment.checks.filter((c) => c.applied) : payment.factors || [];
  return rows.filter((c) => c.factor !== 1).map((c) => (c.factor ? `${t("rule." + c.rule)} ×${c.factor}` : `${t("rule." + c.rule)}: ${t("pays_nothing")}`)).join(" · ");
}

// What a stop pays now and what a go risks: in the grid's place while the decision is due.
function callInfo(next) {
  const stop = next.if_stop || state.probe;
  const go = next.if_go; // the engine's count and what a go risks, said (RULES.md 8)
  return h("div", { class: "call" },
    stop ? h("div", { class: "if-stop", "data-source": next.if_stop ? "if_stop" : "probe" }, h("h3", {}, t("if_stop")),
      stop.payments.map((p) => h("p", { class: "if-stop-payment", "data-from": p.from, "data-points": p.points, "data-amount": p.amount },
        h("b", {}, t("pays", { from: p.from, to: p.to }), " ", t("points", { n: number(p.points) }), " · ", t("money", { n: number(p.amount) })),
        factorsOf(p) ? h("small", { class: "factors" }, " (", factorsOf(p), ")") : null))) : null,
    h("div", { class: "if-go-box" }, h("h3", {}, t("if_go_title")),
      h("p", { class: "if-go", "data-go-count": go.go_count }, go.reason)));
}

// The player who may declare the cup (국진) an animal or junk now, as the engine says (RULES.md 3).
const cupHolder = () => asked()?.cup_holder ?? null;

// The flip turns a bomb left the player to move, as the engine says them.
const flipTurns = () => asked()?.flip_turns ?? 0;

// The row of tools under the prompt: one fixed height, whatever the step offers.
function tools(s, next, blocked) {
  const d = state.draft;
  const mode = (name) => () => { d.mode = name; state.undone = null; store(); app.rerender(); };
  const button = (key, label, onclick, cls = null) => h("button", { type: "button", "data-key": key, class: cls, onclick }, label);
  if (blocked) return blocked;
  if (state.error && state.error.move) return [];
  if (s === "call") {
    return [button("call-go", t("go_btn"), () => submit({ player: next.player, call: "go" }), "primary"),
      button("call-stop", t("stop_btn"), () => submit({ player: next.player, call: "stop" }), "primary")];
  }
  if (s === "chongtong") {
    return [button("chongtong-win", t("chongtong_win_btn"), () => submit({ player: next.player, chongtong_choice: "win" }), "primary"),
      button("chongtong-play-on", t("chongtong_play_on_btn"), () => submit({ player: next.player, chongtong_choice: "play-on" }), "primary")];
  }
  if (s === "shodang") {
    return [button("shodang-accept", t("describe.shodang_accept"), () => submit({ player: next.player, shodang: "accept" }), "primary"),
      button("shodang-decline", t("describe.shodang_decline"), () => submit({ player: next.player, shodang: "decline" }), "primary")];
  }
  if (s === "capture" || s === "draw_capture") {
    const choice = s === "capture" ? choiceOf(d.play, captureMonths()) : choiceOf(d.draw, drawCaptureMonths(d));
    return choice.two.map((id) => h("button", { type: "button", class: "choice-card", "data-choice": id, "data-key": "choice-" + id, onclick: () => tapCard(id) },
      chip(id), h("span", {}, cardName(id))));
  }
  if (s === "declare") {
    const holder = cupHolder();
    return ["animal", "junk"].map((as) => button("declare-" + as, `${holder} · ${t("describe.cup_" + as)}`, () => submit({ player: holder, sep_animal_as: as })));
  }
  if (s !== "play" || next.expects !== "play") return [];
  // Each tool is offered where the engine says it may be used (RULES.md 5 is the engine's): at the turn's
  // start, or after a bonus card from hand what the engine says may follow one (`bonus_from_hand.then`).
  const may = (what) => !d.bonus || bonusThen(what);
  const some = (key) => (asked()?.[key] || []).length > 0;
  return [
    may("shake") && some("shake_months") ? button("shake", t("shake_btn"), mode("shake")) : null,
    may("bomb") && (some("bomb_months") || some("two_card_bomb_months")) ? button("bomb", t("bomb_btn"), mode("bomb")) : null,
    // a bomb leaves flip turns (폭탄 피): at a later turn the player may only flip instead of playing a card
    may("flip") && flipTurns() > 0 ? button("flip-only", t("flip_btn", { n: flipTurns() }), mode("flip")) : null,
    // only bonus cards were left in hand: the turn is the bonus card alone, then the flip
    d.bonus && bonusThen("nothing") ? button("no-play", t("no_play_btn"), () => { d.nothing = true; finishIfDone(); }) : null,
    may("declare") && cupHolder() ? button("declare", t("declare_btn"), mode("declare")) : null,
    // RULES.md 8.7: the engine offers a shodang where this player may call it, before playing
    may("shodang") && next.shodang ? button("shodang", t("shodang_btn"), () => submit({ player: next.player, shodang: "call" })) : null,
  ];
}

function entryPanel() {
  const { next, over } = table();
  const d = state.draft;
  let s = null;
  let promptText;
  let picker;
  let blocked = null;
  const refused = state.error && state.error.move ? state.error : null;
  const late = state.error && !state.error.move && state.pending ? state.error : null;
  if (state.callDue) {
    // a go/stop was due before an entry made offline: asked for at its place
    s = "call";
    promptText = t("call_due", { p: state.answer.next.player, n: state.callDue.index });
    picker = callInfo(state.answer.next);
    blocked = [h("button", { type: "button", class: "primary", "data-key": "call-go", onclick: () => answerCallDue("go") }, t("go_btn")),
      h("button", { type: "button", class: "primary", "data-key": "call-stop", onclick: () => answerCallDue("stop") }, t("stop_btn"))];
  } else if (late) {
    promptText = t("bad_move", { n: late.move_index + 1 });
    picker = h("div", { class: "problem refused", role: "alert", "data-code": late.code || "", "data-move-index": late.move_index },
      h("strong", {}, t("bad_move", { n: late.move_index + 1 })), ": ", describeMove(state.moves[late.move_index]), h("br"), late.detail);
    blocked = [h("button", { type: "button", "data-key": "drop-from", onclick: () => dropFrom(late.move_index) }, t("drop_from", { n: late.move_index + 1 }))];
  } else if (over || !next) {
    promptText = t("waiting_for_service");
    picker = h("p", { class: "hint" }, t("waiting_hint"));
  } else {
    s = step();
    promptText = prompt(s, next.player);
    if (refused) {
      // refused: said in the grid's place (nothing above the tapped card moves); undo or the button goes on
      picker = h("div", { class: "problem refused", role: "alert", "data-code": refused.code || "", "data-move-index": refused.move_index },
        h("button", { type: "button", "data-key": "refused-ok", onclick: () => { state.error = null; store(); app.rerender(); } }, t("enter_again")),
        h("p", {}, h("strong", {}, t("bad_move", { n: refused.move_index + 1 })), ": ", describeMove(refused.move)),
        h("p", {}, refused.detail));
    } else if (s === "call") {
      picker = callInfo(next);
    } else {
      // every card keeps its place in the grid; those already seen (or, for a flip, shown in a hand) are
      // greyed, and so are those the step cannot take (a shake of a month on the layout)
      const seen = seenCards();
      const inHand = s === "draw" || s === "extra_flip" ? new Set(d.shake || []) : new Set();
      for (const p of state.answer.players) {
        // cards known to be in a hand (shown for a shake or a chongtong) are not flipped, nor played by another
        if (s === "draw" || s === "extra_flip" || p.id !== next.player) for (const id of p.hand || []) inHand.add(id);
      }
      const playable = s === "play" ? legalCards() : null;
      const unfit = (id) => {
        const month = monthOf(id);
        if (s === "shake") return said("shake_months", month) !== true;
        if (s === "bomb") return said("bomb_months", month) !== true && said("two_card_bomb_months", month) !== true;
        if (playable) return !playable.has(id);
        if (s === "shake_play") return !(d.shake || []).includes(id);
        if (s === "capture" || s === "draw_capture" || s === "declare" || s === "chongtong" || s === "shodang") return true;
        return false;
      };
      picker = deckGrid(deckIds(knobs().bonus_cards || []), t("unseen"), (id) => ({
        key: "turn",
        disabled: seen.has(id) || inHand.has(id) || unfit(id),
        note: seen.has(id) ? t("seen") : null,
        pressed: s === "shake" || s === "bomb" ? (d[s] || []).includes(id) : s === "shake_play" ? false : undefined,
      }), tapCard);
    }
  }
  return h("section", { class: "entry", "aria-labelledby": "turn-prompt", "aria-busy": busy ? "true" : null },
    h("div", { class: "turn-head" },
      justHappened(),
      h("div", { class: "prompt-row" },
        h("p", { class: "prompt", id: "turn-prompt", "data-step": s || (state.callDue ? "call" : "wait"), "aria-live": "polite", tabindex: -1, "data-focus-fallback": "" }, promptText),
        h("button", { type: "button", class: "undo", "data-key": "undo", onclick: undo }, t("undo"))),
      h("div", { class: "tools", role: "group", "aria-label": t("tools") }, tools(s, next, blocked))),
    picker);
}

// The turn just entered (or what undo took back), in one line above the prompt, with what it caused (ppuk,
// chok, a steal ...): the table checks it at once (the whole sentences are in the history below).
function justHappened() {
  if (state.undone) return h("p", { class: "just undone", role: "status", "data-undone": "" }, state.undone);
  const last = state.moves.length - 1;
  if (last < 0) return h("p", { class: "just" });
  const unchecked = last >= checked();
  // an event the move says itself (its bonus card, shake, bomb) is not said twice (trial r7 D8: the line was cut)
  const events = unchecked ? [] : state.answer.events.filter((e) => e.move_index === last && e.type !== "declare" && !state.moves[last][e.type]);
  return h("p", { class: "just", role: "status", "data-move-index": last },
    events.map((e) => [h("b", { "data-type": e.type }, t("event." + e.type)), " · "]),
    t("just_now"), " ", describeMove(state.moves[last], { short: true }),
    unchecked ? h("small", {}, ` (${t("pending")})`) : null);
}

// After an entry: when the grid gives way to something short (the go/stop decision, a refusal, the ruling),
// that is brought into sight; the grid itself keeps its scroll position from turn to turn.
let reveal = false;
export function afterRender() {
  if (!reveal || state.phase !== "play") return;
  reveal = false;
  const panel = document.querySelector(".live .finished, .live .entry");
  if (!panel || panel.querySelector(".deck")) return;
  const head = panel.querySelector(".turn-head");
  const shown = panel.querySelector(".turn-head + *") || panel;
  const r = shown.getBoundingClientRect();
  const below = head ? head.getBoundingClientRect().bottom : document.querySelector(".top").getBoundingClientRect().bottom;
  if (r.top < below - 1 || r.top > innerHeight - 120) panel.scrollIntoView({ block: "start" });
}

function finishedPanel() {
  const answer = state.answer;
  const redeal = answer.settlement.outcome === "redeal";
  const extra = h("div", { class: "actions" },
    redeal
      ? h("p", { class: "hint" }, t("redeal_not_in_ledger"))
      : state.added && state.added.ok
        ? h("p", { role: "status", class: "added" }, t("added_to_ledger", { hand: handName(state.added.hand) }), " ", h("a", { href: "#ledger", class: "link-button", "data-key": "see-ledger" }, t("see_ledger")))
        : h("button", { type: "button", class: "primary", "data-key": "live-ledger", onclick: () => {
            state.added = addHand({ players: players(), preset: state.preset, knobs: state.knobs, stake: state.stake, replay: logOf() });
            store();
            app.rerender();
          } }, t("add_to_ledger")),
    state.added && !state.added.ok ? h("p", { role: "alert", class: "problem" }, t("ledger_mismatch")) : null);
  return h("div", { class: "finished" },
    h("div", { class: "turn-head" }, justHappened(),
      h("div", { class: "prompt-row" }, h("p", { class: "prompt" }, t("game_over")),
        h("button", { type: "button", class: "undo", "data-key": "undo", onclick: undo }, t("undo")))),
    rulingView(answer.settlement, (x) => x, extra));
}

function newGame() {
  const answer = state.answer;
  const done = answer.status === "finished" && !state.pending;
  const saved = done && ((state.added && state.added.ok) || answer.settlement.outcome === "redeal");
  // nothing is erased without a question: a game in progress, or a finished one not in the ledger
  if (!saved && !window.confirm(t(done ? "confirm_new_unsaved" : "confirm_new"))) return;
  const keep = { count: state.count, names: state.names, preset: state.preset, knobs: state.knobs, stake: state.stake, rulesOpen: state.rulesOpen };
  state = { ...fresh(), ...keep };
  store();
  app.rerender();
  window.scrollTo(0, 0);
}

function playView() {
  const answer = state.answer;
  const late = state.error && !state.error.move && state.pending ? state.error : null;
  const bad = state.error && state.error.move_index !== undefined && state.error.move_index < state.moves.length ? state.error : null;
  const other = state.error && !state.error.move && !bad ? state.error : null;
  const finished = answer.status === "finished" && !state.pending;
  return h("section", { class: "live play" },
    strip(),
    finished ? finishedPanel() : entryPanel(),
    other ? problemView({ body: other }) : null,
    answer.nagari_carry ? h("p", { class: "carry", "data-carry": answer.nagari_carry.streak }, carrySaid(answer.nagari_carry)) : null,
    h("section", { class: "layout-now" }, h("h3", {}, t("layout")), chips(table().layout, t("layout"))),
    scoreboard(),
    answer.instant_payments.length ? h("section", { class: "instant" }, h("h3", {}, t("instant_payments")),
      h("ul", {}, answer.instant_payments.map((p) => h("li", {}, t("pays", { from: p.from, to: p.to }), " ", t("points", { n: p.points }), " · ", p.reason)))) : null,
    h("div", { class: "actions" },
      h("button", { type: "button", "data-key": "export", onclick: exportLog }, t("export")),
      h("button", { type: "button", "data-key": "to-check", onclick: () => { setLog(logOf()); app.go("check"); } }, t("to_check")),
      h("button", { type: "button", "data-key": "new-game", onclick: newGame }, t("new_game"))),
    h("section", { class: "history" }, h("h3", {}, t("events")), eventsView(answer.events)),
    h("section", { class: "history" }, h("h3", {}, t("moves")), movesView(state.moves, late || bad, checked())));
}

export function hasGame() {
  return state.phase === "play" && Boolean(state.answer);
}

offers.live = { hasGame, logOf }; // the check offers to load this game's log (check.js does not import this module)

export function view() {
  if (state.phase !== "play" || !state.answer) return setupView();
  return playView();
}
