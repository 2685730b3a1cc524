"""One origin for the table and its yardstick, a bare Pyodide page (bench/boot_bare.html).

The yardstick boots Pyodide as its npm package ships it (its whole python_stdlib.zip),
from bare-pyodide/, beside the site as it ships (dist/) and bench/: what a page that
only starts Pyodide sends and does, measured in the same run as the table.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitebuild.common import LOCK_NAME, RUNTIME_FILES  # noqa: E402
from sitebuild.compress import precompress  # noqa: E402
from sitebuild.pins import PINS, copy_runtime, fetch_pinned  # noqa: E402

#: The yardstick's page, relative to the served folder.
BARE_PAGE = "bench/boot_bare.html"


def served_folder(tmp: Path, dist: Path) -> Path:
    """A folder in `tmp` serving dist/'s files, bench/, and bare-pyodide/: Pyodide's own
    runtime files (with their precompressed copies, as the site's) and the site's lock."""
    served = tmp / "served"
    served.mkdir()
    for entry in [*dist.iterdir(), ROOT / "bench"]:
        (served / entry.name).symlink_to(entry)
    bare = served / "bare-pyodide"
    copy_runtime(fetch_pinned(PINS["pyodide"]), bare)
    shutil.copyfile(dist / "pyodide" / LOCK_NAME, bare / LOCK_NAME)
    precompress(bare, list(RUNTIME_FILES))
    return served
