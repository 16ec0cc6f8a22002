// The quick entry: a hand told as the table tells it, "A stopped at 9 with 3 brights, B has 6 junk and no
// bright", instead of every card tapped. Per player a row of counts (points for the winner; brights, with
// the rain bright among them or not; animals, ribbons, junk units; where the cup went), sent as the
// `declared` counts of POST /v1/settle (API.md "Additions in v1.2"). Settle offers it beside the card grid,
// the ledger takes its next hand from it.
//
// A count nobody said is blank, not 0: a loser with nothing said at all (or only zeros) would be a loser who
// captured nothing, who pays nothing (RULES.md's empty-loser rule), so the page asks before it sends that (`unsaid`);
// a loser's blank that a check rests on (their brights when the winner scores brights ...) is asked too
// (`blanks`), and every other blank is left out of what is sent.
// The cup is asked apart, the way players say it (열끗 / 쌍피), and no count field holds it: the animals and
// junk fields count what their labels say, and the page adds the cup where the player put it.

import { h } from "./dom.js";
import { t } from "./words.js";

export const COUNTS = ["brights", "animals", "ribbons", "junk_units"];
// the most of each a deck can hold (the service refuses counts that cannot be, with the rule set's own limits)
const MOST = { points: 999, brights: 5, animals: 10, ribbons: 10, junk_units: 40 };
export const SEATS = 5;

const blank = () => ({ points: null, brights: null, rain: false, animals: null, ribbons: null, junk_units: null, cup: "none", empty: false });

export function freshCounts() {
  return Array.from({ length: SEATS }, blank);
}

// Counts kept by an older page (zeros by default, the cup inside the fields): made this page's, and as many
// rows as seats.
export function upgradeCounts(counts) {
  const rows = (counts || []).map((c) => ({ ...blank(), ...c }));
  while (rows.length < SEATS) rows.push(blank());
  return rows;
}

const said = (v) => v !== null && v !== undefined && v !== "";
const n = (v) => (said(v) ? Number(v) : 0);

// A loser the service would read as one who captured nothing, though the table has not said so: nothing said
// at all, or only zeros ("피 0") with a count left blank and no cup (trial r8 N1: "피 0" alone made a loser
// pay nothing under the empty-loser rule). Not once confirmed as a player who captured nothing.
export function unsaid(c) {
  if (c.empty) return false;
  if (!COUNTS.some((k) => said(c[k]))) return true;
  return c.cup === "none" && COUNTS.every((k) => n(c[k]) === 0) && COUNTS.some((k) => !said(c[k]));
}

// Anything said for this player (a count, the points, the cup, or "captured nothing"): what a change of who
// sits out would lose.
export function entered(c) {
  return c.empty || COUNTS.some((k) => said(c[k])) || said(c.points) || c.cup !== "none";
}

// A player's counts as the `declared` of /v1/settle: `points` only for the winner; the cup added where it went.
// Only what was said is sent (a blank is left out, never a 0 nobody said): the page asks first about every
// blank a check rests on (`blanks`), so a count left out cannot change the ruling.
export function declared(c, isWinner, implied = {}) {
  const out = { cup: c.cup };
  const put = (key, value) => { if (value !== null) out[key] = value; };
  const cupAnimal = c.cup === "animal" ? 1 : 0;
  const cupJunk = c.cup === "junk" ? 2 : 0;
  const brights = said(c.brights) ? Number(c.brights) : implied.brights ?? null;
  put("brights", brights);
  if (brights) out.rain = !!c.rain;
  put("animals", said(c.animals) ? Number(c.animals) + cupAnimal : cupAnimal || null);
  put("ribbons", said(c.ribbons) ? Number(c.ribbons) : null);
  put("junk_units", said(c.junk_units) ? Number(c.junk_units) + cupJunk : cupJunk || null);
  if (isWinner) out.points = n(c.points);
  return out;
}

const BRIGHTS_IN_A_DECK = 5;

// What the other players' counts imply for a loser's blank: every bright of the deck said to be elsewhere
// leaves none for this one (철수 4 and 영희 1: 민수 holds none). Nothing else is implied.
export function impliedFor(counts, seat, playing) {
  const others = playing.filter((s) => s !== seat);
  const elsewhere = others.reduce((sum, s) => sum + n(counts[s].brights), 0);
  return !said(counts[seat].brights) && others.every((s) => said(counts[s].brights) || counts[s].empty) && elsewhere >= BRIGHTS_IN_A_DECK
    ? { brights: 0 } : {};
}

// A loser's blanks that a check of this ruling rests on (RULES.md 8.2): the brights when the winner scores
// brights (gwangbak), the junk when the winner scores junk (pibak), the animals under meongbak when the winner
// scores animals. A loser of whom nothing was said is asked apart (`unsaid`); a blank the others' counts
// imply is not asked.
export function blanks(counts, seat, winner, knobs, playing) {
  const c = counts[seat];
  const w = counts[winner];
  if (!w || seat === winner || c.empty || unsaid(c)) return [];
  const implied = impliedFor(counts, seat, playing);
  const out = [];
  if (n(w.brights) >= 3 && !said(c.brights) && implied.brights === undefined) out.push("brights");
  if (knobs.meongbak && n(w.animals) + (w.cup === "animal" ? 1 : 0) >= 5 && !said(c.animals) && c.cup !== "animal") out.push("animals");
  if (n(w.junk_units) + (w.cup === "junk" ? 2 : 0) >= 10 && !said(c.junk_units)) out.push("junk_units");
  return out;
}

// The counts said in one line (a ledger row, a ruling's note): what was said, the cup apart.
export function countsText(c) {
  if (c.empty) return t("q.empty");
  const parts = COUNTS.filter((k) => said(c[k])).map((k) => `${t("q." + k)} ${c[k]}`);
  if (c.cup !== "none") parts.push(`${t("q.cup_short")} ${t("q.cup." + c.cup)}`);
  return parts.join(" · ");
}

function number(key, label, value, onchange, { disabled = false } = {}) {
  return h("label", { class: "qcell" + (disabled ? " off" : "") },
    h("span", { class: "qlabel" }, label),
    disabled
      // the winner's points only: a loser's cell keeps its place (nothing moves when the winner changes)
      ? h("span", { class: "qnone", "data-test": key }, "–")
      : h("input", {
          type: "number", inputmode: "numeric", min: 0, max: MOST[key.split("-")[1]] ?? 99, value: said(value) ? value : "", placeholder: "–",
          class: "count", "data-key": key, "data-test": key,
          onchange: (e) => onchange(e.target.value === "" ? null : Math.max(0, Math.floor(Number(e.target.value) || 0))),
        }));
}

// One player's row of counts. `seat` keys the controls (q-brights-0 ...); `isWinner` true, false, or null while
// no winner is chosen yet (every points field open then: the table may say the points before the winner);
// `knobs` the rule set in use (the cup counted as double junk only where the rules allow it); `changed(typed)`
// stores and draws. `prefix` keeps two entries on one page apart.
export function countsRow(counts, seat, name, isWinner, knobs, changed, prefix = "q", extra = null) {
  const c = counts[seat];
  const set = (key) => (v) => { c[key] = v; c.empty = false; changed(true); };
  const cups = ["none", "animal", ...(knobs.sep_animal === "animal" ? [] : ["junk"])];
  return h("div", { class: "qrow", role: "group", "aria-label": t("counts_of", { p: name }), "data-seat": seat },
    h("div", { class: "qcells" },
      number(`${prefix}-points-${seat}`, t("q.points"), c.points, set("points"), { disabled: isWinner === false }),
      number(`${prefix}-brights-${seat}`, t("q.brights"), c.brights, set("brights")),
      number(`${prefix}-animals-${seat}`, t("q.animals"), c.animals, set("animals")),
      number(`${prefix}-ribbons-${seat}`, t("q.ribbons"), c.ribbons, set("ribbons")),
      number(`${prefix}-junk_units-${seat}`, t("q.junk_units"), c.junk_units, set("junk_units"))),
    h("div", { class: "qmore" },
      // the rain bright changes a score only among exactly three brights (RULES.md 2): asked then, in this row
      n(c.brights) === 3 || c.rain ? h("label", { class: "check-label" },
        h("input", { type: "checkbox", "data-key": `${prefix}-rain-${seat}`, checked: c.rain, onchange: (e) => { c.rain = e.target.checked; changed(); } }),
        " ", t("q.rain")) : null,
      h("span", { class: "segments qcup", role: "radiogroup", "aria-label": t("q.cup_of", { p: name }) },
        h("span", { class: "qlabel", "aria-hidden": "true" }, t("q.cup_short")),
        cups.map((where) => h("label", { class: "radio-label segment" },
          h("input", { type: "radio", name: `${prefix}-cup-${seat}`, "data-key": `${prefix}-cup-${seat}-${where}`, checked: c.cup === where, onchange: () => {
            c.cup = where;
            c.empty = false;
            changed();
          } }),
          " ", t("q.cup." + where)))),
      extra));
}

// The question for a loser's blanks a check rests on: "민수: 광 장수를 말하지 않았습니다. 하나도 없나요?" None
// writes 0 in them (said now); no puts the cursor in the first of them.
export function askBlanks(counts, seat, name, keys, changed, prefix = "q") {
  const what = keys.map((k) => t("q." + k)).join(" · ");
  return h("div", { class: "ask-empty ask-blank", role: "alert", "data-seat": seat },
    h("p", {}, t("q.ask_blank", { p: name, what })),
    h("div", { class: "actions" },
      h("button", { type: "button", "data-key": `${prefix}-blank-none-${seat}`, onclick: () => {
        for (const k of keys) counts[seat][k] = 0;
        changed();
      } }, t("q.blank_none")),
      h("button", { type: "button", "data-key": `${prefix}-blank-count-${seat}`, onclick: () => {
        document.querySelector(`[data-key="${prefix}-${keys[0]}-${seat}"]`)?.focus();
      } }, t("q.empty_no"))));
}

// The question for a loser of whom nothing was said: "did X capture nothing?" Yes writes it down (the
// empty-loser rule then applies, said in the ruling); no puts the cursor in X's first count, or does `onNo`
// (the cards entry: X's cards to tap).
export function askEmpty(counts, seat, name, changed, prefix = "q", onNo = null) {
  return h("div", { class: "ask-empty", role: "alert", "data-seat": seat },
    h("p", {}, t("q.ask_empty", { p: name })),
    h("div", { class: "actions" },
      h("button", { type: "button", "data-key": `${prefix}-empty-yes-${seat}`, onclick: () => { counts[seat].empty = true; changed(); } }, t("q.empty_yes")),
      h("button", { type: "button", "data-key": `${prefix}-empty-no-${seat}`, onclick: () => {
        if (onNo) return onNo();
        document.querySelector(`[data-key="${prefix}-junk_units-${seat}"]`)?.focus();
      } }, t("q.empty_no"))));
}
