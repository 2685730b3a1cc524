// The page's own sentences (the friend panel's, a table's lines around the
// views), by key, as Python words them: pishe/table/words.py, answered by
// pishe.web.page_words(). No script here words a sentence: one place to word
// them, one place to translate them. A sentence's {name}s are filled with values
// (an error's own text, a game id), never with words made here.
//
// They come from the worker once Python is ready, in the page's language (web/lang.js:
// the first call sets Python's), and again after the switch, which says again every line
// said so far (the live region's too: ./log.js). A line asked for before then (a guest's page makes its reply code while
// Python starts) shows as soon as they come. If Python cannot run, they never come: the
// boot's own line says so.

import { currentLanguage, onLanguage } from "../lang.js";
import { setText, text } from "../text.js";
import { sayAgain } from "./log.js";

let words = null;
let loading = null;
const shown = new Map(); // node -> [key, values]: every line said, said again in a new language

/** Set Python's language to the page's and take its words in it; the lines already said are said again. */
async function fetchWords(py) {
  const answer = await py.call("set_language", currentLanguage());
  words = answer && answer.words && typeof answer.words === "object" ? answer.words : {};
  for (const [node, [key, values]] of shown) {
    if (node.isConnected) setText(node, word(key, values));
    else shown.delete(node);
  }
  await sayAgain(py); // the live region's lines
}

/**
 * Fetch the page's words from the worker `py` once Python is ready, in the page's
 * language (once; later calls share it); again after every change of language.
 */
export function loadWords(py) {
  if (!loading) {
    // Asked at once, the first call the worker runs: nothing is worded in another language first
    // (a friend's blank table asked for while Python starts).
    loading = fetchWords(py);
    loading.catch(() => {}); // Python could not run: the boot's own line says so
    onLanguage(() => loading.then(() => fetchWords(py), () => {})); // no Python: the other listeners still run
  }
  return loading;
}

/**
 * The sentence `key` with its {name}s filled from `values` (a value {word: key} is
 * that sentence of the page's words); nothing before the words came.
 */
export function word(key, values = {}) {
  const template = words && Object.hasOwn(words, key) ? text(words[key]) : "";
  const given = values && typeof values === "object" ? values : {};
  const fill = (value) => (value && typeof value === "object" ? word(value.word) : text(value));
  return template.replace(/\{(\w+)\}/g, (all, name) => (Object.hasOwn(given, name) ? fill(given[name]) : all));
}

/** Show the sentence `key` in `node` (a null key: nothing), now or as soon as the words come. */
export function say(node, key, values = {}) {
  if (!node) return;
  if (key) shown.set(node, [key, values]);
  else shown.delete(node);
  setText(node, key && words ? word(key, values) : "");
}
