"""axe-core for the browser tests: one npm version, checked by its sha256 and kept in
the build's download cache (~/.cache/pishe or $PISHE_CACHE); test-only, never in dist/."""

from __future__ import annotations

import functools
import tarfile

import build

AXE = build.Pin("axe-core-4.14.1.tgz",
                "e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745",
                ("npm", "pack", "--silent", "axe-core@4.14.1"))


@functools.cache
def axe_source() -> str:
    """axe.min.js from the pinned tarball (fetched once, verified by build.fetch_pinned)."""
    with tarfile.open(build.fetch_pinned(AXE)) as tar:
        return tar.extractfile("package/axe.min.js").read().decode()


def violations(page, known: dict[str, str] | None = None) -> list[str]:
    """axe-core's violations on the page as it is now, one line each: rule, impact and
    the elements at fault (an empty list is a clean page), leaving out the elements
    inside `known[rule]` (a CSS selector) for that rule alone. axe is injected once per
    document, through the debugging protocol, so the page itself loads nothing."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate("""async (known) => {
      const result = await axe.run(document, { resultTypes: ["violations"] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact,
        nodes: v.nodes.filter((n) => !(known[v.id] && document.querySelector(n.target[0])?.closest(known[v.id])))
          .map((n) => n.target.join(" ")) })).filter((v) => v.nodes.length > 0);
    }""", known or {})
    return [f"{v['id']} ({v['impact']}): {', '.join(v['nodes'])}" for v in found]
