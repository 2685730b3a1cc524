# Run by Pyodide itself in Node at build time (compile_wheel.mjs; sitebuild/wheel.py): turns a
# pure-Python wheel's modules into sourceless .pyc files for Pyodide's CPython, as Pyodide's own
# distribution does with its packages (its micropip is built that way). The browser then loads
# micropip's and pishe's bytecode instead of compiling their thousands of lines of Python each
# time. Its last expression, {name: bytes}, is the answer.
import importlib._bootstrap_external as bootstrap
import importlib.util
import site
import zipfile
site_packages = site.getsitepackages()[0]
compiled = {}
with zipfile.ZipFile("/tmp/in.whl") as wheel:
    for info in wheel.infolist():
        name, data = info.filename, wheel.read(info)
        if info.is_dir() or name.endswith(".dist-info/RECORD"):
            continue
        if name.endswith(".py"):
            code = compile(data, f"{site_packages}/{name}", "exec", dont_inherit=True)
            data = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            name += "c"
        compiled[name] = data
compiled
