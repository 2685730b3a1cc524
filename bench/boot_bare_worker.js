// Bare boot for bench/boot.py: the site's Pyodide (served beside bench/ from
// dist/), the same trimmed lock, no packages, then one Python call.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const indexURL = new URL("../pyodide/", import.meta.url).href;
const pyodide = await loadPyodide({ indexURL, lockFileURL: indexURL + "pyodide-lock.json" });
self.postMessage(pyodide.runPython("1 + 1"));
