"""The modules a first visit does not download, fetched on first import.

The page ships the modules its Python imports (build.py traces them); the rest of the
standard library waits on the server in zips ("parts": what micropip adds when it runs,
and all else), and so do the modules only a friends' table imports (build.py's
split_friends) and each game's but the first's (split_games). :func:`install` puts a finder
first on ``sys.meta_path`` that knows each part's module names: importing one of them
fetches that part once (``fetch(url) -> bytes``, set by the page's worker: a synchronous
request, allowed in a worker), writes it to the file system and imports from it. A part
marked ``"unpack"`` (a game's) is unpacked beside the ``pishe`` package instead, where its
language's catalogs go too (web/core/worker.js), and imported from there. The worker
downloads the friends' part itself before a friends' table's first call, without holding up
the page (:meth:`OnDemand.keep`). Any other name is left to the usual finders, so an optional
import that fails costs nothing.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
import zipfile
import zipimport
from typing import Callable, Iterable, Optional

__all__ = ["OnDemand", "install"]


class OnDemand:
    """A finder for ``sys.meta_path``: finds the modules of each part, ``{"url", "names"}``,
    in its zip, fetched into folder ``folder`` on first need; a part marked ``"unpack"`` is
    unpacked into folder ``home`` (by default the one that holds the ``pishe`` package)."""

    def __init__(self, parts: Iterable[dict], folder: str, home: Optional[str] = None):
        self.home = home or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        self.zips: dict[str, tuple[str, str]] = {}     # module name -> (url, path of its zip)
        self.paths: dict[str, str] = {}                 # a part's url -> the path of its zip
        self.unpacked: set[str] = set()                 # the urls of the parts to unpack
        for part in parts:
            path = self.paths[part["url"]] = os.path.join(folder, part["url"].rsplit("/", 1)[-1])
            if part.get("unpack"):
                self.unpacked.add(part["url"])
            for name in part["names"]:
                self.zips[name] = (part["url"], path)
        #: ``fetch(url) -> bytes``; ``None`` (no page, or a snapshot being taken): nothing is fetched.
        self.fetch: Optional[Callable] = None
        #: The modules imported from a fetched part, in order (what a first visit lacked).
        self.served: list[str] = []

    def find_spec(self, name, path=None, target=None):
        found = self.zips.get(name)
        if found is None or self.fetch is None:
            return None
        url, zip_path = found
        if not os.path.exists(zip_path):
            try:
                data = self.fetch(url)
            except Exception as e:  # offline, or the server refused: the import fails as usual
                raise ModuleNotFoundError(f"No module named {name!r} (not downloaded: {e})", name=name) from None
            self.keep(url, data)
        if url in self.unpacked:
            spec = importlib.machinery.PathFinder.find_spec(name, path)
        else:
            # A module of a package sits in the package's folder of the zip, wherever the
            # package itself came from.
            spec = zipimport.zipimporter("/".join([zip_path, *name.split(".")[:-1]])).find_spec(name)
        if spec is not None:
            self.served.append(name)
        return spec

    def keep(self, url: str, data) -> None:
        """Part ``url``'s zip, ``data`` (bytes, or a JavaScript buffer), downloaded: written where
        its modules are imported from, so that none of them is fetched again."""
        data = data.to_bytes() if hasattr(data, "to_bytes") else bytes(data)
        with open(self.paths[url], "wb") as f:
            f.write(data)
        if url in self.unpacked:
            with zipfile.ZipFile(self.paths[url]) as z:
                z.extractall(self.home)
            # The folders' listings the import system keeps are stale now (their times of
            # change may not say so within a clock tick).
            for finder in sys.path_importer_cache.values():
                if isinstance(finder, importlib.machinery.FileFinder):
                    finder.invalidate_caches()


def install(parts: Iterable[dict], folder: str) -> OnDemand:
    """Put an :class:`OnDemand` finder first on ``sys.meta_path`` (once) and return it."""
    for finder in sys.meta_path:
        if isinstance(finder, OnDemand):
            return finder
    finder = OnDemand(parts, folder)
    sys.meta_path.insert(0, finder)
    return finder
