// A move log in words, and the events of a replay: shared by the live game and the log check.

import { h } from "./dom.js";
import { CARD, cardName, cardNames, chips, monthOf } from "./cards.js";
import { t } from "./words.js";

// `short`: a shake or a bomb said by its month (the cards are of one month), for a line that must fit a 360 px
// phone (trial r7 D8: "흔들기 국화 띠, 국화 피, 국화 …" was cut); the history keeps the cards.
export function describeMove(move, { short = false } = {}) {
  const parts = [];
  const month = (ids) => (short && ids.length && ids.every((id) => CARD[id]) && new Set(ids.map(monthOf)).size === 1 ? t("months")[monthOf(ids[0])] : cardNames(ids));
  const d = (key, params) => parts.push(t("describe." + key, params));
  if (move.call) d("call", { call: t("event." + move.call) });
  // the particle is part of the word (국진을 열끗으로, 쌍피로): not a noun put into a "{as}로" frame
  if (move.sep_animal_as) d(move.sep_animal_as === "junk" ? "cup_junk" : "cup_animal");
  // RULES.md 4.3, 8.7: the chongtong choice at the deal; a shodang called, accepted or declined
  if (move.chongtong_choice) d(move.chongtong_choice === "win" ? "chongtong_win" : "chongtong_play_on");
  if (move.shodang) d("shodang_" + move.shodang);
  if (move.bonus) d("bonus", { card: cardName(move.bonus) });
  if (move.shake) d("shake", { cards: month(move.shake) });
  if (move.bomb) d("bomb", { cards: month(move.bomb) });
  if (move.flip) d("flip");
  if (move.play) d("play", { card: cardName(move.play) });
  if (move.capture) d("capture", { card: cardName(move.capture) });
  if (move.bonus_flipped) d("bonus_flipped", { cards: cardNames(move.bonus_flipped) });
  if (move.draw) d("draw", { card: cardName(move.draw) });
  if (move.draw_capture) d("capture", { card: cardName(move.draw_capture) });
  return `${move.player}: ${parts.join(", ")}`;
}

// The moves, numbered from 1; the illegal one marked, with the reason under it.
export function movesView(moves, bad, pendingFrom = moves.length) {
  return h("ol", { class: "moves", "aria-label": t("moves") },
    moves.map((move, i) => {
      const isBad = bad && bad.move_index === i;
      return h("li", {
        class: isBad ? "move bad" : i >= pendingFrom ? "move pending" : "move",
        "data-move-index": i,
        "aria-current": isBad ? "true" : null,
      },
      h("span", { class: "move-n" }, t("move_n", { n: i + 1 })), " ", describeMove(move),
      i >= pendingFrom ? h("small", {}, ` (${t("pending")})`) : null,
      isBad ? h("p", { class: "why", role: "alert" }, h("strong", {}, t("bad_move", { n: i + 1 })), ": ", bad.detail) : null);
    }));
}

// The events of a hand: the live game shows the newest first (what just happened, on top); a checked log
// reads in order (`inOrder`), each event with the number of the move it came with.
export function eventsView(events, { inOrder = false } = {}) {
  return h("ol", { class: "events", "aria-label": t("events"), reversed: !inOrder },
    (inOrder ? events : [...events].reverse()).map((e) => h("li", { class: "event", "data-type": e.type, "data-move-index": e.move_index ?? "" },
      inOrder && Number.isInteger(e.move_index) ? h("span", { class: "move-n" }, t("move_n", { n: e.move_index + 1 }), " ") : null,
      h("b", { class: "event-type" }, t("event." + e.type)), " ",
      // the service's sentence names the player already; the name is added only where it does not
      e.player && !String(e.detail || "").includes(e.player) ? h("span", {}, e.player, ": ") : null,
      h("span", { class: "detail" }, e.detail),
      e.cards ? chips(e.cards) : null)));
}
