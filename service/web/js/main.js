// The table page: four flows behind a tab bar, in Korean or English, everything kept in localStorage.

import { h } from "./dom.js";
import { get, ruling } from "./api.js";
import { app } from "./app.js";
import { setCatalog } from "./cards.js";
import { load, save } from "./store.js";
import { LANGUAGES, pickLanguage, setLanguage, useLanguage, language, t } from "./words.js";
import * as settle from "./settle.js";
import * as live from "./live.js";
import * as ledger from "./ledger.js";
import * as check from "./check.js";
import { decode, openShared, sharedRoute, sharedView } from "./share.js";

const VIEWS = { settle, live, ledger, check };
const TABS = Object.keys(VIEWS);
const root = document.getElementById("app");

function route() {
  const shared = sharedRoute(location.hash);
  if (shared) return shared.kind === "check" ? "check" : "shared";
  const name = location.hash.replace(/^#/, "");
  return VIEWS[name] ? name : "settle";
}

// A share link (docs/page-links.md): a ruling or an evening is shown as the service rules it here; a log is
// put in the check and checked.
function openLink() {
  const shared = sharedRoute(location.hash);
  if (!shared) return;
  if (shared.kind === "check") {
    let text;
    try {
      const body = decode(shared.b64);
      text = typeof body === "string" ? body : JSON.stringify(body, null, 1);
    } catch {
      text = "";
    }
    check.openText(text);
  } else {
    openShared(shared, render);
  }
}

// One row: the tabs, then the language button, or in its place (the same height: nothing below moves when
// the connection drops) what to do when the service cannot be reached.
function header(current) {
  return h("header", { class: "top" },
    h("h1", { class: "sr" }, t("title")),
    h("div", { class: "bar" },
      h("nav", { "aria-label": t("title") },
        h("ul", {}, TABS.map((name) => h("li", {},
          h("a", { href: "#" + name, "data-key": "nav-" + name, "aria-current": name === current ? "page" : null }, t("nav." + name)))))),
      // the engine in the page ruled (the service could not be reached): said, not asked about
      ruling.by === "page" && !app.offline
        ? h("span", { class: "ruled-by", role: "status", "data-key": "ruled-by", title: t("ruled_on_phone") }, t("ruled_on_phone_short"))
        : null,
      // in the sticky header, so it is in sight wherever the person was when the service could not be reached
      app.offline ? offlineBanner() : h("select", {
        class: "lang", "data-key": "lang", "aria-label": t("language_label"),
        onchange: async (event) => {
          const next = event.target.value;
          save("lang", next);
          await useLanguage(next);
          app.rerender();
          // the service's sentences already on the page are asked for again in the new language
          for (const v of Object.values(VIEWS)) v.relanguage?.();
          if (route() === "shared") openLink();
          // and the knobs' labels of the rules panel
          get("/v1/rules").then((rules) => { app.knobSpecs = knobSpecs(rules.knobs); app.rerender(); }).catch(() => {});
        },
      }, Object.entries(LANGUAGES).map(([tag, name]) =>
        h("option", { value: tag, lang: tag, selected: tag === language() ? "" : null }, name)))));
}

function offlineBanner() {
  return h("div", { class: "offline", role: "alert" }, h("span", { class: "sr" }, t("offline")),
    h("button", { type: "button", "data-key": "retry", title: t("offline"), onclick: () => { app.offline = false; VIEWS[route()]?.retry?.(); app.rerender(); } },
      h("span", { "aria-hidden": "true" }, t("offline_short"), " · "), t("retry")));
}

// A field's change event fires when the person taps something else and the field loses focus. Drawing the
// page again at that moment would replace the control under the finger, and its tap would be lost (the first
// tap after typing). So a field's change is drawn once that tap is over: after its click, or shortly after
// the finger lifts when no click follows (a scroll); and not while the tap has put the person in another
// field to type (that field would be drawn again under the typing).
let pointerDown = false;
let owed = false;
const typing = () => document.activeElement?.matches?.("input[type=number], input[type=text], textarea");
function settleLater() {
  pointerDown = false;
  if (owed && !typing()) {
    owed = false;
    render();
  }
}
addEventListener("pointerdown", () => { pointerDown = true; }, true);
// A tap on a name or a count selects what it holds, so what is typed replaces it (no deleting first).
addEventListener("focusin", (e) => {
  if (e.target.matches?.("input[type=number], input[type=text]")) e.target.select();
});
addEventListener("click", () => setTimeout(settleLater), false);
addEventListener("pointerup", () => setTimeout(settleLater, 400), true);
addEventListener("pointercancel", () => setTimeout(settleLater, 400), true);
// typing ended without a tap (the phone's "done", the Tab key): drawn once the focus has settled
addEventListener("focusout", () => setTimeout(() => { if (!pointerDown) settleLater(); }), true);

function render() {
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  const name = route();
  document.title = `${t(name === "shared" ? "shared_title" : "nav." + name)} · ${t("title")}`;
  // the badge's meaning in a plain sentence, said where a phone shows it (its title never is: trial r5 D8)
  const onPhone = ruling.by === "page" && !app.offline ? h("p", { class: "ruled-by-said", "data-key": "ruled-by-said" }, t("ruled_on_phone_said")) : null;
  const parts = [header(name), h("main", { id: "main", "data-view": name }, onPhone, name === "shared" ? sharedView() : VIEWS[name].view())];
  root.replaceChildren(...parts.filter(Boolean));
  // what sticks under the header (the live game's prompt) and what the page scrolls to must clear it
  document.documentElement.style.setProperty("--top-h", `${root.querySelector(".top").offsetHeight}px`);
  if (focused) {
    const again = root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    // the control just used can be gone (a card played is no longer in play): the view says where focus goes
    const target = again && !again.disabled ? again : root.querySelector("[data-focus-fallback]");
    target?.focus({ preventScroll: true });
  }
  VIEWS[name]?.afterRender?.();
}

// The knobs GET /v1/rules describes (name, kind, label in the page's language, choices, bounds), by name.
function knobSpecs(knobs) {
  if (!knobs) return null;
  const list = Array.isArray(knobs) ? knobs : Object.entries(knobs).map(([name, spec]) => ({ name, ...spec }));
  return Object.fromEntries(list.map((k) => [k.name, k]));
}

// engine.json: where the engine is, and the deal's layout size (the engine's).
async function manifest() {
  try {
    const response = await fetch("table/engine.json");
    return response.ok ? await response.json() : {};
  } catch {
    return {};
  }
}

async function start() {
  // the page opens from the copy the service worker keeps when the service cannot be reached (a reload offline)
  navigator.serviceWorker?.register("sw.js").catch(() => {});
  setLanguage(pickLanguage(load("lang", () => null), navigator.languages));
  app.rerender = render;
  app.later = () => {
    owed = true;
    // a change fires while the focus is on its way to the next field (the Tab key: nothing has it yet), so
    // the page is drawn once the focus has settled, and not while it is in another field to type
    if (!pointerDown) setTimeout(settleLater);
  };
  app.go = (name) => {
    if (location.hash === "#" + name) render();
    else location.hash = name;
    window.scrollTo(0, 0);
  };
  root.replaceChildren(h("p", { class: "loading" }, t("loading")));
  try {
    const [cards, rules, engine] = await Promise.all([get("/v1/cards"), get("/v1/rules"), manifest()]);
    setCatalog(cards.cards);
    app.layoutSize = engine.layout_size || {};
    app.presets = rules.presets;
    app.knobSpecs = knobSpecs(rules.knobs);
  } catch {
    root.replaceChildren(h("p", { class: "offline", role: "alert" }, t("offline"), " ",
      h("button", { type: "button", onclick: () => location.reload() }, t("retry"))));
    return;
  }
  window.addEventListener("hashchange", () => { openLink(); render(); window.scrollTo(0, 0); });
  window.addEventListener("online", () => { if (app.offline) VIEWS[route()]?.retry?.(); });
  await Promise.all(Object.values(VIEWS).map((v) => v.init?.()));
  openLink();
  render();
  document.body.dataset.ready = "true"; // the tests wait for this
  performance.mark("gostop-ready"); // bench/page_load.py reads it
  for (const v of Object.values(VIEWS)) v.resume?.();
  // The engine (docs/page-engine.md) starts once the page is drawn and idle, when the service worker keeps its
  // files, or when the service cannot be reached (api.js). On a first visit the service worker is asked to
  // keep them; once it has, the engine starts once in its worker: its first start keeps its memory after the
  // imports (engine-worker.js), from which the next visit's engine starts in a fraction of the time.
  (window.requestIdleCallback || setTimeout)(async () => {
    // "gostop-engine": the service worker's cache of the engine's files (sw.js)
    const kept = (await globalThis.caches?.open("gostop-engine").then((cache) => cache.keys()).catch(() => [])) || [];
    if (kept.length) {
      window.gostop.ready.catch(() => {});
      return;
    }
    navigator.serviceWorker?.addEventListener("message", ({ data }) => {
      if (data === "engine-kept") window.gostop.ready.catch(() => {});
    });
    navigator.serviceWorker?.ready.then((worker) => worker.active?.postMessage("keep-engine"));
  });
  addEventListener("gostop-engine", () => { if (app.offline) VIEWS[route()].retry?.(); });
}

start();
