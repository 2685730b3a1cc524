"""The linters: ruff over all the repository's Python, mypy over the package and the build.

mypy checks every function's body (pyproject.toml), so the games' own types are checked
against the table's contracts (pishe/table/game.py's protocols, which each game's package
states its types as). .ci/run installs the versions these were written for."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _build_and_package() -> list[str]:
    """What mypy reads: the package, the build's scripts at the root and any package beside
    them (a build split into one), not the tests nor the benchmarks."""
    return sorted(["pishe", *(p.name for p in ROOT.glob("*.py")),
                   *(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name not in ("pishe", "tests"))])


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    done = _run("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing():
    done = _run("mypy", *_build_and_package())
    assert done.returncode == 0, done.stdout + done.stderr
