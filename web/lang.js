// The page's language: the switch in the header, and the page's own static words in it.
//
// Which language, and how the static words are put into the markup, are
// web/first-words.js's (a classic script in <head>: a page in another language than
// English is in it from the first paint); this module changes the language at the
// switch. Everything else the page says comes from Python, in the language set by
// set_language (web/tables/words.js).
//
// The language is never stored, and an invite link carries none: each page of a
// friends' table speaks its own player's language.

const first = self.pisheFirstWords;
/** The languages the page speaks, by code, each named in itself. */
export const LANGUAGES = first.LANGUAGES;
/** The pseudo-language for layout tests (every message longer and accented): ?lang=en-XA only. */
export const PSEUDO = first.PSEUDO;
export const chosenLanguage = first.chosenLanguage;

let language = "en";
let words = {}; // msgid (or "context\u0004msgid") -> translation; empty for English
const listeners = [];

/** The language the page speaks now. */
export function currentLanguage() {
  return language;
}

/** `message` (English, one of the page's static messages) in the page's language. */
export function pageWord(message, context = "") {
  return first.pageWord(words, message, context);
}

/** `code`'s words: brought by web/lang/<code>.js (at the first paint, or now); none if it cannot come. */
async function wordsIn(code) {
  if (!first.loaded[code]) {
    try {
      await new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = first.wordsUrl(code);
        script.onload = resolve;
        script.onerror = () => reject(new Error(`no words at ${script.src}`));
        document.head.append(script);
      });
    } catch (err) {
      console.warn("the page's words could not be loaded:", err);
    }
  }
  const found = first.loaded[code];
  return found && typeof found === "object" ? found : {};
}

/** Call `listener(code)` after every change of language (a table rewords what it shows). */
export function onLanguage(listener) {
  listeners.push(listener);
}

/**
 * Speak `code` from now on: <html lang>, the static words (web/lang/<code>.js, which the
 * service worker keeps offline), the switch, and every listener (Python's words, the
 * tables' views). Resolves once done.
 */
export async function setLanguage(code) {
  if (!Object.hasOwn(LANGUAGES, code) && code !== PSEUDO) code = "en";
  language = code; // Python's words follow it (web/tables/words.js)
  words = code === "en" ? {} : await wordsIn(code);
  document.documentElement.lang = code === PSEUDO ? "en" : code;
  first.linkManifest(code);
  first.applyWords(words);
  const select = document.querySelector("[data-language]");
  if (select) select.value = Object.hasOwn(LANGUAGES, code) ? code : "en";
  for (const listener of listeners) await listener(code);
}

/** Start in the chosen language (its words are in place already: web/first-words.js) and follow the switch. */
export function setupLanguage() {
  const select = document.querySelector("[data-language]");
  if (select) select.addEventListener("change", () => setLanguage(select.value));
  const code = chosenLanguage();
  return code === "en" ? (first.applyWords({}), Promise.resolve()) : setLanguage(code);
}
