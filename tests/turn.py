"""A real TURN server (Debian's coturn) on 127.0.0.1 for the tests and benchmarks.

LocalTurn starts `turnserver` on a free port with one static user (the long-term
credential mechanism, as the README's hosting section sets it up), relaying
through 127.0.0.1 only. coturn refuses to relay to loopback peers unless told
(--allow-loopback-peers): on this machine both pages are loopback peers.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

TURNSERVER = os.environ.get("PISHE_TURNSERVER", "/usr/bin/turnserver")
USER, PASSWORD, REALM = "pishe", "a-test-password", "pishe.test"


def turnserver_executable() -> str | None:
    """coturn's turnserver: $PISHE_TURNSERVER, /usr/bin/turnserver or one on PATH; None if none."""
    if os.access(TURNSERVER, os.X_OK):
        return TURNSERVER
    return shutil.which("turnserver")


def _free_port(kind: int) -> int:
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LocalTurn:
    """coturn on a free 127.0.0.1 port; .ice_servers is the ice-servers.json list for it.
    start() returns once it takes connections; stop() ends it by its process id."""

    RELAY_PORTS = 40  # relayed addresses: two per page pair and a few spare

    def __init__(self, executable: str, folder: Path):
        self.executable, self.folder = executable, Path(folder)
        self.port = 0
        self._process: subprocess.Popen | None = None

    @property
    def ice_servers(self) -> list[dict]:
        return [{"urls": f"turn:127.0.0.1:{self.port}?transport=udp", "username": USER, "credential": PASSWORD}]

    def start(self, timeout: float = 30) -> LocalTurn:
        self.port = _free_port(socket.SOCK_DGRAM)
        low = _free_port(socket.SOCK_DGRAM)
        low = min(low, 65535 - self.RELAY_PORTS)
        log_path = self.folder / "turn.log"
        args = [self.executable, "-n", "--listening-ip", "127.0.0.1", "--relay-ip", "127.0.0.1",
                "--listening-port", str(self.port), "--min-port", str(low),
                "--max-port", str(low + self.RELAY_PORTS), "--allow-loopback-peers",
                "--lt-cred-mech", "--user", f"{USER}:{PASSWORD}", "--realm", REALM,
                "--no-tls", "--no-dtls", "--no-cli", "--no-multicast-peers",
                "--userdb", str(self.folder / "turndb"), "--pidfile", str(self.folder / "turn.pid"),
                "--log-file", "stdout", "--simple-log", "--verbose"]
        with open(log_path, "wb") as log:
            self._process = subprocess.Popen(args, cwd=self.folder, stdin=subprocess.DEVNULL,
                                             stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:  # coturn listens on TCP too, on the same port, once it is up
            if self._process.poll() is not None:
                raise RuntimeError(f"turnserver exited with {self._process.returncode}:\n{log_path.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"turnserver took no connection in {timeout:.0f} s:\n{log_path.read_text()}")
                time.sleep(0.1)

    def log(self) -> str:
        path = self.folder / "turn.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self._process and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None

    def __enter__(self) -> LocalTurn:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
