// The deck as the service describes it (GET /v1/cards), drawn with CSS: the month and its flower colour,
// and a mark for the kind a player looks for (광, 비광, 열, 국진, 홍단/청단/초단, 피, 쌍피, 투피/쓰리피).

import { h } from "./dom.js";
import { t, language } from "./words.js";

export const CARDS = [];
export const CARD = {};

// A card's month (null: a bonus card), from the catalog the service sent (GET /v1/cards).
export const monthOf = (id) => CARD[id].month;

export function setCatalog(cards) {
  CARDS.splice(0, CARDS.length, ...cards);
  for (const card of cards) CARD[card.id] = card;
}

export function cardName(id) {
  const card = CARD[id];
  return card ? card.names[language()] || card.names.en : id;
}

export function cardNames(ids) {
  return ids.map(cardName).join(", ");
}

const RIBBON_SET = ["hongdan", "cheongdan", "chodan"];

// The CSS classes and the mark of a card: what a player recognises at a glance.
function look(card) {
  const tags = card.tags || [];
  const classes = ["k-" + card.kind, card.month ? "m" + card.month : "m0"];
  let mark = t("mark." + card.kind);
  if (card.kind === "bright" && tags.includes("rain")) {
    classes.push("t-rain");
    mark = t("mark.rain");
  } else if (card.kind === "animal" && tags.includes("cup")) {
    classes.push("t-cup");
    mark = t("mark.cup");
  } else if (card.kind === "animal" && tags.includes("godori")) {
    classes.push("t-godori");
  } else if (card.kind === "ribbon") {
    const set = RIBBON_SET.find((s) => tags.includes(s));
    if (set) {
      classes.push("t-" + set);
      mark = t("mark." + set);
    }
  } else if (card.kind === "junk" && card.junk_units === 2) {
    classes.push("t-double");
    mark = t("mark.double");
  } else if (card.kind === "bonus") {
    mark = t(card.junk_units === 3 ? "mark.bonus3" : "mark.bonus2");
  }
  return { classes, mark };
}

function face(card) {
  const { mark } = look(card);
  return [
    h("span", { class: "c-month", "aria-hidden": "true" }, card.month ? String(card.month) : "★"),
    h("span", { class: "c-mark", "aria-hidden": "true" }, mark),
  ];
}

// A tappable card. state: {pressed: bool|undefined, disabled, note (added to the accessible name), key}.
export function cardButton(id, state, onTap) {
  const card = CARD[id];
  const { classes } = look(card);
  if (state.pressed) classes.push("pressed");
  if (state.owner !== undefined) classes.push("owner-" + state.owner);
  const label = state.note ? `${cardName(id)}, ${state.note}` : cardName(id);
  // the name is the button's own (visually hidden) text, so what a screen reader says is what it shows
  return h("button", {
    type: "button",
    class: "card " + classes.join(" "),
    "data-card": id,
    "data-key": (state.key || "card") + "-" + id,
    "aria-pressed": state.pressed === undefined ? null : String(Boolean(state.pressed)),
    disabled: Boolean(state.disabled),
    onclick: () => onTap(id),
  }, h("span", { class: "sr" }, label), face(card));
}

// A small card that is only looked at (captures, the layout, a move).
export function chip(id) {
  const card = CARD[id];
  if (!card) return h("span", { class: "chip" }, id);
  return h("span", { class: "chip card " + look(card).classes.join(" "), role: "img", "aria-label": cardName(id), "data-chip": id }, face(card));
}

export function chips(ids, label) {
  return h("span", { class: "chips", role: "list", "aria-label": label || null },
    ids.map((id) => h("span", { role: "listitem" }, chip(id))));
}

// Cards grouped by month rows: a month label and its cards, then the bonus cards in play.
export function deckGrid(ids, label, state, onTap) {
  const rows = [];
  for (let month = 1; month <= 12; month++) {
    const here = ids.filter((id) => CARD[id].month === month);
    if (!here.length) continue;
    rows.push(h("div", { class: "month-row" },
      h("span", { class: "month-label", "aria-hidden": "true" }, h("b", {}, String(month)), " ", t("months")[month]),
      here.map((id) => cardButton(id, state(id), onTap))));
  }
  const bonus = ids.filter((id) => CARD[id].kind === "bonus");
  if (bonus.length) {
    rows.push(h("div", { class: "month-row" },
      h("span", { class: "month-label", "aria-hidden": "true" }, t("bonus_row")),
      bonus.map((id) => cardButton(id, state(id), onTap))));
  }
  return h("div", { class: "deck", role: "group", "aria-label": label }, rows);
}

// The deck of a rule set: the 48 month cards and the bonus cards it uses.
export function deckIds(bonusCards) {
  return CARDS.filter((c) => c.kind !== "bonus" || (bonusCards || []).includes(c.id)).map((c) => c.id);
}

export function countsOf(ids) {
  const out = { b: 0, a: 0, r: 0, j: 0 };
  for (const id of ids) {
    const card = CARD[id];
    if (!card) continue;
    if (card.kind === "bright") out.b++;
    else if (card.kind === "animal") out.a++;
    else if (card.kind === "ribbon") out.r++;
    else out.j += card.junk_units;
  }
  return out;
}
