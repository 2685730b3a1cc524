// Node runs this beside Pyodide's runtime (sitebuild/wheel.py: compile_wheel): Pyodide runs
// compile_wheel.py on a wheel and the compiled files are written out as JSON {name: base64}.
// Arguments: the lock file, the wheel, the JSON to write, compile_wheel.py.
import { loadPyodide } from "./pyodide.mjs";
import { readFileSync, writeFileSync } from "node:fs";
const [lock, source, target, script] = process.argv.slice(2);
// Code objects without column ranges (PYTHONNODEBUGRANGES): line numbers stay in
// tracebacks; the ranges only underline the failing expression, and they were 30% of
// the pishe wheel on the wire (175 -> 122 KB in brotli: they compress badly).
const pyodide = await loadPyodide({ lockFileURL: lock, env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.writeFile("/tmp/in.whl", readFileSync(source));
const files = pyodide.runPython(readFileSync(script, "utf8")).toJs();
const encoded = {};
for (const [name, data] of files instanceof Map ? files : Object.entries(files)) {
  encoded[name] = Buffer.from(data).toString("base64");
}
writeFileSync(target, JSON.stringify(encoded));
