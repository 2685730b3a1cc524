// Bare boot for bench/boot.py and bench/wire.py: Pyodide as its npm package ships
// it (bare-pyodide/, served beside bench/ by bench/bare_site.py: its whole standard
// library), the site's trimmed lock, no packages, then one Python call.
import { loadPyodide } from "../bare-pyodide/pyodide.mjs";

const indexURL = new URL("../bare-pyodide/", import.meta.url).href;
const pyodide = await loadPyodide({ indexURL, lockFileURL: indexURL + "pyodide-lock.json" });
self.postMessage(pyodide.runPython("1 + 1"));
