// The quick entry: a hand told as the table tells it, "A stopped at 9 with 3 brights, B has 6 junk and no
// bright", instead of every card tapped. Per player a row of counts (points for the winner; brights, with
// the rain bright among them or not; animals, ribbons, junk units; where the cup went), sent as the
// `declared` counts of POST /v1/settle (API.md "Additions in v1.2"). Settle offers it beside the card grid,
// the ledger takes its next hand from it.
//
// A count nobody said is blank, not 0: a loser with nothing said at all would be a loser who captured
// nothing, who pays nothing (RULES.md's empty-loser rule), so the page asks before it sends that (`unsaid`).
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

// Nothing said for this loser, and not confirmed as a player who captured nothing.
export function unsaid(c) {
  return !c.empty && !COUNTS.some((k) => said(c[k]));
}

// A player's counts as the `declared` of /v1/settle: `points` only for the winner; the cup added where it went.
export function declared(c, isWinner) {
  const out = {
    brights: n(c.brights), rain: n(c.brights) > 0 && c.rain,
    animals: n(c.animals) + (c.cup === "animal" ? 1 : 0),
    ribbons: n(c.ribbons),
    junk_units: n(c.junk_units) + (c.cup === "junk" ? 2 : 0),
    cup: c.cup,
  };
  if (isWinner) out.points = n(c.points);
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

// The question for a loser of whom nothing was said: "did X capture nothing?" Yes writes it down (the
// empty-loser rule then applies, said in the ruling); no puts the cursor in X's first count.
export function askEmpty(counts, seat, name, changed, prefix = "q") {
  return h("div", { class: "ask-empty", role: "alert", "data-seat": seat },
    h("p", {}, t("q.ask_empty", { p: name })),
    h("div", { class: "actions" },
      h("button", { type: "button", "data-key": `${prefix}-empty-yes-${seat}`, onclick: () => { counts[seat].empty = true; changed(); } }, t("q.empty_yes")),
      h("button", { type: "button", "data-key": `${prefix}-empty-no-${seat}`, onclick: () => {
        document.querySelector(`[data-key="${prefix}-junk_units-${seat}"]`)?.focus();
      } }, t("q.empty_no"))));
}
