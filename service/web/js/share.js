// Sharing what the page shows with the others at the table: a link that opens the same thing on another phone
// (computed there by the service), the same as text for a group chat, and as a picture (PNG).
//
// The link forms are an interface phone apps may build too (docs/page-links.md):
//   /#/settle/<b64>   a /v1/settle body          /#/evening/<b64>   a /v1/evening body
//   /#/check/<b64>    a /v1/replay body (a text log: a JSON string)
// where <b64> is the base64url, without padding, of the UTF-8 JSON.

import { h } from "./dom.js";
import { post, postText, Problem } from "./api.js";
import { reach } from "./app.js";
import { enteredSaid, formulaText, rulingView, problemView, headline, netOf, rulingRows, struckRow } from "./ruling.js";
import { t, number, language, handName } from "./words.js";

export const KINDS = ["settle", "evening", "check"];

export function encode(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function decode(b64) {
  const text = atob(b64.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))));
}

export const linkOf = (kind, body) => `${location.origin}/#/${kind}/${encode(body)}`;

// "#/settle/<b64>" -> {kind, b64}; anything else null.
export function sharedRoute(hash) {
  const m = /^#\/(settle|evening|check)\/([A-Za-z0-9_-]+)$/.exec(hash);
  return m ? { kind: m[1], b64: m[2] } : null;
}

// A picture of the lines, for a group chat: drawn on a canvas, in the page's language.
export function picture(lines) {
  const scale = 2;
  const width = 360;
  const line = 24;
  const canvas = document.createElement("canvas");
  canvas.width = width * scale;
  canvas.height = (lines.length * line + 32) * scale;
  const g = canvas.getContext("2d");
  g.scale(scale, scale);
  g.fillStyle = "#f6f1e4";
  g.fillRect(0, 0, width, canvas.height);
  g.fillStyle = "#1d4d3a";
  g.fillRect(0, 0, 6, canvas.height);
  lines.forEach((text, i) => {
    g.fillStyle = i === 0 ? "#1d4d3a" : "#222";
    g.font = `${i === 0 ? "700 " : ""}15px "NanumGothic", "Noto Sans KR", sans-serif`;
    g.fillText(String(text), 16, 26 + i * line, width - 24);
  });
  return canvas;
}

// The three ways to share: the link, the text, the picture. `body()` the request the link carries; `lines()`
// what the text and the picture say.
export function shareBar(kind, body, lines) {
  const out = h("div", { class: "share", "data-share": kind });
  const said = h("p", { class: "share-said", role: "status" }, "\u00a0");
  const linkBox = h("input", { type: "text", readonly: true, class: "share-link", "data-key": `share-link-${kind}`, "aria-label": t("share_link"), hidden: true });
  const text = () => [...lines(), linkOf(kind, body())].join("\n");
  const tell = (word) => { said.textContent = word; };
  const copy = async (value, word) => {
    try {
      await navigator.clipboard.writeText(value);
      tell(word);
    } catch {
      tell(t("share_select"));
    }
  };
  out.append(
    h("div", { class: "actions" },
      h("button", { type: "button", "data-key": `share-${kind}`, onclick: async () => {
        const url = linkOf(kind, body());
        linkBox.value = url;
        linkBox.hidden = false;
        linkBox.select();
        if (navigator.share) {
          try { await navigator.share({ url }); return; } catch { /* closed, or not allowed: the link is on the page */ }
        }
        await copy(url, t("share_copied"));
      } }, t("share_link")),
      h("button", { type: "button", "data-key": `share-text-${kind}`, onclick: async () => {
        const value = text();
        if (navigator.share) {
          try { await navigator.share({ text: value }); return; } catch { /* as below */ }
        }
        await copy(value, t("share_text_copied"));
      } }, t("share_text")),
      h("button", { type: "button", "data-key": `share-png-${kind}`, onclick: () => {
        const canvas = picture(lines());
        canvas.toBlob(async (blob) => {
          const file = new File([blob], `gostop-${kind}.png`, { type: "image/png" });
          if (navigator.canShare?.({ files: [file] })) {
            try { await navigator.share({ files: [file] }); return; } catch { /* as below */ }
          }
          const a = h("a", { href: URL.createObjectURL(blob), download: file.name });
          document.body.append(a);
          a.click();
          a.remove();
          tell(t("share_saved"));
        }, "image/png");
      } }, t("share_png"))),
    linkBox, said);
  return out;
}

// A ruling said in lines (the text and the picture of a settle).
export function rulingLines(s, go = null) {
  const lines = [`${t("ruling")} · ${headline(s, (x) => x)}`];
  // each payment with its arithmetic, as the ruling on the page shows it
  for (const p of s.payments) {
    lines.push(`${t("pays", { from: p.from, to: p.to })}: ${formulaText(s, p, go) || `${t("points", { n: number(p.points) })} · ${t("money", { n: number(p.amount) })}`}`);
  }
  if (s.sale) lines.push(s.sale.reason);
  // each one's net for the hand, the sale with the payments (the picture's numbers)
  if (s.winner && s.payments.length) lines.push(netOf(s).map(([who, v]) => t("net_of", { p: who, amount: (v > 0 ? "+" : v < 0 ? "−" : "±") + t("money", { n: number(Math.abs(v)) }) })).join(" · "));
  return lines;
}

// --- a shared link opened: the same thing, asked of the service here -------------------------------------

let opened = null; // {kind, b64, answer | problem | body}

export async function openShared(route, rerender) {
  let body;
  try {
    body = decode(route.b64);
  } catch {
    opened = { ...route, bad: true };
    rerender();
    return;
  }
  opened = { ...route, body, lang: language() };
  rerender();
  // an evening's link may carry the page's notes beside it (the corrections: trial r7 D2); the service is asked
  // of the evening alone
  const { notes, ...evening } = route.kind === "evening" && body && typeof body === "object" ? body : { notes: null };
  try {
    const answer = await reach(() => route.kind === "settle" ? post("/v1/settle", body)
      : route.kind === "evening" ? post("/v1/evening", evening)
        : typeof body === "string" ? postText("/v1/replay", body) : post("/v1/replay", body));
    if (answer) opened.answer = answer;
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    opened.problem = error.body;
  }
  rerender();
}

export const openedLang = () => opened?.lang;

export function sharedView() {
  if (!opened) return h("p", { class: "loading" }, t("loading"));
  const title = h("h2", {}, t("shared_" + opened.kind));
  if (opened.bad) return h("section", { class: "shared" }, title, h("p", { class: "problem", role: "alert" }, t("share_bad")));
  if (opened.problem) return h("section", { class: "shared" }, title, problemView({ body: opened.problem }));
  const a = opened.answer;
  if (!a) return h("section", { class: "shared" }, title, h("p", { class: "loading" }, t("loading")));
  if (opened.kind === "settle") {
    const winner = (opened.body.players || []).find((p) => p.id === a.winner);
    return h("section", { class: "shared", "data-shared": "settle" }, title, rulingView(a, (x) => x, null, { go: winner ? winner.go_count || 0 : null, said: winner?.declared || null }),
      shareBar("settle", () => opened.body, () => rulingLines(a, winner ? winner.go_count || 0 : null)));
  }
  if (opened.kind === "evening") {
    const people = a.people || opened.body.people;
    const last = a.hands.length ? a.hands[a.hands.length - 1].totals : {};
    let before = Object.fromEntries(people.map((p) => [p, 0]));
    const signed = (v) => (v > 0 ? "+" : v < 0 ? "−" : "") + t("money", { n: number(Math.abs(v)) });
    const notes = opened.body.notes && typeof opened.body.notes === "object" ? opened.body.notes : {};
    const list = (x) => (Array.isArray(x) ? x.filter((n) => n && typeof n === "object") : []);
    const fixed = list(notes.fixed);
    const struckAt = (k) => list(notes.struck).filter((n) => n.at === k).map((n) => struckRow({
      number: h("th", { scope: "row" }, "–"), label: handName(k + 1), people, old: !!n.old,
      said: enteredSaid({ log: !!n.log, winner: typeof n.winner === "string" ? n.winner : null, points: Number.isInteger(n.points) ? n.points : null }),
      reason: typeof n.reason === "string" ? n.reason : "" }));
    return h("section", { class: "shared", "data-shared": "evening" }, title,
      h("div", { class: people.length > 3 ? "table-wrap many" : "table-wrap" }, h("table", { class: people.length > 3 ? "ledger-table many" : "ledger-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("ruling")), people.map((p) => h("th", { scope: "col", class: "num" }, p)))),
        h("tbody", {}, [...a.hands.map((hand, i) => {
          // the rows as the first phone draws them: the headline by the amounts, the details under them; a hand
          // taken out or a corrected hand's old version struck before the hand it stood before, with its reason
          const entry = (opened.body.hands || [])[i];
          const players = entry && entry.settle ? entry.settle.players : null;
          const sitters = players ? people.filter((p) => !players.some((x) => x.id === p)) : [];
          const why = fixed.find((f) => f.hand === i + 1)?.reason;
          const rows = rulingRows(hand, before, people, sitters, { number: h("th", { scope: "row" }, String(i + 1)), attrs: { "data-hand": i + 1, class: why ? "fixed" : null },
            reason: why ? h("small", { class: "reason" }, t("fixed_because", { why })) : null, details: i + 1 });
          before = hand.totals;
          return [...struckAt(i), ...rows];
        }), ...struckAt(a.hands.length)]),
        h("tfoot", {}, h("tr", { class: "totals" }, h("th", { scope: "row", colspan: 2 }, t("totals")), people.map((p) => h("td", { class: "num", "data-total": p }, signed(last[p] ?? 0))))))),
      h("ul", { class: "transfers" }, a.transfers.map((x) => h("li", { "data-from": x.from, "data-to": x.to, "data-amount": x.amount },
        t("transfer", { from: x.from, to: x.to, amount: t("money", { n: number(x.amount) }) })))));
  }
  return null; // a checked log opens in the check itself (main.js)
}
