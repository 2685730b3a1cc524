"""The local server (``python build.py serve``, and the tests' and benchmarks' pages): static
files with the MIME types the browser insists on, each file's precompressed copy sent to a
browser that accepts it, as a static host set up for it does (README: "Hosting")."""

from __future__ import annotations

import email.utils
import os
import sys
import threading
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from sitebuild.compress import ENCODINGS


def accepted_encodings(accept_encoding: str | None) -> set[str]:
    """The content codings an Accept-Encoding header value allows (q > 0), in lower
    case; "*" stands for every coding not named."""
    allowed: set[str] = set()
    refused: set[str] = set()
    for part in (accept_encoding or "").split(","):
        coding, *params = (p.strip() for p in part.split(";"))
        if not coding:
            continue
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        (allowed if q > 0 else refused).add(coding.lower())
    if "x-gzip" in allowed:
        allowed.add("gzip")
    if "*" in allowed:
        allowed |= set(ENCODINGS) - refused
    return allowed


class SiteHandler(SimpleHTTPRequestHandler):
    """Static files with the MIME types the browser insists on, a file's
    precompressed copy (NAME.br, NAME.gz) sent instead when the browser accepts
    its encoding (as a static host set up for it does), and a quiet log."""

    # Without application/wasm, loadPyodide hangs; module scripts need a JavaScript type.
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
        ".whl": "application/zip",
        ".svg": "image/svg+xml",
        ".webmanifest": "application/manifest+json",
    }

    def send_head(self):
        """Open what a GET or HEAD sends and send its headers: the file's precompressed copy in
        the best encoding the browser accepts, else what the base class sends."""
        path = self._file_path()
        copies = self._copies(path) if path else {}
        self._vary = bool(copies)  # the body depends on Accept-Encoding, whichever is sent
        accepted = accepted_encodings(self.headers.get("Accept-Encoding"))
        coding = next((c for c in ENCODINGS if c in copies and c in accepted), None)
        if path is None or coding is None:
            return super().send_head()
        try:
            body = open(copies[coding], "rb")
            size, mtime = os.fstat(body.fileno()).st_size, os.stat(path).st_mtime
        except OSError:
            return super().send_head()  # gone meanwhile: let it answer
        if self._not_modified_since(mtime):
            body.close()
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.end_headers()
            return None
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-type", self.guess_type(path))
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(size))
        self.send_header("Last-Modified", self.date_time_string(mtime))
        self.end_headers()
        return body

    def end_headers(self):
        """End the headers, saying that the body depends on Accept-Encoding where it does."""
        if getattr(self, "_vary", False):
            self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def _file_path(self) -> str | None:
        """The file a GET would send (index.html for a folder), or None when
        the base class must answer (a redirect, a listing, a 404)."""
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].split("#", 1)[0].endswith("/"):
                return None
            path = os.path.join(path, "index.html")
        return path if os.path.isfile(path) and not path.endswith("/") else None

    @staticmethod
    def _copies(path: str) -> dict[str, str]:
        """The precompressed copies of the file at `path` by encoding: those no older
        than the file (one edited after the build is sent as it is now)."""
        try:
            mtime = os.stat(path).st_mtime_ns
        except OSError:
            return {}
        found = {}
        for coding, suffix in ENCODINGS.items():
            try:
                if os.stat(path + suffix).st_mtime_ns >= mtime:
                    found[coding] = path + suffix
            except OSError:
                pass
        return found

    def _not_modified_since(self, mtime: float) -> bool:
        if "If-Modified-Since" not in self.headers or "If-None-Match" in self.headers:
            return False
        try:
            since = email.utils.parsedate_to_datetime(self.headers["If-Modified-Since"])
        except (TypeError, IndexError, OverflowError, ValueError):
            return False
        return since.tzinfo is not None and int(mtime) <= since.timestamp()

    def log_request(self, code="-", size="-"):
        """Log a failed request only."""
        # Successful requests are noise (a boot makes a dozen); failures are worth seeing.
        if isinstance(code, int) and code >= 400:
            super().log_request(code, size)


class _SiteHTTPServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """Report a request's error, but a connection the page reset."""
        # A page that navigates away mid-download resets its connection: nothing went wrong here.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class SiteServer:
    """Serve a folder on 127.0.0.1 from a background thread (with `handler`, a
    SiteHandler or a subclass: bench/wire.py's counts the bytes it sends).

    stop() and start() again keep the same port, so a page can be taken
    offline and back online under the same origin (service worker tests).
    """

    def __init__(self, root: Path, port: int = 0, host: str = "127.0.0.1", handler: type = SiteHandler):
        self.root, self.host, self.port, self.handler = Path(root), host, port, handler
        self._httpd: _SiteHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The site's address, with a trailing slash."""
        return f"http://{self.host}:{self.port}/"

    def start(self) -> SiteServer:
        """Listen (on a free port if ``port`` is 0) and serve from a background thread."""
        handler = partial(self.handler, directory=str(self.root))
        self._httpd = _SiteHTTPServer((self.host, self.port), handler)
        self.port = self._httpd.server_port
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket (start() again takes the same port)."""
        if self._httpd and self._thread:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join()
            self._httpd = self._thread = None

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def serve_forever(root: Path, port: int) -> int:
    """Serve the site in ``root`` on 127.0.0.1:``port`` until interrupted (Ctrl-C); 1 if the
    port cannot be had."""
    try:
        server = SiteServer(root, port).start()
    except OSError as err:
        print(f"cannot serve on port {port}: {err}", file=sys.stderr)
        return 1
    print(f"Play the computer at {server.url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
