// The quick entry: a hand told as the table tells it, "A stopped at 9 with 3 brights, B has 6 junk and no
// bright", instead of every card tapped. Per player a row of counts (points for the winner; brights, with
// the rain bright among them or not; animals, ribbons, junk units; where the cup went), sent as the
// `declared` counts of POST /v1/settle (API.md "Additions in v1.2"). Settle offers it beside the card grid,
// the ledger takes its next hand from it.
//
// Every player's counts are on the screen at once (no tab to switch: a tap saved per player), each count a
// number field (one tap and the digits); a field's change is drawn once the tap that ended the typing is over.

import { h } from "./dom.js";
import { t } from "./words.js";

export const COUNTS = ["brights", "animals", "ribbons", "junk_units"];
// the most of each a deck can hold (the service refuses counts that cannot be, with the rule set's own limits)
const MOST = { points: 999, brights: 5, animals: 10, ribbons: 10, junk_units: 40 };

export function freshCounts() {
  return [0, 1, 2].map(() => ({ points: 0, brights: 0, rain: false, animals: 0, ribbons: 0, junk_units: 0, cup: "none" }));
}

// A player's counts as the `declared` of /v1/settle: `points` only for the winner.
export function declared(c, isWinner) {
  const out = { brights: c.brights, rain: c.brights > 0 && c.rain, animals: c.animals, ribbons: c.ribbons, junk_units: c.junk_units, cup: c.cup };
  if (isWinner) out.points = c.points;
  return out;
}

// The counts said in one line (a ledger row, a ruling's note).
export function countsText(c) {
  return t("counts", { b: c.brights, a: c.animals, r: c.ribbons, j: c.junk_units });
}

function number(key, label, value, onchange, { disabled = false } = {}) {
  return h("label", { class: "qcell" + (disabled ? " off" : "") },
    h("span", { class: "qlabel" }, label),
    disabled
      // the winner's points only: a loser's cell keeps its place (nothing moves when the winner changes)
      ? h("span", { class: "qnone", "data-test": key }, "–")
      : h("input", {
          type: "number", inputmode: "numeric", min: 0, max: MOST[key.split("-")[1]] ?? 99, value, class: "count", "data-key": key, "data-test": key,
          onchange: (e) => onchange(Math.max(0, Math.floor(Number(e.target.value) || 0))),
        }));
}

// One player's row of counts. `seat` keys the controls (q-brights-0 ...); `isWinner` true, false, or null while
// no winner is chosen yet (every points field open then: the table may say the points before the winner);
// `knobs` the rule set in use (the cup counted as double junk only where the rules allow it); `changed(typed)`
// stores and draws.
export function countsRow(counts, seat, name, isWinner, knobs, changed) {
  const c = counts[seat];
  const set = (key) => (v) => { c[key] = v; changed(true); };
  const cups = ["none", "animal", ...(knobs.sep_animal === "animal" ? [] : ["junk"])];
  return h("div", { class: "qrow", role: "group", "aria-label": t("counts_of", { p: name }), "data-seat": seat },
    h("div", { class: "qcells" },
      number(`q-points-${seat}`, t("q.points"), c.points, set("points"), { disabled: isWinner === false }),
      number(`q-brights-${seat}`, t("q.brights"), c.brights, set("brights")),
      number(`q-animals-${seat}`, t("q.animals"), c.animals, set("animals")),
      number(`q-ribbons-${seat}`, t("q.ribbons"), c.ribbons, set("ribbons")),
      number(`q-junk_units-${seat}`, t("q.junk_units"), c.junk_units, set("junk_units"))),
    h("div", { class: "qmore" },
      h("label", { class: "check-label" },
        h("input", { type: "checkbox", "data-key": `q-rain-${seat}`, checked: c.rain, onchange: (e) => { c.rain = e.target.checked; changed(); } }),
        " ", t("q.rain")),
      h("span", { class: "segments qcup", role: "radiogroup", "aria-label": t("q.cup_of", { p: name }) },
        h("span", { class: "qlabel", "aria-hidden": "true" }, t("q.cup_short")),
        cups.map((where) => h("label", { class: "radio-label segment" },
          h("input", { type: "radio", name: `q-cup-${seat}`, "data-key": `q-cup-${seat}-${where}`, checked: c.cup === where, onchange: () => {
            c.cup = where;
            // the cup is counted among the animals, or as two junk units: the counts take it in at once
            if (where === "animal") c.animals = Math.max(c.animals, 1);
            if (where === "junk") c.junk_units = Math.max(c.junk_units, 2);
            changed();
          } }),
          " ", t("q.cup." + where))))));
}
