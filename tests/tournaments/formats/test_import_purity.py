"""tournaments.formats is pure: importing it (and running the bench) loads no Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_importing_every_formats_module_loads_no_django():
    # given a fresh interpreter without Django settings
    code = (
        "import importlib, pkgutil, sys, tournaments.formats as f\n"
        "names = [m.name for m in pkgutil.walk_packages(f.__path__, 'tournaments.formats.')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in "
        "{'django', 'rest_framework', 'celery', 'matches', 'rules_engine', 'yomi_site'})\n"
        "print(len(names), ','.join(bad) or 'clean')\n"
    )
    # when
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )
    # then
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "7 clean"
