// Node runs this beside Pyodide's runtime (sitebuild/stdlib.py: trace_stdlib): Pyodide runs
// trace.py with the pishe wheel unpacked and segno's wheel at hand, and the answer is written out.
// Arguments: the lock file, the pishe wheel, segno's wheel, the JSON to write, the program (strip.py
// and trace.py), STDLIB_ALWAYS as JSON, "strip" or "list", noble's ed25519.js and
// web/core/group.js (as file URLs).
import { loadPyodide } from "./pyodide.mjs";
import { readFileSync, writeFileSync } from "node:fs";
const [lock, pishe, segno, target, script, always, strip, curves, group] = process.argv.slice(2);
// A friend's table deals no-peek: its arithmetic, as the page's worker loads it.
const { makeGroup } = await import(group);
globalThis.pisheGroup = makeGroup(await import(curves));
// The library beside this script, named outright: Pyodide would take the one beside
// the file a symbolic link to pyodide.mjs leads to.
const stdLibURL = new URL("python_stdlib.zip", import.meta.url).pathname;
const pyodide = await loadPyodide({ lockFileURL: lock, stdLibURL });
pyodide.unpackArchive(new Uint8Array(readFileSync(pishe)), "wheel");
pyodide.FS.mkdirTree("/tmp/wheels");
const segnoName = segno.split("/").pop();
pyodide.FS.writeFile(`/tmp/wheels/${segnoName}`, readFileSync(segno));
pyodide.globals.set("STDLIB_ALWAYS", pyodide.toPy(JSON.parse(always)));
pyodide.globals.set("STRIP", strip === "strip");
// The page's part, then micropip's: loading micropip imports modules of its own.
// Answers {first: [paths], micropip: [paths], stripped: {path: source}}, as JSON text. An
// error is printed alone: Node would print the line of Pyodide's it came from, 1.2 MB of it.
const [page, later] = readFileSync(script, "utf8").split("# -- micropip --\n");
try {
  await pyodide.runPythonAsync(page);
  await pyodide.loadPackage("micropip");
  writeFileSync(target, await pyodide.runPythonAsync(later.replace("SEGNO", segnoName)));
} catch (err) {
  console.error(String(err.message || err));
  process.exit(1);
}
