// The page's own sentences (the friend panel's, a table's lines around the
// views), by key, as Python words them: pishe/table/words.py, answered by
// pishe.web.page_words(). No script here words a sentence: one place to word
// them, one place to translate them. A sentence's {name}s are filled with values
// (an error's own text, a game id), never with words made here.
//
// They come from the worker once Python is ready. A line asked for before then
// (a guest's page makes its reply code while Python starts) shows as soon as
// they come. If Python cannot run, they never come: the boot's own line says so.

import { setText, text } from "../text.js";

let words = null;
let loading = null;
const waiting = new Map(); // node -> [key, values]: lines asked for before the words came

/** Fetch the page's words from the worker `py` once Python is ready (once; later calls share it). */
export function loadWords(py) {
  if (!loading) {
    loading = py.ready
      .then(() => py.call("page_words"))
      .then((answer) => {
        words = answer && answer.words && typeof answer.words === "object" ? answer.words : {};
        for (const [node, [key, values]] of waiting) setText(node, word(key, values));
        waiting.clear();
      });
    loading.catch(() => {}); // Python could not run: the boot's own line says so
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
  if (key && !words) waiting.set(node, [key, values]);
  else waiting.delete(node);
  setText(node, key ? word(key, values) : "");
}
