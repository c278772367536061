"""docs/deploy.md's table of environment variables names every variable the settings and the
engine's build choice read, and only those (and Compose's own POSTGRES_PASSWORD)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.yomi_site.test_docker_compose import compose_interpolated_vars, settings_env_vars

REPO = Path(__file__).resolve().parents[2]


def documented() -> set[str]:
    text = (REPO / "docs" / "deploy.md").read_text()
    table = text.split("## Environment variables", 1)[1]
    names: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            names |= set(re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1]))
    return names


def test_every_variable_read_is_documented_and_nothing_else() -> None:
    read = settings_env_vars() | {"YOMI_ENGINE", "DJANGO_SETTINGS_MODULE"}
    assert '"YOMI_ENGINE"' in (REPO / "rules_engine" / "build.py").read_text()
    assert documented() - compose_interpolated_vars() == read
