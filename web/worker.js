// Module worker that runs the game's Python (Pyodide) off the page's main thread.
//
// Boot: Pyodide from ../pyodide/ with the trimmed lock (micropip loads in
// parallel with start-up), then micropip installs the pishe and segno wheels
// named in the build info, then `import pishe.web`.
//
// Worker -> page while booting:
//   {progress: 0..1, stage: "text"}   at each milestone
//   {ready: true, ms: {...}}          ms since the worker started, per milestone
//   {fatal: "message"}                boot failed ("<stage> failed: <why>"); calls fail too
// Page -> worker, at any time (calls sent before ready wait for it):
//   {id, call: "name", args: [...]}   runs pishe.web.name(*args), args as plain JSON values
// Worker -> page:
//   {id, result}                      the function's JSON string, parsed
//   {id, error: "message"}            the call could not run or raised
// Pyodide 314 only runs in module workers: new Worker(url, {type: "module"}).

import { loadPyodide } from "../pyodide/pyodide.mjs";

const BUILD = __PISHE_BUILD__; // replaced by build.py: {id, wheels, files}
const SITE = new URL("../", import.meta.url); // dist/ root: this file is dist/web/worker.js

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

const ms = {};
let stage = "";
function milestone(key, progress, text) {
  ms[key] = Math.round(performance.now());
  stage = text;
  self.postMessage({ progress, stage });
}

/** Boot Python and return the dispatch function (a PyProxy). */
async function boot() {
  const indexURL = new URL("pyodide/", SITE).href;
  // Progress fractions: each milestone's usual share of a warm boot (bench/boot.py);
  // starting the interpreter (with micropip) takes most of it.
  milestone("start", 0.02, "Loading Python");
  const pyodide = await loadPyodide({
    indexURL,
    // Our trimmed lock lists micropip with the sha256 of the wheel we ship, so
    // integrity checks stay on (Pyodide's own lock has a different build's hash).
    lockFileURL: indexURL + "pyodide-lock.json",
    packages: ["micropip"],
    // Called once the wasm runtime is compiled, before the interpreter starts.
    fsInit: async () => milestone("runtime", 0.15, "Starting Python"),
  });
  milestone("python", 0.75, "Installing the game");
  const scope = pyodide.globals.get("dict")();
  scope.set("wheel_urls", JSON.stringify(Object.values(BUILD.wheels).map((path) => new URL(path, SITE).href)));
  // deps=False: both wheels are pure Python without dependencies, and resolving
  // would make micropip ask PyPI, which an offline page cannot reach.
  await pyodide.runPythonAsync(
    "import json, micropip\nawait micropip.install(json.loads(wheel_urls), deps=False)",
    { globals: scope },
  );
  milestone("wheels", 0.97, "Opening the table");
  const dispatch = pyodide.runPython(PY_DISPATCH, { globals: scope });
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

let fatal = "";
// Resolves with the dispatch function, or with null when the boot failed.
const started = boot().then(
  (dispatch) => {
    self.postMessage({ ready: true, ms });
    return dispatch;
  },
  (err) => {
    fatal = `${stage} failed: ${describe(err)}`;
    self.postMessage({ fatal });
    return null;
  },
);

self.onmessage = async ({ data }) => {
  const { id, call: name, args = [] } = data || {};
  try {
    const dispatch = await started;
    if (!dispatch) throw new Error(fatal);
    if (typeof name !== "string" || !Array.isArray(args)) {
      throw new Error("a call needs a function name and an array of arguments");
    }
    const json = dispatch(name, JSON.stringify(args));
    if (typeof json !== "string") {
      if (json && json.destroy) json.destroy();
      throw new Error(`pishe.web.${name} did not return a JSON string`);
    }
    self.postMessage({ id, result: JSON.parse(json) });
  } catch (err) {
    self.postMessage({ id, error: describe(err) });
  }
};
