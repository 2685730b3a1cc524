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

from machinery import LocalServer, free_port

TURNSERVER = os.environ.get("PISHE_TURNSERVER", "/usr/bin/turnserver")
USER, PASSWORD, REALM = "pishe", "a-test-password", "pishe.test"


def turnserver_executable() -> str | None:
    """coturn's turnserver: $PISHE_TURNSERVER, /usr/bin/turnserver or one on PATH; None if none."""
    if os.access(TURNSERVER, os.X_OK):
        return TURNSERVER
    return shutil.which("turnserver")


class LocalTurn(LocalServer):
    """coturn on a free 127.0.0.1 port (UDP, and TCP, on which start() sees it up);
    .ice_servers is the ice-servers.json list for it; .log() what it did (verbose)."""

    name = "turn"
    RELAY_PORTS = 40  # relayed addresses: two per page pair and a few spare

    @property
    def ice_servers(self) -> list[dict]:
        return [{"urls": f"turn:127.0.0.1:{self.port}?transport=udp", "username": USER, "credential": PASSWORD}]

    def prepare(self) -> None:
        self.port = free_port(socket.SOCK_DGRAM)
        self.relay_low = min(free_port(socket.SOCK_DGRAM), 65535 - self.RELAY_PORTS)

    def command(self) -> list:
        return [self.executable, "-n", "--listening-ip", "127.0.0.1", "--relay-ip", "127.0.0.1",
                "--listening-port", str(self.port), "--min-port", str(self.relay_low),
                "--max-port", str(self.relay_low + self.RELAY_PORTS), "--allow-loopback-peers",
                "--lt-cred-mech", "--user", f"{USER}:{PASSWORD}", "--realm", REALM,
                "--no-tls", "--no-dtls", "--no-cli", "--no-multicast-peers",
                "--userdb", str(self.folder / "turndb"), "--pidfile", str(self.folder / "turn.pid"),
                "--log-file", "stdout", "--simple-log", "--verbose"]
