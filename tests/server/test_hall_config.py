"""The lecture hall's configuration files (issue 29), checked without starting the hall:
HAProxy accepts both configurations (``haproxy -c``: the one ``scripts/hall.py`` writes, and
``deploy/haproxy-compose.cfg``), and both keep the same rules; ``compose.yaml`` states the same
three parts (docs/classroom-server.md says it is not run here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import hall  # noqa: E402

HAPROXY = Path("/usr/sbin/haproxy")
#: What both configurations must say (the rules the tests measured on the hall).
RULES = (
    "timeout tunnel 4h",
    "option http-no-delay",
    "option redispatch",
    "option httpchk GET /_stcore/health",
    "http-check expect string ok",
    "cookie BLSRV insert indirect nocache httponly",
    "balance leastconn",
    # a process that stops answering loses its connections once it is marked down: streams
    # and websockets reconnect elsewhere, a request waiting on it fails at once (issue 40,
    # item 9; tests/server/test_hall.py freezes a process)
    "on-marked-down shutdown-sessions",
)
#: Never in either: HAProxy retrying a request that reached a process (``retry-on`` beyond its
#: default, a connection that failed before the request was sent) would send a POST twice;
#: the page retries its own answers.
NEVER = ("retry-on",)


def _check(cfg: Path) -> None:
    if not HAPROXY.exists():
        pytest.skip("Debian haproxy is not installed (apt-get install haproxy)")
    got = subprocess.run([str(HAPROXY), "-c", "-f", str(cfg)], capture_output=True, text=True)
    assert got.returncode == 0, got.stdout + got.stderr


def test_the_halls_configuration_is_valid_and_keeps_the_rules(tmp_path) -> None:
    text = hall.haproxy_config("127.0.0.1", 8501, [("app1", 9001), ("app2", 9002)])
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(text)
    _check(cfg)
    for rule in RULES:
        assert rule in text, rule
    for rule in NEVER:
        assert rule not in text, rule
    assert "server app1 127.0.0.1:9001 check cookie app1" in text


def test_the_compose_configuration_is_valid_and_keeps_the_same_rules() -> None:
    cfg = ROOT / "deploy" / "haproxy-compose.cfg"
    _check(cfg)
    text = cfg.read_text()
    for rule in RULES:
        assert rule in text, rule
    for rule in NEVER:
        assert rule not in text, rule


def test_compose_states_redis_the_app_and_haproxy() -> None:
    import yaml

    spec = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    assert set(spec) == {"redis", "app", "haproxy"}
    assert "--appendonly" in spec["redis"]["command"]
    assert spec["app"]["environment"]["BOOSTLAB_REDIS_URL"] == "redis://redis:6379/0"
    assert spec["app"]["deploy"]["replicas"] >= 2
    assert any("haproxy-compose.cfg" in v for v in spec["haproxy"]["volumes"])
