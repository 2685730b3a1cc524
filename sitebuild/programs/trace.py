# Run by Pyodide in Node (trace.mjs; sitebuild/stdlib.py: trace_stdlib), after strip.py in one
# program: the standard library's modules the page's Python imports, while everything the page
# does is done. trace.mjs sets STDLIB_ALWAYS (modules imported besides) and STRIP (whether to
# strip and compile them), runs the part above the micropip line, loads micropip, then the part
# below it, whose last expression (JSON text) is the answer.
import importlib
import json
import os
import sys
import traceback
zip_path = next(p for p in sys.path if p.endswith(".zip"))

def library():
    found = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None) or ""
        # A frozen module (os, site, codecs, importlib's own...) runs from bytecode inside the
        # interpreter: its __file__ names the zip, whose copy is never read.
        frozen = getattr(getattr(module, "__spec__", None), "origin", None) == "frozen"
        if file.startswith(zip_path + "/") and not frozen:
            found.add(file[len(zip_path) + 1:])
    return found

# The page's start-up, as web/core/worker.js runs it: Pyodide's own boot, then pishe.web
# and the first game's first deal.
import pishe.on_demand
import pishe.web
from pishe.table.game import game_ids
json.loads(pishe.web.new_match(None, 1, game_ids()[0], 15, None))
boot = library()
for name in STDLIB_ALWAYS:
    importlib.import_module(name)
import pishe
# Every module of the wheel, listed by hand (pkgutil would be one more module to ship).
site = os.path.dirname(os.path.dirname(pishe.__file__))
for folder, _, files in os.walk(os.path.dirname(pishe.__file__)):
    for file in sorted(files):
        if file.endswith((".py", ".pyc")) and "__pycache__" not in folder:
            parts = os.path.relpath(os.path.join(folder, file.rsplit(".", 1)[0]), site).split(os.sep)
            importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
import pishe.web as web

def call(name, *args):
    return json.loads(getattr(web, name)(*args))

for language in ("tr", "en"):          # the language switch, every game played in each
    call("set_language", language)
    for game in game_ids():
        answer = call("new_match", None, 1, game, 15, None)
        for _ in range(150):
            match = answer["view"].get("match") or {}
            if match.get("over"):
                break
            answer = (call("next_deal") if match.get("next_deal") else call("computer_step")
                      if answer["computer_moves"] else call("act", str(answer["view"]["legal"][0])))
        call("timeout")
        call("restore_match", answer["saved"])
        call("page_words")
        # A friend's table, host and guest in this one process.
        call("host_open", None, None, game)
        queue = call("guest_open", None, None)["send"]
        while queue:
            for message in call("host_receive", queue.pop(0))["send"]:
                queue += call("guest_receive", message["text"], False)["send"]
        call("guest_saved")
        call("host_open", None, call("host_current")["saved"], game)
import gettext
gettext.translation("pishe", "/tmp/no-catalogs", languages=["tr", "en"], fallback=True).ngettext("a", "b", 2)
try:
    raise ValueError("a traceback, as the worker reports one")
except ValueError:
    traceback.format_exc()
first = library()
# -- micropip --
import micropip
await micropip.install(["emfs:/tmp/wheels/SEGNO"], deps=False)
call("qr_matrix", "https://example.org/#a-link")
used = library()
# Stripped and compiled here, by the Python that parses its own library's syntax (newer than
# the build's) and whose bytecode the page runs.
import base64
import zipfile
import importlib._bootstrap_external as bootstrap
import importlib.util

def one_line(code):
    # Every instruction on the line its function starts at, no columns: a location table
    # (2 bytes per 8 instructions, all alike) that brotli all but removes, where real
    # lines and columns would be a fifth of the bytecode on the wire. A traceback still
    # names each function and the line it starts at.
    consts = tuple(one_line(c) if isinstance(c, type(code)) else c for c in code.co_consts)
    table, units = bytearray(), len(code.co_code) // 2
    while units > 0:
        run = min(8, units)
        table += bytes([0x80 | 13 << 3 | run - 1, 0])   # PY_CODE_LOCATION_INFO_NO_COLUMNS, line + 0
        units -= run
    return code.replace(co_consts=consts, co_linetable=bytes(table))

def bytecode(name, text):
    code = one_line(compile(text, f"{zip_path}/{name}", "exec", dont_inherit=True))
    pyc = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(text.encode()), checked=False)
    return base64.b64encode(pyc).decode()

result = {"first": sorted(first), "micropip": sorted(used - first), "boot": sorted(boot),
          "stripped": {}, "bytecode": {}}
if STRIP:
    with zipfile.ZipFile(zip_path) as z:
        result["stripped"] = {name: stripped(z.read(name).decode("utf-8"), name) for name in sorted(used)}
    result["bytecode"] = {name: bytecode(name, result["stripped"][name]) for name in sorted(boot)}
json.dumps(result)
