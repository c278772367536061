"""plotly.js is served from the installed package: found, listed once (for collectstatic), and
the only file of the package that the site exposes."""

from __future__ import annotations

from pathlib import Path

from django.contrib.staticfiles import finders

from stats.staticfiles import PLOTLY_STATIC_PATH, PlotlyFinder


def test_plotly_is_found_under_its_static_path() -> None:
    found = finders.find(PLOTLY_STATIC_PATH)
    assert found and Path(found).name == "plotly.min.js"
    assert Path(found).read_bytes()[:200].count(b"plotly") >= 1
    assert finders.find("vendor/plotly/widgetbundle.js") is None


def test_collectstatic_lists_exactly_that_file() -> None:
    listed = [(path, storage.prefix) for path, storage in PlotlyFinder().list([])]
    assert listed == [("plotly.min.js", "vendor/plotly")]
