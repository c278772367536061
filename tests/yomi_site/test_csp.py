"""The Content-Security-Policy (issue 31, item 8): every page carries it, scripts come only
from the site, and no page relies on an inline script or handler (which the policy blocks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.django_db

# an executable inline script: a <script> without src= (a JSON data block is not executed)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def _directives(header: str) -> dict[str, list[str]]:
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.parametrize("path", ["/", "/matches/", "/events/", "/api/docs/", "/stats/"])
def test_pages_carry_a_policy_that_allows_scripts_from_the_site_only(path) -> None:
    response = Client().get(path)
    assert response.status_code == 200
    policy = _directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    html = response.content.decode()
    assert not INLINE_SCRIPT.search(html), INLINE_SCRIPT.search(html)
    assert not INLINE_HANDLER.search(html), INLINE_HANDLER.search(html)


def test_no_template_holds_an_inline_script_or_handler() -> None:
    found = []
    for template in Path(REPO_ROOT, "templates").rglob("*.html"):
        text = template.read_text()
        # json_script renders a data block; any other <script> must name a file
        for pattern in (INLINE_SCRIPT, INLINE_HANDLER):
            found += [f"{template.name}: {m.group(0)}" for m in pattern.finditer(text)]
    assert not found, found


def test_the_swagger_page_loads_its_start_up_script_as_a_file() -> None:
    html = Client().get("/api/docs/").content.decode()
    sources = re.findall(r'<script[^>]*src="([^"]+)"', html)
    assert any("script" in src for src in sources), sources
    assert Client().get(next(s for s in sources if "?script" in s or "script=" in s)
                        ).status_code == 200
