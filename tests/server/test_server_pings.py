"""The server pings quiet WebSocket clients and closes those that do not answer (issue 20): a
dead client (a phone gone off the network, a half-open connection) no longer holds its seat
"online" for ever. Short intervals through ``--ws-ping`` / ``--ws-timeout`` (or the environment's
``RULEBOX_WS_PING`` / ``RULEBOX_WS_TIMEOUT``).

These are the real-time end-to-end checks (a real server, real sockets, real seconds): marked
``slow`` (tests/conftest.py). The same rules on the injected clock, in milliseconds, are in
test_server_clock.py."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rulebox.server.testing import ServerProcess

ws_sync = pytest.importorskip("websockets.sync.client")

PING, TIMEOUT = 0.5, 5.0
"""The test server's ping interval and answer time (seconds): an answer time of 1 s closed the
browser's socket once on a machine with a load of 35 (the page answered too late), so the
answer time is what a busy machine needs; the interval stays short."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("pings")
    srv = ServerProcess(f"sqlite:///{folder / 'db.sqlite'}", log=folder / "server.log",
                        args=["--create-per-minute", "0", "--moves-per-second", "0",
                              "--ws-ping", str(PING), "--ws-timeout", str(TIMEOUT)])
    srv.start()
    yield srv
    srv.stop()


def create(server: ServerProcess) -> tuple[str, list[str]]:
    r = httpx.post(server.url + "/api/games", json={"game": "columns",
                                                    "seats": ["human", "human"]}, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


class RawClient:
    """A WebSocket client by hand on a plain socket, which stops answering after its first
    message: it never reads, so it answers no ping (of either kind), as a dead peer."""

    def __init__(self, server: ServerProcess, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           ).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def send_text(self, text: str) -> None:
        data = text.encode()
        assert len(data) < 126
        mask = os.urandom(4)
        self.sock.sendall(bytes([0x81, 0x80 | len(data)]) + mask
                          + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def frames(self, timeout: float = 5.0) -> list[tuple[int, bytes]]:
        """Every frame the server sent, up to its close: (opcode, payload)."""
        self.sock.settimeout(timeout)
        data = b""
        try:
            while chunk := self.sock.recv(65536):
                data += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        out = []
        while len(data) >= 2:
            op, n, at = data[0] & 0x0F, data[1] & 0x7F, 2
            if n == 126:
                n, at = struct.unpack("!H", data[2:4])[0], 4
            elif n == 127:
                n, at = struct.unpack("!Q", data[2:10])[0], 10
            out.append((op, data[at:at + n]))
            data = data[at + n:]
        return out

    def close(self) -> None:
        self.sock.close()


class Answering:
    """A socket of a seat read by a thread that answers the server's pings (as the web client
    does) and keeps the states it gets."""

    def __init__(self, url: str, token: str) -> None:
        self._opened = ws_sync.connect(url)
        self.ws = self._opened.__enter__()
        self.ws.send(json.dumps({"type": "auth", "token": token}))
        self.states: queue.Queue[dict[str, Any]] = queue.Queue()
        self.pongs = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                msg = json.loads(self.ws.recv())
                if msg.get("type") == "ping":
                    self.ws.send(json.dumps({"type": "pong"}))
                elif msg.get("type") == "pong":
                    self.pongs += 1
                elif msg.get("type") == "state":
                    self.states.put(msg)

    def wait(self, want: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any]:
        """The first state ``want`` accepts within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                msg = self.states.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError("no such message in time") from None
            if want(msg):
                return msg

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._opened.__exit__(None, None, None)
        self.thread.join(10)


def presence(server: ServerProcess, gid: str) -> list[bool]:
    return list(httpx.get(f"{server.url}/api/games/{gid}", timeout=30).json()["presence"])


def test_a_client_that_stops_answering_is_closed_and_its_seat_goes(
        server: ServerProcess) -> None:
    from rulebox.server.service import PRESENCE_GRACE

    gid, tokens = create(server)
    url = server.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?auth=first"
    other = Answering(url, tokens[1])  # seat 1, answering every ping
    try:
        other.wait(lambda m: m["presence"] == [False, True], 20)
        dead = RawClient(server, f"/api/games/{gid}/ws?auth=first")
        try:
            dead.send_text(json.dumps({"type": "auth", "token": tokens[0]}))
            other.wait(lambda m: m["presence"] == [True, True], 20)
            quiet = time.monotonic()  # the dead client's last message
            while presence(server, gid)[0]:
                assert time.monotonic() - quiet < PING + TIMEOUT + 20
                time.sleep(0.1)
            assert time.monotonic() - quiet <= PING + TIMEOUT + 3.0  # the bound (+ load)
            # the others are told after the grace period, as for any socket that closed
            left = other.wait(lambda m: any(e["kind"] == "left" and e["player"] == 0
                                            for e in m["events"]), PRESENCE_GRACE + 20)
            assert left["presence"] == [False, True]
            assert time.monotonic() - quiet <= PING + TIMEOUT + PRESENCE_GRACE + 4.0
            frames = dead.frames()
        finally:
            dead.close()
        # what the server sent the dead client: states, a ping, then a close with 4408
        texts = [json.loads(p)["type"] for op, p in frames if op == 0x1]
        assert "ping" in texts and set(texts) == {"state", "ping"}
        closes = [p for op, p in frames if op == 0x8]
        assert closes and struct.unpack("!H", closes[0][:2])[0] == 4408
        metrics = httpx.get(server.url + "/metrics", timeout=30).text
        assert "rulebox_websocket_timeouts_total 1.0" in metrics
        # the client that answers stays: many ping intervals later it is still online
        time.sleep(PING * 6)
        assert presence(server, gid) == [False, True]
        assert other.thread.is_alive()
    finally:
        other.close()


def test_no_pings_when_switched_off(tmp_path: Path) -> None:
    """``RULEBOX_WS_PING=0``: a quiet client is neither pinged nor closed."""
    with ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", log=tmp_path / "s.log",
                       env={"RULEBOX_WS_PING": "0", "RULEBOX_WS_TIMEOUT": "0.5"}) as srv:
        gid, tokens = create(srv)
        url = srv.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?auth=first"
        with ws_sync.connect(url) as ws:
            ws.send(json.dumps({"type": "auth", "token": tokens[0]}))
            assert json.loads(ws.recv(timeout=20))["type"] == "state"
            until = time.monotonic() + 2.5
            with pytest.raises(TimeoutError):  # no ping, no close: only states come
                while True:
                    msg = json.loads(ws.recv(timeout=max(0.01, until - time.monotonic())))
                    assert msg["type"] == "state"
            st = httpx.get(f"{srv.url}/api/games/{gid}", timeout=30).json()
            assert st["presence"] == [True, False]


@pytest.mark.browser
def test_the_web_client_answers_the_servers_pings(server: ServerProcess) -> None:
    """In Chromium: the page answers each ping, so its one socket stays open through many
    ping intervals (its own pings, every 10 s, would come too late) and its seat online."""
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip(f"{chromium} is missing")
    sync_api = pytest.importorskip("playwright.sync_api")
    gid, tokens = create(server)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium),
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            sockets: list[Any] = []
            sent: list[str] = []
            closed: list[Any] = []

            def opened(ws: Any) -> None:
                sockets.append(ws)
                ws.on("framesent", lambda payload: sent.append(str(payload)))
                ws.on("close", lambda _ws: closed.append(_ws))

            page.on("websocket", opened)
            page.goto(f"{server.url}/game/{gid}#t={tokens[0]}")
            page.wait_for_function("window.rulebox && window.rulebox.state"
                                   " && window.rulebox.state.presence[0] === true")
            assert len(sockets) == 1
            for _ in range(4):  # many pings, each answered: pongs, one after another
                with sockets[0].expect_event("framesent",
                                             predicate=lambda payload: '"pong"' in str(payload),
                                             timeout=(PING + TIMEOUT) * 1000 + 20_000):
                    pass
            assert len(sockets) == 1 and not closed
            assert sum('"pong"' in s for s in sent) >= 4
            assert presence(server, gid) == [True, False]
        finally:
            browser.close()


def test_the_ping_settings_come_from_the_environment_and_bad_ones_are_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from rulebox.server.limits import Limits

    monkeypatch.setenv("RULEBOX_WS_PING", "7")
    monkeypatch.setenv("RULEBOX_WS_TIMEOUT", "3")
    assert (Limits().ws_ping, Limits().ws_timeout) == (7.0, 3.0)
    for bad in (["--ws-ping", "-1"], ["--ws-timeout", "0"], ["--ws-ping", "nan"]):
        proc = subprocess.run([sys.executable, "-m", "rulebox.cli.main", "serve", "--db",
                               f"sqlite:///{tmp_path / 'db.sqlite'}", *bad],
                              capture_output=True, timeout=60)
        assert proc.returncode == 2, (bad, proc.stderr)
        assert b"--ws-ping is 0 to 3600 seconds" in proc.stderr
