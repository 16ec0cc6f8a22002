// What the page works out by itself while the service cannot be reached, so a live game goes on: the table
// of the service's last answer carried forward through the moves entered since, which it has not checked
// yet. Only what the next entry needs: the layout (which capture a card has to choose), the stock, each
// hand's size and whose turn it is. Scores, steals and go/stop decisions are the service's to say: they come
// with its answer, when the moves are checked in order.

import { CARD } from "./cards.js";

export const monthOf = (id) => CARD[id].month;

// What a turn does to the layout (RULES.md 5): a card meets the cards of its month there; a pair is taken, a
// stack of three is taken whole, two leave a choice; the flipped card of the played card's month makes a
// ppuk over one card (the three stay), a chok over none and a ttadak over two (all taken).
function turnOnLayout(layout, move) {
  const take = (ids) => { for (const id of ids) layout.splice(layout.indexOf(id), 1); };
  const meet = (card, choice) => {
    const here = layout.filter((id) => monthOf(id) === monthOf(card));
    if (!here.length) layout.push(card);
    else if (here.length === 2) take([choice && here.includes(choice) ? choice : here[0]]);
    else take(here);
  };
  const draw = move.draw;
  if (move.bomb) take(layout.filter((id) => monthOf(id) === monthOf(move.bomb[0])));
  if (move.play) {
    const here = layout.filter((id) => monthOf(id) === monthOf(move.play));
    if (draw && monthOf(draw) === monthOf(move.play)) {
      if (here.length === 1) layout.push(move.play, draw);
      else take(here);
      return;
    }
    meet(move.play, move.capture);
  }
  if (draw) meet(draw, move.draw_capture);
}

// The answer's table after the unchecked moves: {layout, stock, next: {player, expects} | null, over}. The
// next player is the next in order who still holds a card; a go passes the turn on, a stop ends the hand.
// `bonusFromHand`: the knob (RULES.md 5), for what a bonus card from hand takes from the stock.
export function carryForward(answer, unchecked, bonusFromHand) {
  const layout = [...answer.layout];
  let stock = answer.stock_left;
  const hands = Object.fromEntries(answer.players.map((p) => [p.id, p.hand_size ?? 0]));
  let next = answer.next ? { player: answer.next.player, expects: answer.next.expects === "flip" ? "flip" : "play" } : null;
  let over = answer.status === "finished";
  const ids = answer.players.map((p) => p.id);
  const after = (id) => {
    for (let step = 1; step <= ids.length; step++) {
      const other = ids[(ids.indexOf(id) + step) % ids.length];
      if (hands[other] > 0) return { player: other, expects: "play" };
    }
    return null;
  };
  for (const move of unchecked) {
    if (move.sep_animal_as && !move.play && !move.bonus && !move.bomb && !move.flip) continue; // a declaration
    if (move.call) {
      next = move.call === "go" ? after(move.player) : null;
      over = move.call === "stop";
      continue;
    }
    const extra = move.bonus && bonusFromHand === "extra-flip";
    const fromHand = (move.play && !extra ? 1 : 0) + (move.bomb ? 3 : 0) + (move.bonus ? 1 : 0);
    const intoHand = move.bonus && !extra && stock > 0 ? 1 : 0;
    hands[move.player] = Math.max(0, hands[move.player] - fromHand + intoHand);
    stock -= intoHand + (extra && move.play ? 1 : 0) + (move.draw ? 1 : 0) + (move.bonus_flipped || []).length;
    turnOnLayout(layout, move);
    next = after(move.player);
  }
  return { layout, stock: Math.max(0, stock), next, over: over || !next };
}
