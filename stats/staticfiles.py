"""Serve plotly.js from the installed ``plotly`` package as ``vendor/plotly/plotly.min.js``.

The package pins the JavaScript to the Python release in pyproject.toml, so there is no CDN and
no copy in the repository; only that one file is exposed (the package directory also holds
data sets and templates that the site does not need).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import plotly
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

PLOTLY_DIR = Path(plotly.__file__).resolve().parent / "package_data"
PLOTLY_FILE = "plotly.min.js"
PLOTLY_STATIC_PATH = f"vendor/plotly/{PLOTLY_FILE}"


class PlotlyFinder(BaseFinder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.storage = FileSystemStorage(location=str(PLOTLY_DIR))
        self.storage.prefix = "vendor/plotly"  # type: ignore[attr-defined]

    def check(self, **kwargs: Any) -> list[Any]:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> str | list[str]:
        if path == PLOTLY_STATIC_PATH:
            found = str(PLOTLY_DIR / PLOTLY_FILE)
            return [found] if find_all or kwargs.get("all") else found
        return []  # Django's convention for "not here", whatever find_all says

    def list(self, ignore_patterns: Any) -> Any:
        yield PLOTLY_FILE, self.storage
