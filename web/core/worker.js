// Module worker that runs the game's Python (Pyodide) off the page's main thread.
//
// Boot: the pishe wheel (its modules compiled to bytecode by build.py) is
// downloaded at once, while Pyodide starts from pyodide/ (at the site root) with
// the trimmed lock; then Pyodide unpacks the wheel straight into site-packages
// and `import pishe.web` runs. No micropip at start-up: importing it makes
// CPython compile a good part of the standard library from source, which was
// most of what the worker added to a bare Pyodide boot (median ~1.1 s then,
// ~0.08 s without it, from Pyodide ready to pishe.web imported). Wheels only some
// functions need (segno, for the invite's QR code) are installed by micropip,
// loaded on the first call of such a function (ON_DEMAND below).
//
// Python's memory as it is once pishe.web is imported is kept in the browser
// (Cache Storage, per build: SNAPSHOTS below), and every later start restores it
// instead of starting the interpreter, most of a bare Pyodide boot (bench/boot.py).
//
// Worker -> page while booting:
//   {progress: 0..1, stage: "text", until}  at each milestone, and as the start-up downloads
//                                     arrive; `until` (0..1, or absent): where a step the
//                                     worker cannot report on while it runs will end;
//                                     the words are pishe/table/words.py's LOADING, which
//                                     build.py writes into BUILD (Python is not running yet)
//   {ready: true, ms: {...}, origin, snapshot} ms since the worker started (its time origin:
//                                     `origin`), per milestone; snapshot:
//                                     "restored" (this start), "taken" (for the next), "none"
//   {fatal: "message", cause, detail}  boot failed ("<stage> failed: <why>"; calls fail too): `cause`
//                                     a key of pishe/table/words.py's START_FAILED (causeOf below),
//                                     `detail` the error's own words, for a bug report
// Page -> worker, at any time (calls sent before ready wait for it):
//   {id, call: "name", args: [...]}   runs pishe.web.name(*args), args as plain JSON values
// Worker -> page:
//   {id, result}                      the function's JSON string, parsed (its messages
//                                     for the data channels already sent by Python: channel.js)
//   {id, error: "message"}            the call could not run or raised
// and the data channels' own messages (channel.js).
// Pyodide 314 only runs in module workers: new Worker(url, {type: "module"}).

import { loadPyodide } from "../../pyodide/pyodide.mjs";
import { attach, send } from "./channel.js";

const BUILD = __PISHE_BUILD__; // replaced by build.py: {id, wheels, stdlib, friends, game_code, loading, downloads, languages}
const SITE = new URL("../../", import.meta.url); // dist/ root: this file is dist/web/core/worker.js

// The wheel (a key of BUILD.wheels) unpacked before the table is ready, and
// those micropip installs on the first call of a pishe.web function that needs them.
const AT_START = "pishe";
const ON_DEMAND = { qr_matrix: ["segno"] };
// The no-peek deal's group arithmetic (@noble/curves, pinned and hash-checked by the build,
// never on a first visit): loaded when a friends' table opens, as globalThis.pisheGroup,
// which pishe/table/group.py's NobleGroup calls.
const NEEDS_GROUP = new Set(["host_open", "guest_open"]);
let group = null;
function loadGroup() {
  if (!group) {
    group = Promise.all([import(new URL("vendor/noble/curves/ed25519.js", SITE).href), import("./group.js")])
      .then(([curves, { makeGroup }]) => { self.pisheGroup = makeGroup(curves); });
    group.catch(() => { group = null; }); // to retry on the next call
  }
  return group;
}
const WHEEL_DIR = "/tmp/wheels";

// Pyodide's memory snapshots (loadPyodide's _makeSnapshot and _loadSnapshot, an
// experimental API, pinned with Pyodide) taken in this browser, so there is nothing
// more to download: ~31 MB of memory, the interpreter, pishe.web and what it imports.
// The first start takes one (~0.05 s) and stores it under this build's id; a start
// with one restores it: no interpreter start-up, no imports. The cache's name does
// not start with "pishe-", the service worker's (it deletes other builds' caches);
// a snapshot of another build is deleted when one of this build is stored.
// Cache Storage is missing outside secure contexts and may be refused (some
// private windows): then every start is a plain one.
const SNAPSHOTS = "python-memory";
const SNAPSHOT_KEY = new URL(`python-memory/${BUILD.id}`, SITE).href;
const storedSnapshot = self.caches
  ? caches.open(SNAPSHOTS).then((cache) => cache.match(SNAPSHOT_KEY)).catch(() => undefined)
  : Promise.resolve(undefined);
// Run once the memory is restored: `random` would otherwise replay the same numbers
// at every start (Python's hash seed stays the first start's: a seed drawn once, as
// any start's is). The file system is not part of a snapshot, so the wheel is unpacked
// again; the import system sees its folders as new by their times of change (not
// importlib.invalidate_caches(): it imports importlib.metadata, ~1.5 s under load).
const PY_RESTORED = "import random\nrandom.seed()";

// The standard library's modules a first visit does not download (build.py's split_stdlib),
// each game's but the first's (split_games: BUILD.game_code, unpacked beside the wheel's),
// and a friends' table's (split_friends: BUILD.friends, downloaded by friendsCode below):
// pishe.on_demand fetches the zip of one when it is first imported, by a synchronous
// request (allowed in a worker) that Python makes through fetchNow. The finder is set
// before the snapshot (which holds no JavaScript object), its fetch after it. Its parts'
// addresses are relative to the site, so the snapshot holds no origin: any page of this
// build can restore it (the browser tests hand one to the tables they open).
const PY_ON_DEMAND = `
import json, pishe.on_demand
on_demand = pishe.on_demand.install(json.loads(stdlib_parts), "/lib")
`;
function fetchNow(url) {
  const request = new XMLHttpRequest();
  request.open("GET", new URL(url, SITE).href, false);
  request.responseType = "arraybuffer";
  request.send();
  if (request.status !== 200) throw new Error(`HTTP ${request.status} for ${url}`);
  return new Uint8Array(request.response);
}

// Runs in Python once pishe.web is imported. Arguments cross as one JSON text so
// Python gets plain dict/list/str values, never JavaScript proxies.
const PY_DISPATCH = `
import json
import pishe.web

_public = set(getattr(pishe.web, "__all__", None) or
              (n for n in dir(pishe.web) if not n.startswith("_")))

def dispatch(name, args_json):
    fn = getattr(pishe.web, name, None) if name in _public else None
    if not callable(fn):
        raise LookupError(f"pishe.web has no function {name!r}")
    return fn(*json.loads(args_json))

dispatch
`;
// deps=False: our wheels are pure Python without dependencies, and resolving
// would make micropip ask PyPI, which an offline page cannot reach.
const PY_INSTALL = "import micropip\nawait micropip.install(json.loads(wheel_paths), deps=False)";

const ms = {};
let stage = "";
let shown = 0; // the progress last sent: it never goes back
function show(progress, always = false, until = undefined) {
  if (progress <= shown && !always) return;
  shown = Math.max(shown, progress);
  self.postMessage({ progress: shown, stage, until });
}
// `until`: where the step that starts now ends, for a step this worker cannot report on
// while it runs (Python's start, one long synchronous task): the page moves the bar on
// towards it meanwhile.
function milestone(key, progress, until = undefined) {
  ms[key] = Math.round(performance.now());
  stage = BUILD.loading[key];
  show(progress, true, until);
}

// Real progress while the start-up's files arrive (the first visit's wait): the
// bytes received of BUILD.downloads (their sizes as served, before any encoding),
// counted on a copy of each response so that Pyodide still gets the browser's own
// (the wasm then compiles as it streams in, and its compiled code stays cached).
// They fill the bar up to DOWNLOADED; the milestones after them take it on.
const DOWNLOADED = 0.8;
const STARTED = 0.94; // Python started: its step fills the bar from DOWNLOADED to here
const expected = Object.values(BUILD.downloads).reduce((sum, size) => sum + size, 0);
let received = 0;
async function count(body) {
  const reader = body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    received += chunk.value.byteLength;
    // One message per whole percent at most.
    show(Math.floor(100 * (0.02 + (DOWNLOADED - 0.02) * Math.min(1, received / expected))) / 100);
  }
}
// A start-up download that fails ends the start at once: Pyodide itself only logs a wasm
// that did not come, and waits for ever.
let downloadFailed;
const downloadFailure = new Promise((resolve, reject) => {
  downloadFailed = (why) => reject(Object.assign(new Error(why), { download: true }));
});
downloadFailure.catch(() => {}); // reported by the start
const networkFetch = self.fetch.bind(self);
self.fetch = async (resource, options) => {
  const url = new URL(resource instanceof Request ? resource.url : resource, SITE).href;
  const name = url.startsWith(SITE.href) ? url.slice(SITE.href.length) : null;
  const startUp = Boolean(name) && Object.hasOwn(BUILD.downloads, name);
  let response;
  try {
    response = await networkFetch(resource, options);
  } catch (err) {
    if (startUp) downloadFailed(`could not download ${name}: ${err}`);
    throw err;
  }
  if (startUp && !response.ok) downloadFailed(`could not download ${name}: HTTP ${response.status}`);
  if (startUp && response.ok && response.body) {
    count(response.clone().body).catch(() => {}); // the download's own failure is Pyodide's to report
  }
  return response;
};

// Bytes by path in the site, each downloaded once (a download that failed is tried again
// when next asked for); the start-up wheel's right now.
const downloads = new Map();
function download(path) {
  if (!downloads.has(path)) {
    const url = new URL(path, SITE);
    const bytes = fetch(url).then(async (response) => {
      if (!response.ok) throw Object.assign(new Error(`could not download ${url.pathname}: HTTP ${response.status}`), { download: true });
      return new Uint8Array(await response.arrayBuffer());
    }, (err) => {
      throw Object.assign(new Error(`could not download ${url.pathname}: ${err.message || err}`), { download: true });
    });
    bytes.catch(() => downloads.delete(path)); // reported when awaited, not as an unhandled rejection
    downloads.set(path, bytes);
  }
  return downloads.get(path);
}
download(BUILD.wheels[AT_START]);

let pyodide = null;
let scope = null; // the Python globals our snippets run in

/** Install wheels (names in BUILD.wheels) with micropip, from Pyodide's file system. */
async function install(names) {
  // micropip comes from the trimmed lock (as bytecode) on first need; once loaded,
  // loadPackage returns at once.
  await pyodide.loadPackage("micropip");
  const paths = [];
  for (const name of names) {
    const bytes = await download(BUILD.wheels[name]);
    const path = `${WHEEL_DIR}/${BUILD.wheels[name].split("/").pop()}`;
    pyodide.FS.writeFile(path, bytes);
    paths.push(`emfs:${path}`);
  }
  scope.set("wheel_paths", JSON.stringify(paths));
  await pyodide.runPythonAsync(PY_INSTALL, { globals: scope });
}

// Wheels installed on demand: name -> promise of the install (dropped if it failed, to retry).
const installing = new Map();
function need(names) {
  return Promise.all(names.map((name) => {
    if (!installing.has(name)) {
      const done = install([name]);
      installing.set(name, done);
      done.catch(() => installing.delete(name));
    }
    return installing.get(name);
  }));
}

// A language's words (its catalogs, BUILD.languages; English has none): unpacked where the wheel
// was (Pyodide's working folder) before the first set_language to it, downloaded as soon as that
// call comes, while Python may still be starting. Code -> promise (dropped if it failed, to retry).
const languages = new Map();
function wordsOf(code) {
  if (typeof code !== "string" || !Object.hasOwn(BUILD.languages, code)) return null;
  if (!languages.has(code)) {
    const unpacked = Promise.all([download(BUILD.languages[code]), started]).then(([bytes, dispatch]) => {
      if (dispatch) pyodide.unpackArchive(bytes, "zip");
    });
    languages.set(code, unpacked);
    unpacked.catch(() => languages.delete(code));
  }
  return languages.get(code);
}

// A friends' table's Python (BUILD.friends: the zip of the modules only it imports), downloaded
// as soon as the first of its calls comes, while the page waits on nothing else, and handed to
// pishe.on_demand, whose finder imports them from it (never fetched again, synchronously). A
// promise (dropped if it failed, to retry on the next call).
const FRIENDS_CALLS = new Set(BUILD.friends.calls);
let friends = null;
function friendsCode() {
  if (!friends) {
    friends = Promise.all([download(BUILD.friends.url), started]).then(([bytes, dispatch]) => {
      if (!dispatch) return;
      const onDemand = scope.get("on_demand");
      onDemand.keep(BUILD.friends.url, bytes);
      onDemand.destroy();
    });
    friends.catch(() => { friends = null; });
  }
  return friends;
}

let snapshot = "none"; // what this start did with a snapshot (the ready message says)

/** Start Pyodide with `options` besides the site's own. */
function start(options) {
  const indexURL = new URL("pyodide/", SITE).href;
  return loadPyodide({
    indexURL,
    // Our trimmed lock lists micropip with the sha256 of the wheel we ship, so
    // integrity checks stay on (Pyodide's own lock has a different build's hash).
    lockFileURL: indexURL + "pyodide-lock.json",
    // Called once the wasm runtime is compiled, before the interpreter starts (or
    // the memory is restored).
    fsInit: async () => milestone("runtime", DOWNLOADED, STARTED),
    ...options,
  });
}

/** Store the snapshot for the next start, in place of any other build's; not awaited. */
function keep(memory) {
  caches.open(SNAPSHOTS).then(async (cache) => {
    for (const request of await cache.keys()) await cache.delete(request);
    await cache.put(SNAPSHOT_KEY, new Response(memory));
  }).catch(() => {}); // storage full or refused: the next start is a plain one
}

/** Boot Python and return the dispatch function (a PyProxy). */
async function boot() {
  // Progress: the downloads (above) up to DOWNLOADED, then starting the interpreter
  // (~85% of a warm boot, bench/boot.py) to 0.94, unpacking and importing pishe to the end.
  milestone("start", 0.02);
  const stored = await storedSnapshot;
  if (stored) {
    try {
      pyodide = await start({ _loadSnapshot: stored.arrayBuffer() });
      snapshot = "restored";
    } catch (err) {
      // A snapshot this Pyodide refuses (its checks: a build id, a magic number)
      // would fail every start: drop it, start as on a first visit, take a new one.
      console.warn("the stored Python memory could not be restored:", err);
    }
  }
  if (!pyodide) pyodide = await start({ _makeSnapshot: Boolean(self.caches) });
  milestone("python", STARTED);
  pyodide.FS.mkdirTree(WHEEL_DIR);
  // A wheel is a zip to unpack into site-packages: nothing to resolve, no installer.
  pyodide.unpackArchive(await download(BUILD.wheels[AT_START]), "wheel");
  milestone("wheels", 0.97);
  if (snapshot === "restored") pyodide.runPython(PY_RESTORED);
  scope = pyodide.globals.get("dict")();
  const parts = [...BUILD.stdlib, BUILD.friends, ...BUILD.game_code];
  scope.set("stdlib_parts", JSON.stringify(parts));
  pyodide.runPython(PY_ON_DEMAND, { globals: scope });
  const dispatch = pyodide.runPython(PY_DISPATCH, { globals: scope });
  if (snapshot !== "restored" && self.caches) {
    try {
      keep(pyodide.makeMemorySnapshot());
      snapshot = "taken";
    } catch (err) {
      console.warn("no snapshot of Python's memory:", err); // the next start is a plain one
    }
  }
  // A friend's table's messages go out from Python as soon as a call has made them,
  // before its answer is built. Set after the snapshot, which holds no JavaScript object.
  scope.set("channel_send", send);
  scope.set("fetch_now", fetchNow);
  pyodide.runPython("import pishe.page\npishe.page.outbox = channel_send\non_demand.fetch = fetch_now", { globals: scope });
  ms.ready = Math.round(performance.now());
  return dispatch;
}

/** A short message for an exception: Python's last traceback line, e.g. "ValueError: bad". */
function describe(err) {
  if (err && err.type && typeof err.message === "string") {
    console.debug(err.message); // the full Python traceback, for developers
    const lines = err.message.trim().split("\n");
    return lines[lines.length - 1];
  }
  return String((err && err.message) || err);
}

/**
 * Why the start failed, by a key of pishe/table/words.py's START_FAILED (the page words it):
 * "browser" (no WebAssembly), "download" (a file did not come), "memory", else "engine".
 */
function causeOf(err) {
  const text = String((err && err.message) || err);
  if (typeof WebAssembly !== "object") return "browser";
  if (err instanceof RangeError || /out of memory|could not allocate|allocation failed/i.test(text)) return "memory";
  if (err && err.type) return "engine"; // Python's own exception
  if ((err && err.download) || /fetch|network|HTTP|status code|load/i.test(text)) return "download";
  return "engine";
}

let fatal = "";
// Resolves with the dispatch function, or with null when the boot failed.
const started = Promise.race([boot(), downloadFailure]).then(
  (dispatch) => {
    self.postMessage({ ready: true, ms, origin: performance.timeOrigin, snapshot });
    return dispatch;
  },
  (err) => {
    const detail = describe(err);
    fatal = `${stage} failed: ${detail}`;
    self.postMessage({ fatal, cause: causeOf(err), detail });
    return null;
  },
);

/**
 * Run pishe.web.name(*args) (its messages for the data channels are sent by Python
 * as it runs: channel.js): resolves with {result} (the parsed JSON) or {error}.
 */
async function run(name, args) {
  const words = name === "set_language" && Array.isArray(args) ? wordsOf(args[0]) : null;
  const code = FRIENDS_CALLS.has(name) ? friendsCode() : null;
  try {
    const dispatch = await started;
    if (!dispatch) throw new Error(fatal);
    if (typeof name !== "string" || !Array.isArray(args)) {
      throw new Error("a call needs a function name and an array of arguments");
    }
    if (Object.hasOwn(ON_DEMAND, name)) {
      await need(ON_DEMAND[name]).catch((err) => {
        throw new Error(`could not install ${ON_DEMAND[name].join(", ")}: ${describe(err)}`);
      });
    }
    if (words) {
      await words.catch((err) => {
        throw new Error(`could not load the words of ${args[0]}: ${describe(err)}`);
      });
    }
    if (code) {
      await code.catch((err) => {
        throw new Error(`could not load the friends' table: ${describe(err)}`);
      });
    }
    if (NEEDS_GROUP.has(name)) {
      await loadGroup().catch((err) => {
        throw new Error(`could not load the deal's arithmetic: ${describe(err)}`);
      });
    }
    const json = dispatch(name, JSON.stringify(args));
    if (typeof json !== "string") {
      if (json && json.destroy) json.destroy();
      throw new Error(`pishe.web.${name} did not return a JSON string`);
    }
    return { result: JSON.parse(json) };
  } catch (err) {
    return { error: describe(err) };
  }
}

self.onmessage = async ({ data }) => {
  if (data && (data.channel || data.port)) {
    attach(data, run);
    return;
  }
  const { id, call: name, args = [] } = data || {};
  self.postMessage({ id, ...(await run(name, args)) });
};
