"""The one Chromium for the browser tests: Debian's package driven by Playwright (its own
browser downloads are never used). ``tests/conftest.py`` exposes it as the ``browser`` fixture.

Without Playwright or Chromium the tests are skipped, unless ``YOMI_REQUIRE_SERVICES=1`` (CI),
where that is a failure: a missing browser never passes as a green run.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
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


# The site's Content-Security-Policy (script-src 'self') forbids what Playwright's
# wait_for_function and add_script_tag do inside the page (an eval, an inline script); a
# page.evaluate goes through the browser's debugging protocol, which the policy does not cover,
# so the tests poll and inject through it and the pages keep their policy.
AXE_SOURCE = (Path(__file__).resolve().parents[1] / "yomi_site" / "axe" / "axe.min.js").read_text()


def wait_until(page: Any, predicate: str, arg: Any = None, timeout: float = 10.0) -> None:
    """Wait until ``predicate`` (a JavaScript expression or function of ``arg``) is true."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {predicate}")
        page.wait_for_timeout(50)


def inject_axe(page: Any) -> None:
    """axe-core (vendored, MPL-2.0) into the page, as ``window.axe``."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SOURCE)
