"""A real TURN server (Debian's coturn) on 127.0.0.1 for the tests and benchmarks.

LocalTurn starts `turnserver` on a free port with one static user (the long-term
credential mechanism, as the README's hosting section sets it up), relaying
through 127.0.0.1 only. coturn refuses to relay to loopback peers unless told
(--allow-loopback-peers): on this machine both pages are loopback peers. SlowUdp
puts a slow network in front of it.
"""

from __future__ import annotations

import os
import select
import shutil
import socket
import threading

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


class SlowUdp:
    """A UDP relay on a free 127.0.0.1 port in front of `target` (host, port) that holds each
    of the target's answers for `delay` seconds: a TURN server on a slow network, as a
    phone may meet one. Each client gets its own socket towards the target, so the target
    sees one address per client, as through a NAT. A context manager (a thread of its own)."""

    def __init__(self, target: tuple[str, int], delay: float):
        self.target, self.delay = target, delay
        self.port = 0
        self._listener: socket.socket | None = None
        self._upstream: dict[tuple, socket.socket] = {}
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def ice_servers(self, servers: list[dict]) -> list[dict]:
        """`servers` (a LocalTurn's .ice_servers for `target`) through this relay instead."""
        return [{**server, "urls": server["urls"].replace(f":{self.target[1]}?", f":{self.port}?")}
                for server in servers]

    def __enter__(self) -> SlowUdp:
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._listener.bind(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stopping.set()
        if self._thread:
            self._thread.join()
        for sock in [self._listener, *self._upstream.values()]:
            if sock:
                sock.close()

    def _run(self) -> None:
        listener = self._listener
        assert listener is not None
        clients: dict[socket.socket, tuple] = {}
        while not self._stopping.is_set():
            ready, _, _ = select.select([listener, *clients], [], [], 0.1)
            for sock in ready:
                data, sender = sock.recvfrom(65536)
                if sock is listener:
                    upstream = self._upstream.get(sender)
                    if upstream is None:
                        upstream = self._upstream[sender] = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                        clients[upstream] = sender
                    upstream.sendto(data, self.target)
                else:
                    # The target's answer reaches its client only after the delay.
                    threading.Timer(self.delay, self._answer, (data, clients[sock])).start()

    def _answer(self, data: bytes, client: tuple) -> None:
        if self._stopping.is_set() or self._listener is None:
            return
        try:
            self._listener.sendto(data, client)
        except OSError:
            pass  # closed meanwhile: the test is over
