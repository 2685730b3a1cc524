// The page's static words in its player's language from the first paint: which language
// (?lang=, else the browser's languages: tr → Turkish, else English) and how its words are
// put into the markup. A classic script in index.html's <head>, so it runs before <body>
// is parsed: for a language other than English it fetches that language's words
// (web/lang/<code>.js, for those players only), keeps the body unseen meanwhile, and puts
// the words in place (first(), from web/first-paint.js at the end of <body>, or when the
// words come if they come later) before the browser shows the body. web/lang.js (the
// language switch) uses the same functions, as self.pisheFirstWords.
//
// The static words (index.html's headings, buttons, settings, How to play, the tab title;
// the few lines the page words when Python cannot run) are English in the markup: each
// element marked data-i18n is one message of the table's catalog, its attributes named in
// data-i18n-attr one message each. build.py writes each language's translations of them,
// from the catalogs, to web/lang/<code>.js. An element's own child elements stay where they
// are (a painter may hold them): the message names them <0>…</0> (text translated with it)
// or <0/> (left as it is).
(() => {
  // The games' tab titles in each language but English (replaced by build.py: {titles}), for
  // the tab while the page's words are on their way.
  const BUILD = __PISHE_BUILD__;
  /** The languages the page speaks, by code, each named in itself. */
  const LANGUAGES = { en: "English", tr: "Türkçe" };
  /** The pseudo-language for layout tests (every message longer and accented): ?lang=en-XA only. */
  const PSEUDO = "en-XA";
  // Each language's words, as web/lang/<code>.js brings them: msgid (or "context\u0004msgid") -> translation.
  const loaded = (self.pisheWordsIn = self.pisheWordsIn || {});

  /** The page's language from the address (?lang=) or the browser's preferences. */
  function chosenLanguage(search = location.search, preferred = navigator.languages) {
    const asked = new URLSearchParams(search).get("lang");
    if (asked && (Object.hasOwn(LANGUAGES, asked) || asked === PSEUDO)) return asked;
    for (const code of preferred || []) {
      const base = String(code).toLowerCase().split("-")[0];
      if (Object.hasOwn(LANGUAGES, base)) return base;
    }
    return "en";
  }

  const text = (value) => (value === undefined || value === null ? "" : String(value));

  /** `message` (English, one of the page's static messages) in `words` (English for none). */
  function pageWord(words, message, context = "") {
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

  /** Put `words` (English for none) into every marked element under `root`. */
  function applyWords(words, root = document) {
    for (const element of root.querySelectorAll("[data-i18n], [data-i18n-attr]")) {
      const source = sourceOf(element);
      const context = text(element.dataset.i18nContext);
      if (source.message !== null) {
        const children = [];
        for (const child of element.children) children[Number(child.dataset.i18nN)] = child;
        fill(element, (source.lead || "") + pageWord(words, source.message, context) + (source.trail || ""), children);
      }
      for (const [name, message] of Object.entries(source.attrs)) {
        if (message) element.setAttribute(attrName(element, name), pageWord(words, message, context));
      }
    }
    // A <template>'s copies are made in the language of the moment.
    if (root === document) for (const template of document.querySelectorAll("template")) applyWords(words, template.content);
  }

  /** Where `code`'s words are (web/lang/<code>.js, beside this script's folder). */
  const wordsUrl = (code, base) => new URL(`lang/${code}.js`, base).href;

  /** Link the app's manifest in `code` (build.py writes web/manifest.<code>.webmanifest), so
   *  that a page installed in Turkish carries its Turkish name. */
  function linkManifest(code, base) {
    const link = document.querySelector('link[rel="manifest"]');
    const own = Object.hasOwn(LANGUAGES, code) && code !== "en";
    if (link) link.href = new URL(own ? `manifest.${code}.webmanifest` : "manifest.webmanifest", base).href;
  }

  const code = chosenLanguage();
  const root = document.documentElement;

  /** A tab title (English) in the page's language of the moment: its words, else the build's titles. */
  function title(message) {
    const now = root.lang;
    return now === "en" ? message : pageWord(loaded[now] || BUILD.titles[now] || {}, message);
  }

  const base = document.currentScript ? document.currentScript.src : location.href;
  root.lang = code === PSEUDO ? "en" : code;
  if (code !== "en") linkManifest(code, base);
  document.title = title(document.title);
  // The words come while <body> is parsed, unseen meanwhile; first() puts them in place once
  // both the words and the whole <body> are there (a missing file leaves the page English).
  let bodyParsed = false, wordsDue = false;
  if (code !== "en" && !loaded[code]) {
    root.dataset.words = "pending";
    wordsDue = true;
    const script = document.createElement("script");
    script.src = wordsUrl(code, base);
    // Before Python's downloads: the tab's title and the page wait on these words alone.
    script.fetchPriority = "high";
    script.onload = script.onerror = () => { wordsDue = false; if (bodyParsed) self.pisheFirstWords.first(); };
    document.head.append(script);
  }

  self.pisheFirstWords = {
    LANGUAGES, PSEUDO, chosenLanguage, pageWord, applyWords, title, wordsUrl: (c) => wordsUrl(c, base), loaded,
    linkManifest: (c) => linkManifest(c, base),
    /** The end of <body>: the words in place (the loading line's too) and the body shown. */
    first() {
      bodyParsed = true;
      if (wordsDue) return;
      const words = loaded[code];
      if (code !== "en" && words) {
        applyWords(words);
        for (const line of document.querySelectorAll("[data-loader-stage]")) line.textContent = pageWord(words, line.textContent);
      }
      const select = document.querySelector("[data-language]");
      if (select && Object.hasOwn(LANGUAGES, code)) select.value = code;
      delete root.dataset.words;
    },
  };
})();
