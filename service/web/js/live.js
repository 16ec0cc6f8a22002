// Flow 2, follow a live game (a physical game, hands hidden): the layout at the deal, then each turn the card
// played and the card flipped. The whole log is replayed by POST /v1/replay after every entry: the answer
// says whose turn it is, what happened, every player's captures and score, and at a go/stop decision what a
// stop pays now. The page asks for a capture choice only when two cards of the month lie on the layout.

import { h, field } from "./dom.js";
import { post, Problem } from "./api.js";
import { app, presetKnobs, presetsFor, reach } from "./app.js";
import { CARD, CARDS, chips, deckGrid, deckIds, countsOf, cardName } from "./cards.js";
import { addHand, ledgerContext } from "./ledger.js";
import { describeMove, eventsView, movesView } from "./log.js";
import { rulingView, problemView } from "./ruling.js";
import { setLog } from "./check.js";
import { load, save } from "./store.js";
import { t, number } from "./words.js";

const LAYOUT_SIZE = { 2: 8, 3: 6 };
let state = null;
// A replay is on its way: taps wait for it, so a double tap on the flipped card cannot become the next
// player's card before the service has even answered.
let busy = false;
// Set by an entry: the next render brings the turn's panel into view (a step can shrink the page under it).
let reveal = false;

function fresh() {
  return {
    phase: "setup",
    count: 2,
    names: t("default_names").slice(0, 3),
    preset: "korean-2p",
    stake: 100,
    nagari_streak: null, // null: the ledger's carry when the ledger has these players
    layout: [],
    chongtong: { seat: -1, month: 1 }, // a player dealt four of a month shows them (RULES.md 4)
    moves: [],
    pending: 0,
    draft: {},
    answer: null,
    probe: null,
    error: null,
    added: null,
  };
}

function store() {
  save("live", state);
}

export function init() {
  state = load("live", fresh);
}

const players = () => state.names.slice(0, state.count);
const knobs = () => app.knobs[state.preset] || {};

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
  return { rules: state.preset, players: players(), deal, moves: state.moves, nagari_streak: carry(), stake: state.stake };
}

// Replay the log (plus one new move); the answer replaces the state only when the service accepts it.
async function replay(moves) {
  try {
    const answer = await reach(() => post("/v1/replay", { ...logOf(), moves }));
    return answer ? { answer } : { offline: true };
  } catch (error) {
    if (error instanceof Problem) return { problem: error.body };
    throw error;
  }
}

// The same, with the entry closed meanwhile: a tap while the service answers is not a second move.
async function replayBusy(moves) {
  busy = true;
  try {
    return await replay(moves);
  } finally {
    busy = false;
  }
}

async function probeStop() {
  // an older service has no next.if_stop: a replay of the log with the stop call gives the same settlement
  const next = state.answer && state.answer.next;
  state.probe = null;
  if (!next || next.expects !== "call" || next.if_stop) return;
  const result = await replay([...state.moves, { player: next.player, call: "stop" }]);
  if (result.answer) state.probe = result.answer.settlement;
}

async function accept(result, moves) {
  if (result.answer) {
    state.moves = moves;
    state.answer = result.answer;
    state.pending = 0;
    state.error = null;
    await probeStop();
  } else if (result.problem) {
    state.error = result.problem;
  }
}

async function submit(move) {
  if (busy) return;
  busy = true;
  document.querySelector(".entry")?.setAttribute("aria-busy", "true");
  state.draft = {};
  const moves = [...state.moves, move];
  const result = await replayBusy(moves);
  if (result.offline) {
    state.moves = moves; // kept: checked when the service is back
    state.pending += 1;
  } else if (result.problem && result.problem.move_index === moves.length - 1) {
    state.error = { ...result.problem, move }; // refused: shown in words, not added
  } else {
    await accept(result, moves);
  }
  reveal = true;
  store();
  app.rerender();
}

// After a reload: moves entered while the service was unreachable are checked at once.
export function resume() {
  if (state.phase === "play" && state.pending) retry();
}

export async function retry() {
  if (state.phase !== "play") return;
  const result = await replay(state.moves);
  if (result.answer) await accept(result, state.moves);
  else if (result.problem) {
    state.pending = 0;
    state.error = result.problem;
  }
  store();
  app.rerender();
}

// The game's sentences (events, rulings, the go/stop reasons), again in the page's new language.
export async function relanguage() {
  if (state.phase !== "play" || state.pending || busy) return;
  const result = await replay(state.moves);
  if (!result.answer) return;
  state.answer = result.answer;
  await probeStop();
  store();
  app.rerender();
}

async function undo() {
  if (busy) return;
  reveal = true;
  if (Object.keys(state.draft).length) {
    state.draft = {};
  } else if (state.error && state.error.move) {
    state.error = null;
  } else if (state.moves.length) {
    const moves = state.moves.slice(0, -1);
    state.pending = Math.max(0, state.pending - 1);
    const result = await replayBusy(moves);
    state.moves = moves;
    if (result.answer) {
      state.answer = result.answer;
      state.error = null;
      await probeStop();
    } else if (result.problem) state.error = result.problem;
    state.added = null;
  } else {
    state.phase = "setup";
    state.answer = null;
    state.error = null;
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
    state.phase = "play";
    state.error = null;
    reveal = "top";
  } else if (result.problem) state.error = result.problem;
  store();
  app.rerender();
}

function exportLog() {
  const blob = new Blob([JSON.stringify(logOf(), null, 1)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: t("download_name") });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// --- what the log has shown: cards that can still be played or flipped -------------------------------

function seenCards() {
  const seen = new Set(state.layout);
  for (const m of [...state.moves, state.draft]) {
    for (const key of ["play", "draw", "bonus"]) if (m[key]) seen.add(m[key]);
    for (const key of ["bomb", "bonus_flipped"]) for (const id of m[key] || []) seen.add(id);
  }
  return seen;
}

function layoutOfMonth(month) {
  return (state.answer ? state.answer.layout : []).filter((id) => CARD[id].month === month);
}

// The step the current turn is at, from what has been entered so far.
function step() {
  const next = state.answer.next;
  const d = state.draft;
  if (next.expects === "call") return "call";
  if (next.expects !== "flip" && d.mode !== "flip") {
    if (d.mode === "shake" && (d.shake || []).length < 3) return "shake";
    if (d.mode === "shake" && !d.play) return "shake_play";
    if (d.mode === "bomb" && (d.bomb || []).length < 3) return "bomb";
    if (!d.play && !d.bomb) return "play";
    if (d.play && !d.capture && layoutOfMonth(CARD[d.play].month).length === 2) return "capture";
  }
  const used = (d.bonus_flipped || []).length + (d.bonus && knobs().bonus_from_hand === "replace" ? 1 : 0);
  if (!d.draw && state.answer.stock_left - used > 0) return "draw";
  if (d.draw) {
    const played = d.play || (d.bomb && d.bomb[0]);
    const month = CARD[d.draw].month;
    if (!d.draw_capture && (!played || CARD[played].month !== month) && layoutOfMonth(month).length === 2) return "draw_capture";
  }
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
    else if (!list.length || CARD[list[0]].month === card.month) list.push(id);
  } else if (s === "shake_play") {
    d.play = id;
  } else if (s === "capture") {
    d.capture = id;
  } else if (s === "draw") {
    if (card.kind === "bonus") (d.bonus_flipped = d.bonus_flipped || []).push(id);
    else d.draw = id;
  } else if (s === "draw_capture") {
    d.draw_capture = id;
  }
  state.error = null;
  reveal = true;
  finishIfDone();
}

function finishIfDone() {
  if (step() !== "done") {
    store();
    app.rerender();
    return;
  }
  const d = state.draft;
  const move = { player: state.answer.next.player };
  if (state.answer.next.expects === "flip" || d.mode === "flip") move.flip = true;
  for (const key of ["bonus", "shake", "bomb", "play", "capture", "bonus_flipped", "draw", "draw_capture"]) {
    if (d[key] && (!Array.isArray(d[key]) || d[key].length)) move[key] = d[key];
  }
  submit(move);
}

// --- views ------------------------------------------------------------------------------------------

function setupView() {
  const deck = deckIds(knobs().bonus_cards || []);
  const regular = state.layout.filter((id) => CARD[id].kind !== "bonus").length;
  const total = LAYOUT_SIZE[state.count];
  const select = (key, options, value, onchange) => h("select", { "data-key": key, onchange: (e) => onchange(e.target.value) },
    options.map(([v, label]) => h("option", { value: v, selected: String(v) === String(value) }, label)));
  const changed = () => { store(); app.rerender(); };
  return h("section", { class: "live setup" },
    h("h2", {}, t("setup")),
    h("details", { class: "panel rules", open: true }, h("summary", {}, t("rules"), ": ", t("preset." + state.preset)),
      field(t("players_label"), select("live-players", [[2, t("players_n", { n: 2 })], [3, t("players_n", { n: 3 })]], state.count, async (v) => {
        state.count = Number(v);
        state.preset = `korean-${state.count}p`;
        state.layout = [];
        await reach(() => presetKnobs(state.preset));
        changed();
      })),
      field(t("preset_label"), select("live-preset", presetsFor(state.count).map((p) => [p.name, t("preset." + p.name)]), state.preset, async (v) => {
        state.preset = v;
        await reach(() => presetKnobs(v));
        state.layout = state.layout.filter((id) => CARD[id].kind !== "bonus" || (knobs().bonus_cards || []).includes(id));
        changed();
      })),
      field(t("stake_label"), h("input", { type: "number", inputmode: "numeric", min: 0, value: state.stake, "data-key": "live-stake", onchange: (e) => { state.stake = Math.max(0, Math.floor(Number(e.target.value) || 0)); changed(); } })),
      players().map((name, seat) => field(seat === 0 ? t("name_first", { n: seat + 1 }) : t("name_label", { n: seat + 1 }), h("input", { type: "text", value: name, maxlength: 20, autocomplete: "off", "data-key": "live-name-" + seat, onchange: (e) => { state.names[seat] = e.target.value.trim() || t("default_names")[seat]; changed(); } }))),
      field(t("nagari_before"), h("input", { type: "number", inputmode: "numeric", min: 0, max: 20, value: carry(), "data-key": "live-nagari", onchange: (e) => {
        state.nagari_streak = Math.max(0, Math.min(20, Math.floor(Number(e.target.value) || 0)));
        changed();
      } }))),
    h("p", { class: "prompt", "aria-live": "polite" }, t("layout_prompt", { n: regular, total })),
    h("p", { class: "hint" }, t("layout_bonus")),
    deckGrid(deck, t("layout"), (id) => ({ pressed: state.layout.includes(id), key: "deal" }), (id) => {
      const at = state.layout.indexOf(id);
      if (at >= 0) state.layout.splice(at, 1);
      else if (regular < total || CARD[id].kind === "bonus") state.layout.push(id);
      changed();
    }),
    chongtongPanel(select, changed),
    state.error ? problemView({ body: state.error }) : null,
    h("button", { type: "button", class: "primary", "data-key": "live-start", disabled: regular !== total, onclick: startGame }, t("start"), regular === total ? null : ` (${regular}/${total})`));
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

function scoreboard() {
  const answer = state.answer;
  return h("section", { class: "scoreboard", "aria-labelledby": "scoreboard-title" },
    h("h2", { class: "sr", id: "scoreboard-title" }, t("scoreboard")),
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
    draw: state.answer.next.expects === "flip" || d.mode === "flip" ? "turn_flip" : (d.bonus_flipped || []).length ? "turn_draw_again" : "turn_draw",
    draw_capture: "turn_draw_capture",
    call: "turn_call",
  };
  const card = s === "capture" ? cardName(d.play) : s === "draw_capture" ? cardName(d.draw) : "";
  return t(keys[s], { p: who, card });
}

// The multipliers a payment carries, in a few words: "피박 ×2 · 흔들기 ×2".
function factorsOf(payment) {
  const rows = payment.checks ? payment.checks.filter((c) => c.applied) : payment.factors || [];
  return rows.filter((c) => c.factor !== 1).map((c) => (c.factor ? `${t("rule." + c.rule)} ×${c.factor}` : `${t("rule." + c.rule)}: ${t("pays_nothing")}`)).join(" · ");
}

function callPanel(next) {
  const stop = next.if_stop || state.probe;
  const go = next.if_go;
  const goCount = go ? go.go_count : (state.answer.players.find((p) => p.id === next.player).go_count + 1);
  const gobakRisk = go ? go.gobak : knobs().gobak && knobs().gobak !== "none";
  return h("div", { class: "call" },
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-key": "call-go", onclick: () => submit({ player: next.player, call: "go" }) }, t("go_btn")),
      h("button", { type: "button", class: "primary", "data-key": "call-stop", onclick: () => submit({ player: next.player, call: "stop" }) }, t("stop_btn"))),
    stop ? h("div", { class: "if-stop", "data-source": next.if_stop ? "if_stop" : "probe" }, h("h3", {}, t("if_stop")),
      stop.payments.map((p) => h("p", { class: "if-stop-payment", "data-from": p.from, "data-points": p.points, "data-amount": p.amount },
        h("b", {}, t("pays", { from: p.from, to: p.to }), " ", t("points", { n: number(p.points) }), " · ", t("money", { n: number(p.amount) })),
        factorsOf(p) ? h("small", { class: "factors" }, " (", factorsOf(p), ")") : null))) : null,
    h("div", { class: "if-go-box" }, h("h3", {}, t("if_go_title")),
      h("p", { class: "if-go", "data-go-count": goCount }, go && go.reason ? go.reason : t(gobakRisk ? "if_go" : "if_go_safe", { n: goCount, p: next.player }))));
}

function entryPanel() {
  const answer = state.answer;
  const next = answer.next;
  if (state.pending) {
    return h("p", { class: "pending-note", role: "status" }, `${state.pending} ${t("pending")} `,
      h("button", { type: "button", "data-key": "retry-pending", onclick: retry }, t("retry")));
  }
  const s = step();
  const d = state.draft;
  // RULES.md 5: under bonus_from_hand replace, the card played after a bonus card may be shaken or bombed
  const afterBonus = !d.bonus || knobs().bonus_from_hand === "replace";
  const canShake = knobs().allow_shake && next.expects === "play" && !d.play && !d.mode && afterBonus;
  const canBomb = knobs().allow_bomb && next.expects === "play" && !d.play && !d.mode && afterBonus;
  // a bomb leaves flip turns (폭탄 피): at any later turn the player may only flip instead of playing a card
  const mover = answer.players.find((p) => p.id === next.player);
  const canFlip = next.expects === "play" && mover && mover.flip_turns > 0 && !d.play && !d.bonus && !d.mode;
  const drafted = Object.keys(d).length > 0;
  let picker = null;
  if (s === "call") picker = callPanel(next);
  else if (s === "capture" || s === "draw_capture") {
    const card = s === "capture" ? d.play : d.draw;
    const two = layoutOfMonth(CARD[card].month);
    picker = h("div", { class: "choice", role: "group", "aria-label": prompt(s, next.player) },
      two.map((id) => h("button", { type: "button", class: "choice-card", "data-choice": id, "data-key": "choice-" + id, onclick: () => tapCard(id) }, chips([id]), " ", cardName(id))));
  } else {
    // every card keeps its place in the grid; those already seen (or, for a flip, shown in a hand) are greyed
    const seen = seenCards();
    const shown = s === "draw" ? new Set(d.shake || []) : new Set();
    for (const p of state.answer.players) {
      // cards known to be in a hand (shown for a shake or a chongtong) are not flipped, nor played by another
      if (s === "draw" || p.id !== next.player) for (const id of p.hand || []) shown.add(id);
    }
    const ids = s === "shake_play" ? d.shake : deckIds(knobs().bonus_cards || []);
    picker = deckGrid(ids, t("unseen"), (id) => ({
      key: "turn",
      disabled: seen.has(id) || shown.has(id),
      note: seen.has(id) ? t("seen") : null,
      pressed: s === "shake" || s === "bomb" ? (d[s] || []).includes(id) : undefined,
    }), tapCard);
  }
  const mode = (name) => () => { d.mode = name; store(); app.rerender(); };
  return h("section", { class: "entry", "aria-labelledby": "turn-prompt" },
    // stays in sight under the header while the grid scrolls; the prompt takes the focus when the tapped
    // card goes away
    h("div", { class: "turn-head" }, justHappened(),
      h("p", { class: "prompt", id: "turn-prompt", "data-step": s, "aria-live": "polite", tabindex: -1, "data-focus-fallback": "" }, prompt(s, next.player))),
    canShake || canBomb || canFlip || drafted ? h("div", { class: "actions" },
      canShake ? h("button", { type: "button", "data-key": "shake", onclick: mode("shake") }, t("shake_btn")) : null,
      canBomb ? h("button", { type: "button", "data-key": "bomb", onclick: mode("bomb") }, t("bomb_btn")) : null,
      canFlip ? h("button", { type: "button", "data-key": "flip-only", onclick: mode("flip") }, t("flip_btn", { n: mover.flip_turns })) : null,
      drafted ? h("button", { type: "button", "data-key": "cancel-turn", onclick: () => { state.draft = {}; store(); app.rerender(); } }, t("cancel")) : null) : null,
    picker);
}

// The turn just entered, in words, with what it caused (ppuk, chok, a steal ...): the table checks it at
// once, above the prompt (the sentences are in the history below).
function justHappened() {
  const last = state.moves.length - state.pending - 1;
  if (last < 0 || !state.moves[last]) return null;
  const events = state.answer.events.filter((e) => e.move_index === last);
  return h("p", { class: "just", role: "status", "data-move-index": last },
    t("just_now"), " ", describeMove(state.moves[last]),
    events.map((e) => [" · ", h("b", { "data-type": e.type }, t("event." + e.type))]));
}

// After an entry the turn's panel (or a refusal) must be in sight: a step can shrink the page under the finger.
export function afterRender() {
  if (!reveal || state.phase !== "play") return;
  const how = reveal;
  reveal = false;
  if (how === "top") {
    window.scrollTo(0, 0);
    return;
  }
  const header = document.querySelector(".top");
  const top = header ? header.getBoundingClientRect().bottom : 0;
  const refused = document.querySelector(".live .refused");
  if (refused) {
    const r = refused.getBoundingClientRect();
    if (r.top < top || r.bottom > innerHeight) refused.scrollIntoView({ block: "start" });
    return;
  }
  const panel = document.querySelector(".live .entry, .live .finished");
  if (!panel) return;
  const r = panel.getBoundingClientRect();
  // the turn's head sticks under the header, so the entry panel needs only to be in sight; the ruling at the
  // end is read from its top
  const hidden = panel.classList.contains("finished") ? r.top < top : r.bottom < top + 160;
  if (hidden || r.top > innerHeight - 160) panel.scrollIntoView({ block: "start" });
}

function finishedPanel() {
  const answer = state.answer;
  const extra = h("div", { class: "actions" },
    state.added && state.added.ok
      ? h("p", { role: "status", class: "added" }, t("added_to_ledger", { n: state.added.hand }), " ", h("a", { href: "#ledger", "data-key": "see-ledger" }, t("see_ledger")))
      : h("button", { type: "button", class: "primary", "data-key": "live-ledger", onclick: () => {
          state.added = addHand({ players: players(), preset: state.preset, stake: state.stake, settlement: answer.settlement, instant_payments: answer.instant_payments });
          store();
          app.rerender();
        } }, t("add_to_ledger")),
    state.added && !state.added.ok ? h("p", { role: "alert" }, t("ledger_mismatch")) : null);
  return h("div", { class: "finished" }, justHappened(), h("p", { class: "prompt" }, t("game_over")), rulingView(answer.settlement, (x) => x, extra));
}

function playView() {
  const answer = state.answer;
  const bad = state.error && state.error.move_index !== undefined && state.error.move_index < state.moves.length ? state.error : null;
  const refused = state.error && state.error.move ? state.error : null;
  return h("section", { class: "live play" },
    h("p", { class: "stock" }, t("stock_left", { n: answer.stock_left })),
    scoreboard(),
    state.nagari_streak ? h("p", { class: "carry" }, t("carry", { n: state.nagari_streak })) : null,
    h("section", { class: "layout-now" }, h("h3", {}, t("layout")), chips(answer.layout, t("layout"))),
    refused ? h("div", { class: "problem refused", role: "alert", "data-code": refused.code || "", "data-move-index": refused.move_index },
      h("strong", {}, t("bad_move", { n: refused.move_index + 1 })), ": ", describeMove(refused.move), h("br"), refused.detail) : null,
    state.error && !refused && !bad ? problemView({ body: state.error }) : null,
    answer.status === "finished" ? finishedPanel() : entryPanel(),
    answer.instant_payments.length ? h("section", { class: "instant" }, h("h3", {}, t("instant_payments")),
      h("ul", {}, answer.instant_payments.map((p) => h("li", {}, t("pays", { from: p.from, to: p.to }), " ", t("points", { n: p.points }), " · ", p.reason)))) : null,
    h("div", { class: "actions" },
      h("button", { type: "button", "data-key": "undo", onclick: undo }, t("undo")),
      h("button", { type: "button", "data-key": "export", onclick: exportLog }, t("export")),
      h("button", { type: "button", "data-key": "to-check", onclick: () => { setLog(logOf()); app.go("check"); } }, t("to_check")),
      h("button", { type: "button", "data-key": "new-game", onclick: () => {
        if (answer.status !== "finished" && !window.confirm(t("confirm_new"))) return;
        const keep = { count: state.count, names: state.names, preset: state.preset, stake: state.stake };
        state = { ...fresh(), ...keep };
        store();
        app.rerender();
      } }, t("new_game"))),
    h("section", { class: "history" }, h("h3", {}, t("events")), eventsView(answer.events)),
    h("section", { class: "history" }, h("h3", {}, t("moves")), movesView(state.moves, bad, state.moves.length - state.pending)));
}

export function view() {
  if (state.phase !== "play" || !state.answer) return setupView();
  return playView();
}
