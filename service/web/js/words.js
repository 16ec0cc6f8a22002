// The page's words, in every language of the service: GET /v1/words serves them from the same catalogs as the
// answers' sentences (service/locale/<lang>/, one folder a language), with each language's own name for the
// chooser. Card names come from GET /v1/cards. The module waits for them before any view asks for a word.

import { load } from "./store.js";

// What the page says when it cannot reach the service to ask for its words (a first visit offline): the only
// words it holds itself, in the default language.
const UNREACHABLE = {
  en: {
    title: "Go-Stop at the table",
    loading: "Loading…",
    offline: "The service cannot be reached. What you entered is kept on this device.",
    retry: "Try again",
  },
};

// The language asked for first: the one chosen on this device (main.js saves it as "lang"), else the
// browser's, which the service negotiates from Accept-Language.
function chosen() {
  return load("lang", () => "") || "";
}

// A page with no service (`gostop page DIR`) reads its words from the files written beside it.
const STANDALONE = document.documentElement.hasAttribute("data-standalone");

async function fetchWords(wanted) {
  const browser = (navigator.languages || []).map((tag) => String(tag).toLowerCase().split("-")[0]);
  const urls = STANDALONE
    ? [...new Set([wanted, ...browser, "en"].filter(Boolean))].map((lang) => new URL(`../words/${lang}.json`, import.meta.url))
    : ["/v1/words" + (wanted ? "?lang=" + encodeURIComponent(wanted) : "")];
  for (const url of urls) {
    try {
      const response = await fetch(url, {
        headers: { Accept: "application/json", "Accept-Language": (navigator.languages || []).join(",") || "en" },
      });
      if (response.ok) return await response.json();
    } catch {
      // offline, and no copy kept by the service worker
    }
  }
  return null;
}

const fetched = (await fetchWords(chosen())) || { languages: { en: "English" }, words: UNREACHABLE };
// the page's words, by language: the one asked for at start; another is fetched when it is chosen (useLanguage)
export const WORDS = fetched.words;
// each language's tag -> its own name ("한국어"), the default first
export const LANGUAGES = fetched.languages;
const DEFAULT = Object.keys(LANGUAGES)[0] || "en";
// a placeholder's spec that is a particle (the catalogs' {p:은}): its two forms, served with the words
const PARTICLES = fetched.particles || {};

// The form of a particle that fits after a word: the first after a final consonant (a Hangul syllable's
// batchim; ㄹ takes the second form of 으로), else the second.
function particle(word, spec) {
  const pair = PARTICLES[spec];
  if (!pair) return "";
  const text = String(word).replace(/[ )]+$/, "");
  const code = text.charCodeAt(text.length - 1);
  const final = code >= 0xac00 && code <= 0xd7a3 ? (code - 0xac00) % 28 : 0;
  return final && !(pair[0] === "으로" && final === 8) ? pair[0] : pair[1];
}

let lang = DEFAULT;

export function pickLanguage(saved, browserLanguages) {
  if (saved in WORDS) return saved;
  for (const tag of browserLanguages || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in WORDS) return base;
  }
  return DEFAULT;
}

// Choose a language, fetching its words first if the page does not hold them yet.
export async function useLanguage(value) {
  if (!(value in WORDS)) {
    const got = await fetchWords(value);
    if (got && got.words[value]) WORDS[value] = got.words[value];
  }
  setLanguage(value in WORDS ? value : lang);
}

export function setLanguage(value) {
  lang = value;
  document.documentElement.lang = value;
}

export function language() {
  return lang;
}

// t("wins", {p: "A"}) or t("rule.pibak"): a dotted key, then {name} placeholders filled in.
export function t(key, params) {
  let value = key.split(".").reduce((node, part) => (node == null ? undefined : node[part]), WORDS[lang]);
  if (value === undefined) value = key.split(".").reduce((node, part) => (node == null ? undefined : node[part]), WORDS[DEFAULT]);
  if (value === undefined) return key;
  // a word with plural forms ({one, other}) agrees with its {n}; an ordinal ({"1": "첫째 판", ..., other}) is
  // said as the catalog says it, digits beyond
  if (value && typeof value === "object" && "other" in value) {
    const n = params ? String(params.n) : "";
    value = n in value && n !== "other" ? value[n] : "one" in value && n === "1" ? value.one : value.other;
  }
  if (typeof value !== "string") return value;
  return value.replace(/\{(\w+)(?::([^}]*))?\}/g, (whole, name, spec) => {
    if (!params || params[name] === undefined) return whole;
    return String(params[name]) + (spec ? particle(params[name], spec) : "");
  });
}

// A hand's place in the evening, one way in every sentence that names it ("셋째 판", "Hand 3").
export const handName = (n) => t("hand_n", { n });

export function number(n) {
  return Number(n).toLocaleString(lang);
}
