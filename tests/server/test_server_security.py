"""Issue 19's low findings, each against a real server: refusals in the documented error format
down to the HTTP layer, the body limits and timeout, trusted hosts and security headers, the
SQLite file's mode, tokens in WebSocket URLs, an exact OpenAPI schema, and worker processes
that end with the server."""

from __future__ import annotations

import json
import os
import socket
import stat
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from rulebox.core.registry import game_ids
from rulebox.server.testing import ServerProcess

ws_sync = pytest.importorskip("websockets.sync.client")
ws_errors = pytest.importorskip("websockets.exceptions")


def _error(r: httpx.Response, status: int) -> dict[str, Any]:
    """The documented error body of a refusal with ``status``."""
    assert r.status_code == status, (r.status_code, r.text[:300])
    body = r.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["code"], str) and body["error"]["message"], body
    return body["error"]


def test_every_refusal_has_the_documented_form(client: httpx.Client) -> None:
    head = {"Content-Type": "application/json"}
    cases = [
        client.post("/api/games", content=b'{"game": "columns\xff\xfe"}', headers=head),
        client.post("/api/games", content=b'{"game": ', headers=head),
        client.post("/api/games", content=b"[" * 30_000 + b"]" * 30_000, headers=head),
        client.post("/api/games", content=b'{"game": "columns", "seats": ["human", "human"], '
                    b'"options": {"seed": ' + b"9" * 5000 + b"}}", headers=head),
        client.post("/api/games", json={"game": "chess", "seats": ["human"]}),
        client.post("/api/games", json={"game": "columns", "seats": ["human", "human"],
                                        "hotseat": "yes"}),
    ]
    for r in cases:
        _error(r, 400)
    assert _error(cases[4], 400)["code"] == "unknown_game"
    assert _error(client.get("/api/no/such/route"), 404)["code"] == "not_found"
    assert _error(client.delete("/api/games"), 405)["code"] == "method_not_allowed"
    assert _error(client.put("/api/catalog"), 405)["code"] == "method_not_allowed"


def test_a_large_chunked_body_is_413(client: httpx.Client) -> None:
    def chunks() -> Any:
        for _ in range(70):
            yield b"x" * 1000

    r = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert _error(r, 413)["code"] == "oversized"


def test_a_body_shorter_than_its_length_times_out(server: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                  b"application/json\r\nContent-Length: 100\r\n\r\n{\"game\":")
        t0 = time.monotonic()
        data = b""
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            part = s.recv(4096)
            if not part:
                break
            data += part
        waited = time.monotonic() - t0
    assert data.startswith(b"HTTP/1.1 408"), data[:200]
    assert json.loads(data.split(b"\r\n\r\n", 1)[1])["error"]["code"] == "timeout"
    assert waited < 20


def test_only_trusted_hosts_and_security_headers(client: httpx.Client) -> None:
    r = client.get("/api/catalog", headers={"Host": "evil.example"})
    assert _error(r, 400)["code"] == "bad_host"
    r = client.get("/api/catalog", headers={"Host": "rebind.attacker.test:8000"})
    assert _error(r, 400)["code"] == "bad_host"
    for path in ("/", "/api/catalog", "/static/app.js"):
        r = client.get(path, headers={"Host": "localhost:8000"})
        assert r.status_code == 200, path
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self';" in csp
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "no-referrer"
    assert client.get("/api/catalog", headers={"Host": "[::1]:1"}).status_code == 200


def test_the_sqlite_file_is_private(server: ServerProcess, db_url: str) -> None:
    if not db_url.startswith("sqlite"):
        pytest.skip("SQLite only")
    path = Path(db_url.split("///", 1)[1])
    assert path.exists()
    for name in (path, Path(f"{path}-wal")):
        if name.exists():
            assert stat.S_IMODE(name.stat().st_mode) == 0o600, name


def test_the_openapi_schema_is_exact(client: httpx.Client) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    game = schema["NewGame"]["properties"]["game"]
    assert sorted(game["enum"]) == sorted(game_ids())
    assert schema["NewGame"].get("additionalProperties") is False
    assert schema["DrawIn"]["properties"]["action"]["enum"] == ["offer", "accept", "decline",
                                                                 "withdraw"]
    assert schema["MoveIn"]["properties"]["move"]["type"] == "string"
    version = schema["MoveIn"]["properties"]["version"]["anyOf"]
    assert {"type": "integer", "minimum": 0} in version
    assert schema["ErrorBody"]["properties"]["error"]["$ref"].endswith("ErrorDetail")
    r = client.post("/api/games/x1/draw", json={"action": "surrender"})
    assert _error(r, 400)["code"] == "malformed"


def test_a_token_in_a_websocket_url_is_refused_and_never_logged(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", log=log,
                       args=["--log-level", "info"]) as srv:
        g = httpx.post(srv.url + "/api/games",
                       json={"game": "columns", "seats": ["human", "human"]}).json()
        token = g["seats"][0]["token"]
        url = srv.url.replace("http://", "ws://") + f"/api/games/{g['id']}/ws?token={token}"
        with pytest.raises(ws_errors.WebSocketException), ws_sync.connect(url) as w:
            w.recv(timeout=5)
        first = srv.url.replace("http://", "ws://") + f"/api/games/{g['id']}/ws?auth=first"
        with ws_sync.connect(first) as w:
            w.send(json.dumps({"type": "auth", "token": token}))
            assert json.loads(w.recv(timeout=10))["you"] == 0
    text = log.read_text()
    assert "/ws" in text  # the attempt is logged...
    assert token not in text  # ...without the token


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("hard", [False, True], ids=["sigterm", "sigkill"])
def test_workers_end_with_the_server_even_while_thinking(tmp_path: Path, hard: bool) -> None:
    log = tmp_path / "server.log"
    srv = ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", log=log).start()
    try:
        g = httpx.post(srv.url + "/api/games", json={
            "game": "columns", "seats": ["human", "mcts:time=5"]}).json()
        head = {"Authorization": f"Bearer {g['seats'][0]['token']}"}
        st = httpx.get(srv.url + f"/api/games/{g['id']}", headers=head).json()
        r = httpx.post(srv.url + f"/api/games/{g['id']}/moves", headers=head,
                       json={"move": st["legal"][0]})
        assert r.status_code == 200
        time.sleep(1.5)  # the computer is thinking in a worker process
        assert srv.proc is not None
        workers = [p for p in _children(srv.proc.pid)
                   if "multiprocessing" in Path(f"/proc/{p}/cmdline").read_text()]
        assert workers, "no worker process found"
    finally:
        srv.stop(hard=hard)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers), "a worker outlived the server"
    if not hard:  # after SIGKILL the resource tracker cleans up, and says so
        assert "leaked semaphore" not in log.read_text()
