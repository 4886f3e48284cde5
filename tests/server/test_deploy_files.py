"""compose.yaml and docs/DEPLOY.md (issue 20): the compose file parses, has PostgreSQL, several
``rulebox serve`` services and a proxy whose upstream is exactly those services, with WebSocket
upgrade; the serve command line is one ``rulebox serve`` accepts; ``$`` meant for nginx or the
shell is escaped from compose's interpolation."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from rulebox.cli.serve import add_arguments

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"


def load() -> dict[str, Any]:
    """The compose file, by PyYAML when installed (with its merge keys), else the test skips
    after a careful look at the text alone (:func:`test_compose_text_without_yaml`)."""
    yaml = pytest.importorskip("yaml")
    data = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(data, dict)
    return data


def servers(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in data["services"].items() if re.fullmatch(r"rulebox-\d+", k)}


def test_compose_services() -> None:
    data = load()
    names = set(data["services"])
    assert {"postgres", "proxy"} <= names
    assert len(servers(data)) >= 2
    assert names == {"postgres", "proxy", *servers(data)}
    pg = data["services"]["postgres"]
    assert pg["image"].startswith("postgres:") and "healthcheck" in pg
    assert "pgdata" in data["volumes"]


def test_each_server_runs_rulebox_serve_on_the_shared_postgres() -> None:
    data = load()
    for name, svc in servers(data).items():
        command = svc["command"]
        script = command[-1] if isinstance(command, list) else command
        serve = script[script.index("rulebox serve"):]
        env = {k: f"<{k}>" for k in svc["environment"]}
        words = shlex.split(serve.replace("$$", "$"))
        words = [env.get(w.lstrip("$"), w) for w in words]
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        args = parser.parse_args(words[2:])  # a command line rulebox serve accepts
        assert args.host == "0.0.0.0" and args.port == 8000, name
        assert args.db == "<RULEBOX_DB>"
        assert "@postgres:5432/" in svc["environment"]["RULEBOX_DB"]
        assert svc["environment"]["RULEBOX_DB"].startswith("postgresql://")
        assert svc["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert "/readyz" in " ".join(svc["healthcheck"]["test"])


def test_the_proxy_balances_every_server_and_upgrades_websockets() -> None:
    data = load()
    proxy = data["services"]["proxy"]
    sources = [c["source"] for c in proxy["configs"]]
    conf = data["configs"][sources[0]]["content"]
    upstream = re.search(r"upstream rulebox \{(.*?)\}", conf, re.DOTALL)
    assert upstream is not None
    assert set(re.findall(r"server (rulebox-\d+):8000", upstream.group(1))) == set(
        servers(data))
    assert set(proxy["depends_on"]) == set(servers(data))
    ws = re.search(r"location ~ \^/api/games/.*?/ws\$\$ \{(.*?)\}", conf, re.DOTALL)
    assert ws is not None
    for line in ("proxy_http_version 1.1", "proxy_set_header Upgrade $$http_upgrade",
                 "proxy_set_header Connection $$connection_upgrade", "proxy_read_timeout"):
        assert line in ws.group(1)
    assert re.search(r"location = /metrics \{[^}]*deny all", conf)


def test_dollars_are_escaped_from_compose() -> None:
    """Compose replaces ``$NAME`` and ``${NAME...}``: what nginx and the shell must see is
    written ``$$``; the only single ``$`` are compose's own ``${VAR:-default}``."""
    text = COMPOSE.read_text()
    singles = re.findall(r"(?<!\$)\$(?!\$)(\{[A-Z_]+(?::-[^}]*)?\}|.)", text.replace("$$", ""))
    assert singles and all(s.startswith("{") for s in singles), singles


def test_compose_text_without_yaml() -> None:
    """What holds without a YAML parser: no tabs, the top-level keys, the service names."""
    text = COMPOSE.read_text()
    assert "\t" not in text
    top = re.findall(r"^([a-z][\w-]*):", text, re.MULTILINE)
    assert {"services", "volumes", "configs", "name"} <= set(top)
    for name in ("postgres", "rulebox-1", "rulebox-2", "proxy"):
        assert re.search(rf"^  {name}:$", text, re.MULTILINE), name


def test_deploy_doc_names_the_parts() -> None:
    doc = (ROOT / "docs" / "DEPLOY.md").read_text()
    for needle in ("compose.yaml", "--workers", "proxy_set_header Upgrade", "/readyz",
                   "/metrics", "LISTEN", "--pubsub"):
        assert needle in doc, needle
