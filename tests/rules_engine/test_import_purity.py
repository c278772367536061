"""The rules engine is pure Python: importing it loads neither Django nor a project app."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_importing_every_rules_engine_module_loads_no_django() -> None:
    code = (
        "import importlib, pkgutil, sys, rules_engine\n"
        "for m in pkgutil.walk_packages(rules_engine.__path__, 'rules_engine.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in "
        "{'django', 'rest_framework', 'celery', 'matches', 'tournaments', 'yomi_site', 'health'})\n"
        "print(','.join(bad) or 'clean')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "clean"

