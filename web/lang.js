// The page's language: which one (?lang=, else the browser's languages: tr → Turkish,
// else English), the page's own static words in it, and the switch in the header.
//
// The static words (index.html's headings, buttons, settings, How to play, the tab
// title; the few lines this page words when Python cannot run) are English in the
// markup: each element marked data-i18n is one message of the table's catalog, its
// attributes named in data-i18n-attr one message each. build.py writes each
// language's translations of them, from the catalogs, to web/lang/<code>.json; this
// module puts them in place. An element's own child elements stay where they are
// (a painter may hold them): the message names them <0>…</0> (text translated with
// it) or <0/> (left as it is). Everything else the page says comes from Python, in
// the language set by set_language (web/tables/words.js).
//
// The language is never stored, and an invite link carries none: each page of a
// friends' table speaks its own player's language.

import { text } from "./text.js";

/** The languages the page speaks, by code, each named in itself. */
export const LANGUAGES = { en: "English", tr: "Türkçe" };
/** The pseudo-language for layout tests (every message longer and accented): ?lang=en-XA only. */
export const PSEUDO = "en-XA";

let language = "en";
let words = {}; // msgid (or "context\u0004msgid") -> translation; empty for English
const listeners = [];

/** The page's language from the address (?lang=) or the browser's preferences. */
export function chosenLanguage(search = location.search, preferred = navigator.languages) {
  const asked = new URLSearchParams(search).get("lang");
  if (asked && (Object.hasOwn(LANGUAGES, asked) || asked === PSEUDO)) return asked;
  for (const code of preferred || []) {
    const base = String(code).toLowerCase().split("-")[0];
    if (Object.hasOwn(LANGUAGES, base)) return base;
  }
  return "en";
}

/** The language the page speaks now. */
export function currentLanguage() {
  return language;
}

/** `message` (English, one of the page's static messages) in the page's language. */
export function pageWord(message, context = "") {
  const key = context ? `${context}\u0004${message}` : message;
  if (Object.hasOwn(words, key)) return words[key];
  // The loading line's words come with "…" added.
  if (message.endsWith("…") && Object.hasOwn(words, message.slice(0, -1))) return `${words[message.slice(0, -1)]}…`;
  return message;
}

/** Whether a child element stays as it is (its own markup, or a painter's: a data- attribute). */
function kept(node) {
  return node.children.length > 0 || [...node.attributes].some((a) => a.name.startsWith("data-"));
}

/** The English message of `element`'s content, as build.py reads it from the markup. */
function messageOf(element) {
  let i = 0;
  const parts = [];
  for (const node of element.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.data);
    else if (node.nodeType === Node.ELEMENT_NODE) {
      parts.push(kept(node) ? `<${i}/>` : `<${i}>${node.textContent}</${i}>`);
      i += 1;
    }
  }
  return parts.join("").replace(/\s+/g, " ").trim();
}

/** Put `message` (its <n>…</n> and <n/> naming `element`'s children) into `element`. */
function fill(element, message, children) {
  const nodes = [];
  let last = 0;
  for (const match of message.matchAll(/<(\d+)>(.*?)<\/\1>|<(\d+)\/>/g)) {
    if (match.index > last) nodes.push(document.createTextNode(message.slice(last, match.index)));
    const child = children[Number(match[1] ?? match[3])];
    if (child) {
      if (match[1] !== undefined) child.textContent = match[2];
      nodes.push(child);
    }
    last = match.index + match[0].length;
  }
  if (last < message.length) nodes.push(document.createTextNode(message.slice(last)));
  element.replaceChildren(...nodes);
}

/** The attributes of `element` to translate; a shortcut turned off sits in data-keyshortcuts (web/keys.js). */
function attrsOf(element) {
  return text(element.dataset.i18nAttr).split(/\s+/).filter(Boolean);
}

function attrName(element, name) {
  return name === "aria-keyshortcuts" && !element.hasAttribute(name) ? "data-keyshortcuts" : name;
}

/**
 * `element`'s English, read from the markup the first time and kept in the element
 * itself (data-i18n-source; each child element numbered in data-i18n-n), so that a
 * copy of it (a <template>'s) still knows its English in another language.
 */
function sourceOf(element) {
  if (element.dataset.i18nSource) return JSON.parse(element.dataset.i18nSource);
  const source = { message: element.hasAttribute("data-i18n") ? messageOf(element) : null, attrs: {} };
  // A message is read trimmed; a space at either end of the markup's text stays around its
  // translation (" for <0/>" in "Invite link<span> for …</span>": else "Invite linkfor Right").
  const first = element.firstChild;
  const last = element.lastChild;
  const spaced = (node, end) => Boolean(source.message) && node && node.nodeType === Node.TEXT_NODE && end.test(node.data);
  source.lead = spaced(first, /^\s/) ? " " : "";
  source.trail = spaced(last, /\s$/) ? " " : "";
  for (const name of attrsOf(element)) source.attrs[name] = text(element.getAttribute(attrName(element, name)));
  [...element.children].forEach((child, n) => { child.dataset.i18nN = String(n); });
  element.dataset.i18nSource = JSON.stringify(source);
  return source;
}

/** Put the page's static words into every marked element under `root`, in the current language. */
function applyWords(root = document) {
  for (const element of root.querySelectorAll("[data-i18n], [data-i18n-attr]")) {
    const source = sourceOf(element);
    const context = text(element.dataset.i18nContext);
    if (source.message !== null) {
      const children = [];
      for (const child of element.children) children[Number(child.dataset.i18nN)] = child;
      fill(element, (source.lead || "") + pageWord(source.message, context) + (source.trail || ""), children);
    }
    for (const [name, message] of Object.entries(source.attrs)) {
      if (message) element.setAttribute(attrName(element, name), pageWord(message, context));
    }
  }
  // A <template>'s copies are made in the language of the moment.
  if (root === document) for (const template of document.querySelectorAll("template")) applyWords(template.content);
}

/** Call `listener(code)` after every change of language (a table rewords what it shows). */
export function onLanguage(listener) {
  listeners.push(listener);
}

/**
 * Speak `code` from now on: <html lang>, the static words (fetched from
 * web/lang/<code>.json, which the service worker keeps offline), the switch, and
 * every listener (Python's words, the tables' views). Resolves once done.
 */
export async function setLanguage(code) {
  if (!Object.hasOwn(LANGUAGES, code) && code !== PSEUDO) code = "en";
  language = code; // Python's words follow it (web/tables/words.js)
  let fetched = {};
  if (code !== "en") {
    try {
      const response = await fetch(new URL(`lang/${code}.json`, import.meta.url));
      if (response.ok) fetched = await response.json();
    } catch (err) {
      console.warn("the page's words could not be loaded:", err);
    }
  }
  words = fetched && typeof fetched === "object" ? fetched : {};
  document.documentElement.lang = code === PSEUDO ? "en" : code;
  applyWords();
  const select = document.querySelector("[data-language]");
  if (select) select.value = Object.hasOwn(LANGUAGES, code) ? code : "en";
  for (const listener of listeners) await listener(code);
}

/** Start in the chosen language and follow the switch in the header. */
export function setupLanguage() {
  const select = document.querySelector("[data-language]");
  if (select) select.addEventListener("change", () => setLanguage(select.value));
  const code = chosenLanguage();
  return code === "en" ? (applyWords(), Promise.resolve()) : setLanguage(code);
}
