// A settlement drawn for the table: who pays whom as a picture (losers -> winner with the amounts), each
// payment with every rule checked and why (the API's `checks`; its `factors` where an older service has no
// checks), the winner's combinations, and the service's explanation, in the page's language.

import { h, svg } from "./dom.js";
import { chips } from "./cards.js";
import { t, number } from "./words.js";

let pictures = 0;

function money(amount) {
  return t("money", { n: number(amount) });
}

// At most about 90 px of text: five Hangul syllables or nine Latin letters.
function short(name) {
  const chars = [...String(name)];
  const room = chars.some((c) => c.charCodeAt(0) > 0x2e7f) ? 5 : 9;
  return chars.length > room ? chars.slice(0, room - 1).join("") + "…" : name;
}

// What each person gets or pays in all for the hand: the answer's payments and its sale (each payer pays the
// seller the sale's amount), summed per person (bookkeeping, no rule of the game). In the order the picture
// names them: the winner, the losers, the seller.
export function netOf(settlement) {
  const net = new Map();
  const add = (who, v) => net.set(who, (net.get(who) || 0) + v);
  if (settlement.winner) add(settlement.winner, 0);
  for (const p of settlement.payments) {
    add(p.to, p.amount);
    add(p.from, -p.amount);
  }
  const sale = settlement.sale;
  if (sale && sale.amount > 0) {
    for (const payer of sale.payers) {
      add(sale.seller, sale.amount);
      add(payer, -sale.amount);
    }
  }
  return [...net.entries()];
}

const signedMoney = (v) => (v > 0 ? "+" : v < 0 ? "−" : "±") + money(Math.abs(v));
// as the ledger's cells say it (nothing moved: no sign)
const signed = (v) => (v > 0 ? "+" : v < 0 ? "−" : "") + money(Math.abs(v));

// Losers along the bottom, the winner on top, an arrow from each loser with what they pay; with a fourth who
// sold his brights (trial r5 D6), the seller on top at the right and a dashed arrow from each payer with the
// sale's amount; each person's net for the hand by his circle.
function picture(settlement, names) {
  const payments = settlement.payments;
  const sale = settlement.sale && settlement.sale.amount > 0 ? settlement.sale : null;
  const id = "arrow-" + ++pictures;
  const width = 320;
  const height = 236;
  const top = 58;
  const bottom = height - 58;
  const winner = { x: sale ? 118 : width / 2, y: top };
  const seller = sale ? { x: width - 44, y: top } : null;
  const losers = payments.map((p, i) => ({
    p,
    x: payments.length === 1 ? width / 2 : 60 + (i * (width - 120)) / (payments.length - 1),
    y: bottom,
  }));
  const at = new Map([[settlement.winner, winner], ...losers.map((l) => [l.p.from, l])]);
  if (sale) at.set(sale.seller, seller);
  const nets = netOf(settlement);
  const summary = [
    ...payments.map((p) => `${names(p.from)} → ${names(p.to)}: ${t("points", { n: p.points })}, ${money(p.amount)}`),
    ...(sale ? sale.payers.map((payer) => `${names(payer)} → ${names(sale.seller)}: ${t("gwang_palgi")}, ${money(sale.amount)}`) : []),
    ...nets.map(([who, v]) => t("net_of", { p: names(who), amount: signedMoney(v) })),
  ].join("; ");
  // a long name is cut to fit under its circle (the full one is in the label and in the rows below)
  const node = (x, y, text, cls) => [
    svg("circle", { cx: x, cy: y, r: 24, class: "node " + cls }),
    svg("text", { x, y: y + 5, "text-anchor": "middle", class: "node-name" }, short(text)),
  ];
  // an arrow between two circles, stopped at their edges
  const arrow = (from, to) => {
    const dx = to.x - from.x, dy = to.y - from.y, len = Math.hypot(dx, dy);
    return { sx: from.x + (dx / len) * 26, sy: from.y + (dy / len) * 26, ex: to.x - (dx / len) * 28, ey: to.y - (dy / len) * 28 };
  };
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "picture", role: "img", "aria-label": `${t("picture")}: ${summary}` },
    svg("defs", {}, svg("marker", { id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead" }))),
    losers.map(({ p, x, y }) => {
      const { sx, sy, ex, ey } = arrow({ x, y }, winner);
      const mx = (sx + ex) / 2, my = (sy + ey) / 2;
      const side = payments.length === 1 ? 12 : x < winner.x ? -24 : 24;
      const anchor = payments.length === 1 ? "start" : x < winner.x ? "end" : "start";
      return svg("g", { class: p.points ? "flow" : "flow zero", "data-from": p.from },
        svg("line", { x1: sx, y1: sy, x2: ex, y2: ey, "marker-end": `url(#${id})` }),
        svg("text", { x: mx + side, y: my - 4, "text-anchor": anchor, class: "flow-points" }, t("points", { n: number(p.points) })),
        svg("text", { x: mx + side, y: my + 14, "text-anchor": anchor, class: "flow-amount" }, money(p.amount)));
    }),
    // the sale: from each payer to the seller, its amount by the seller's end of the arrow
    sale ? sale.payers.filter((payer) => at.has(payer)).map((payer) => {
      const { sx, sy, ex, ey } = arrow(at.get(payer), seller);
      const lx = sx + (ex - sx) * 0.45, ly = sy + (ey - sy) * 0.45;
      return svg("g", { class: "sale-flow", "data-from": payer, "data-to": sale.seller, "data-amount": sale.amount },
        svg("line", { x1: sx, y1: sy, x2: ex, y2: ey, "marker-end": `url(#${id})` }),
        svg("text", { x: lx + 6, y: ly - 6, "text-anchor": "start", class: "flow-amount" }, money(sale.amount)));
    }) : null,
    node(winner.x, winner.y, names(settlement.winner), "winner"),
    losers.map(({ p, x, y }) => node(x, y, names(p.from), "loser")),
    sale ? node(seller.x, seller.y, names(sale.seller), "seller") : null,
    // each one's net: above a circle on top, under one at the bottom
    nets.filter(([who]) => at.has(who)).map(([who, v]) => {
      const { x, y } = at.get(who);
      return svg("text", { x, y: y < height / 2 ? y - 32 : y + 44, "text-anchor": "middle", class: v > 0 ? "net plus" : v < 0 ? "net minus" : "net", "data-net": who, "data-amount": v }, signedMoney(v));
    }),
  );
}

// What a check did to this payment, in a word: ×2, "pays nothing" (a share another covers), or applies.
function verdict(c) {
  if (!c.applied) return t("not_applied");
  if (c.factor === 0) return t("pays_nothing");
  if (c.factor === 1) return t("applied");
  return t("times", { n: c.factor });
}

// A check's reason without the note that it rests on counts said (the catalog's own sentence around it): the
// note is said once for the ruling, not on every line.
function plainReason(c) {
  if (!c.facts || !c.facts.declared) return c.reason;
  const [head, tail] = t("declared_reason").split("{reason}");
  let reason = c.reason;
  if (tail === undefined) return reason;
  if (head && reason.startsWith(head)) reason = reason.slice(head.length);
  if (tail && reason.endsWith(tail)) reason = reason.slice(0, -tail.length);
  return reason;
}

const restsOnCounts = (settlement) => settlement.payments.some((p) => (p.checks || []).some((c) => c.facts && c.facts.declared));

function checkList(payment) {
  const rows = payment.checks
    ? payment.checks.map((c) => ({ ...c, source: "checks" }))
    : payment.factors.map((f) => ({ ...f, applied: true, source: "factors" }));
  if (!rows.length) return null;
  return h("ul", { class: "checks", "aria-label": t("checks") },
    rows.map((c) => h("li", { class: "check " + (c.applied ? "applied" : "not-applied"), "data-rule": c.rule, "data-source": c.source },
      h("b", { class: "rule-name" }, t("rule." + c.rule)), " ",
      h("span", { class: "verdict" }, verdict(c)), " ",
      h("span", { class: "reason" }, plainReason(c)))));
}

export function headline(settlement, names) {
  // a nagari pays no hand, but a sale stands (RULES.md 4.5, 9): the answer's sale is paid, and said so
  if (settlement.outcome === "nagari") return settlement.sale && settlement.sale.amount > 0 ? t("nagari_sale") : t("nagari_result");
  // a redeal has no winner either: the deal does not count (RULES.md 4), it is not an instant win
  if (settlement.outcome === "redeal") return t("redeal_result");
  if (settlement.outcome !== "stop") return t("instant_win", { p: names(settlement.winner), o: t("outcome." + settlement.outcome) });
  // who won and the score, as a table says it; the gos and the base they took it to, as the answer counts them
  // (its go_count; an older service without one: the base alone where it differs)
  const said = { p: names(settlement.winner), s: settlement.score ? number(settlement.score.total) : "?", base: number(settlement.base_points) };
  if (settlement.go_count) return t("wins_go", { ...said, go: t("go_n", { n: settlement.go_count }) });
  return t(settlement.score && settlement.base_points !== settlement.score.total ? "wins_base" : "wins", said);
}

// The nagari carry of a hand after n nagari hands, as the rule set computes it (RULES.md 8): nagari_multiplier
// per hand, capped by nagari_cap (0: no cap). Said with its factor, never as "double".
// The carry as the engine counted it (a replay answer's `nagari_carry`).
export function carrySaid(carry) {
  return t(carry.capped ? "carry_capped" : "carry", { n: carry.streak, x: number(carry.factor) });
}

// A combination's cards; plain junk the person entered as a count (`counted`) is said as a count, not as
// the stand-in cards the page sent for it.
function comboCards(item, counted) {
  // a combination from counts the player declared names no cards
  const cards = item.cards || [];
  const tapped = cards.filter((id) => !counted.has(id));
  const byCount = cards.length - tapped.length;
  return [chips(tapped, t("combination." + item.combination)),
    byCount ? h("span", { class: "by-count", "data-count": byCount }, " ", t("junk_by_count", { n: byCount })) : null];
}

// The arithmetic of one payment, as a chain the table can follow: the score, the gos added (the base), each
// rule that multiplied, then the points and the money: "9점 + 1고 = 10 → 광박 ×2 → 20점 · 2,000원".
// `go`: the winner's go count where the caller knows it.
export function formulaText(settlement, p, go = null) {
  if (!settlement.score || settlement.outcome !== "stop") return null;
  const total = settlement.score.total;
  const base = settlement.base_points;
  let text = t("points", { n: number(total) });
  // a go adds a point each, and from the third on the go scheme may multiply as well: then the base is shown
  if (base !== total) text += go ? ` + ${t("go_n", { n: go })} ${base === total + go ? "=" : "→"} ${number(base)}` : ` → ${number(base)}`;
  const rows = (p.checks || p.factors || []).filter((c) => (c.applied ?? true) && c.factor > 1);
  for (const c of rows) text += ` → ${t("rule." + c.rule)} ×${c.factor}`;
  if (!p.points) return `${text} → ${t("pays_nothing")}`;
  return `${text} → ${t("points", { n: number(p.points) })} · ${money(p.amount)}`;
}

// The winner's score when it was said as counts: the points said, and the counts they came with (the service
// lists only what the counts alone imply, which reads as a wrong sum under the points said).
// `said`: the winner's declared counts as sent, where the caller has them: only the counts said are repeated
// (the answer counts a count nobody said as 0: "띠 0" was never said, trial r7 D6).
function declaredScore(settlement, said = null) {
  const c = settlement.score.counts || {};
  const kinds = ["brights", "animals", "ribbons", "junk_units"];
  const counts = said
    ? kinds.filter((k) => said[k] !== undefined && said[k] !== null).map((k) => `${t("q." + k)} ${number(c[k] ?? said[k])}`).join(" · ")
    : t("counts", { b: c.brights ?? 0, a: c.animals ?? 0, r: c.ribbons ?? 0, j: c.junk_units ?? 0 });
  return h("p", { class: "declared-score", "data-declared": "" },
    t("declared_score", { s: number(settlement.score.total) }), counts ? [" · ", counts] : null);
}

// `counted`: card ids that stand for junk entered as a count. `stale`: the entry changed since this ruling.
// `said`: the winner's declared counts as sent (only those are repeated under the score said).
export function rulingView(settlement, names = (x) => x, extra = null, { counted = new Set(), stale = false, go = null, said = null } = {}) {
  const items = settlement.score ? settlement.score.items : [];
  const byCounts = items.length > 0 && items.every((i) => !(i.cards || []).length);
  return h("section", { class: stale ? "ruling stale" : "ruling", "aria-labelledby": "ruling-title", "data-outcome": settlement.outcome },
    h("h2", { id: "ruling-title", tabindex: "-1" }, t("ruling"), " · ", headline(settlement, names)),
    stale ? h("p", { class: "stale-note", role: "status" }, t("stale")) : null,
    // what the table does next (into the ledger, the next hand) is in sight with the headline
    extra,
    // who pays whom first: that is what the table asked
    settlement.payments.length && settlement.winner ? picture(settlement, names) : null,
    byCounts ? declaredScore(settlement, said) : items.length ? h("ul", { class: "items" }, items.map((i) => h("li", { "data-combination": i.combination },
      h("b", {}, t("combination." + i.combination)), " ", t("points", { n: i.points }), " ", comboCards(i, counted)))) : null,
    restsOnCounts(settlement) ? h("p", { class: "declared-note", "data-declared-note": "" }, t("declared_note")) : null,
    settlement.payments.map((p) => h("section", { class: "payment", "data-from": p.from, "data-to": p.to, "data-points": p.points, "data-amount": p.amount },
      h("h3", {}, t("pays", { from: names(p.from), to: names(p.to) }), " ",
        h("span", { class: "pts" }, p.points ? t("points", { n: number(p.points) }) : t("pays_nothing")), " ",
        p.points ? h("span", { class: "amt" }, money(p.amount)) : null),
      formulaText(settlement, p, go) ? h("p", { class: "formula", "data-formula": "" }, formulaText(settlement, p, go)) : null,
      checkList(p),
      (p.covers || []).map((c) => h("p", { class: "covers" }, t("covers", { p: names(c.player), n: number(c.points) }))))),
    settlement.sale ? h("p", { class: "sale", "data-sale": settlement.sale.seller }, settlement.sale.reason) : null,
    settlement.explanation && settlement.explanation.length
      ? h("details", { class: "explanation", open: true }, h("summary", {}, t("explanation")),
          h("ol", {}, settlement.explanation.map((line) => h("li", {}, line))))
      : null);
}

// Field path -> messages of a request the service could not read, flattened: "deal.layout: ...".
function fieldErrors(errors, path = []) {
  if (Array.isArray(errors)) return [[path.join("."), errors.join(" ")]];
  if (!errors || typeof errors !== "object") return [[path.join("."), String(errors)]];
  return Object.entries(errors).flatMap(([key, value]) => fieldErrors(value, [...path, key]));
}

// A refusal: its title and detail, and the fields at fault. `fieldsOnly`: the page has said what is wrong in
// its own words already, and only the list of fields follows.
export function problemView(error, { fieldsOnly = false } = {}) {
  const body = error.body || {};
  const fields = body.errors ? fieldErrors(body.errors) : [];
  return h("div", { class: "problem", role: fieldsOnly ? null : "alert", "data-code": body.code || "" },
    fieldsOnly ? null : [h("strong", {}, body.title || t("error_title")), " ", body.detail || String(error.message || error)],
    fields.length ? h("ul", { class: "field-errors" }, fields.map(([path, why]) => h("li", { "data-field": path },
      path && path !== "_schema" ? [h("code", {}, path), ": "] : null, why))) : null);
}

// The rules that multiplied each loser's payment (피박 ×2, 나가리 배수 ×2 ...): why a row is more than its
// score. What multiplied every loser's payment alike (the winner's shake, his go, the carry) is said once,
// first and with no name; what differs is said loser by loser (one loser's gwangbak is not the other's):
// "흔들기 ×2; 철수: 피박 ×2", never the winner's shake under each loser's name (trial r7 D5).
export function multipliersText(settlement) {
  // a payment of nothing says the rule that waived it (the empty-loser rule, a share another covers)
  const rows = settlement.payments.map((p) => [p.from, (p.checks || p.factors || [])
    .filter((c) => (c.applied ?? true) && (c.factor > 1 || (!p.points && c.factor === 0)))
    // a share another covers says who (고박: 철수가 대신 냄), not only that this one pays nothing
    .map((c) => (c.factor === 0 ? `${t("rule." + c.rule)}: ${c.facts?.payer ? t("paid_by", { p: c.facts.payer }) : t("pays_nothing")}` : `${t("rule." + c.rule)} ×${c.factor}`))]);
  if (!rows.length) return "";
  const alike = rows.length > 1 ? rows[0][1].filter((x) => rows.every(([, said]) => said.includes(x))) : rows[0][1];
  const own = rows.map(([who, said]) => [who, said.filter((x) => !alike.includes(x))]).filter(([, said]) => said.length);
  return [alike.join(" · "), ...own.map(([who, said]) => `${who}: ${said.join(" · ")}`)].filter(Boolean).join("; ");
}

// Why a loser escaped a multiplier the table may expect: the check the rule set's house rule spared him of
// (the answer names the knob, `facts.spared_by`: a loser with no junk is not pibak), in the service's words
// (trial r7 D1: "지훈: 피 0" paid no ×2 without a word).
export function sparedText(settlement) {
  return settlement.payments.flatMap((p) => (p.checks || []).filter((c) => !c.applied && c.facts?.spared_by).map((c) => plainReason(c)));
}

// What was entered for a hand, as its struck row says it: who won with how many points, a nagari, a log.
// `said`: {winner, points} (null winner: a nagari) or {log: true}.
export function enteredSaid(said) {
  if (said.log) return t("entered_log");
  if (said.winner === null || said.winner === undefined) return t("nagari_result");
  return t("entered_win", { p: said.winner, s: said.points === null || said.points === undefined ? "" : t("points", { n: said.points }) });
}

// The row of a hand taken out, or of a corrected hand's old version: no number of a live hand ("–"), what it
// is, what was entered (struck), and the reason said. The ledger and the shared ledger draw it alike.
export function struckRow({ attrs = {}, number: numberCell, label, said, reason, old, people }) {
  return h("tr", { ...attrs, "data-removed": "", "data-superseded": old ? "" : null, class: "removed" }, numberCell,
    h("td", { colspan: people.length + 1 }, h("small", { class: "gone" }, old ? t("old_version", { hand: label }) : t("removed_hand")), " ",
      h("s", {}, said), " ",
      reason ? h("small", { class: "reason" }, t(old ? "fixed_because" : "removed_because", { why: reason })) : null));
}

// A sale's line in a ledger row (who sold, for how much, paid by whom).
export function saleText(sale) {
  if (!sale) return null;
  return t("sale_line", { p: sale.seller, n: number(sale.value), payers: sale.payers.join(", "), amount: t("money", { n: number(sale.amount) }) });
}

// A ruled hand of the ledger (and of a shared one): its row, the headline beside the amounts, and under it a
// line across the whole table with the rest (the dealer, the rules that multiplied, the sale, a correction),
// so that the amounts keep their columns on a phone (trial r5 D10: 13 lines in a 110 px column).
// `before`: the totals before the hand; `sitters`: who sat it out (their cell says so, unless they sold and
// the answer moved their money). `attrs` go on the row, `number` is its first cell, `note` and `reason` the
// correction's words, `details` the hand's number for the line under it.
export function rulingRows(hand, before, people, sitters, { attrs = {}, number: numberCell, note = null, reason = null, details }) {
  const s = hand.settlement;
  const why = multipliersText(s);
  const dealer = hand.dealer;
  // the dealer is said in one place in every row, first on the line under it ("선 민수"), whoever won (trial r7
  // D9: "선 민수 4점" before the headline when he won read unlike the other rows)
  const mark = (text) => h("span", { class: "dealer-mark", "data-dealer": dealer, title: t("dealer_of", { p: dealer }) }, text);
  const sale = s.sale && s.sale.value > 0 ? h("small", { class: "sale", "data-sale": s.sale.seller }, saleText(s.sale)) : null;
  const spared = sparedText(s).map((x) => h("small", { class: "spared", "data-spared": "" }, x));
  const more = [dealer ? mark(t("dealer_short", { p: dealer })) : null, why ? h("small", { class: "multipliers" }, why) : null, ...spared, sale, reason].filter(Boolean);
  const cell = (p) => {
    const moved = (hand.totals[p] ?? 0) - (before[p] ?? 0);
    const out = sitters.includes(p) && !moved;
    return h("td", { class: out ? "num sat-out" : "num", "data-player": p, "data-sat-out": out ? "" : null }, out ? t("sat_out_cell") : signed(moved));
  };
  const row = h("tr", { ...attrs, "data-outcome": s.outcome, class: [attrs.class, more.length ? "has-details" : null].filter(Boolean).join(" ") || null }, numberCell,
    h("td", { class: "what" }, note, headline(s, (x) => x)),
    people.map(cell));
  if (!more.length) return [row];
  return [row, h("tr", { class: "details" + (attrs.class ? " " + attrs.class : ""), "data-details": details },
    h("td", { colspan: people.length + 2 }, more.map((x, i) => [i ? " " : null, x])))];
}
