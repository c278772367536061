"""The one Chromium for the browser tests: Debian's package driven by Playwright (its own
browser downloads are never used). ``tests/conftest.py`` exposes it as the ``browser`` fixture.

Without Playwright or Chromium the tests are skipped, unless ``YOMI_REQUIRE_SERVICES=1`` (CI),
where that is a failure: a missing browser never passes as a green run.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("YOMI_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def chromium(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    problem = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        problem = "the playwright package is not installed"
    if problem is None and not shutil.which(CHROMIUM):
        problem = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if problem:
        if os.environ.get("YOMI_REQUIRE_SERVICES", "") in {"1", "true", "yes"}:
            pytest.fail(f"YOMI_REQUIRE_SERVICES=1 but {problem}", pytrace=False)
        pytest.skip(problem)
    # Playwright's sync API runs an event loop in this thread; the ORM calls made here while it
    # runs are plain synchronous ones.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
