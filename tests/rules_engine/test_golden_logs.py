"""Golden logs (tests/rules_engine/data/*.yomilog): a log and its expected verdict, so a rules
change appears as a diff in a data file (docs/style.md D, example 10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_engine.replay import replay

DATA = Path(__file__).parent / "data"
GOLDEN = sorted(DATA.glob("*.yomilog"))


def test_there_are_golden_logs() -> None:
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_log_verdict(path: Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    verdict = replay(golden["log"]).to_dict()
    expected = golden["expected"]
    assert verdict["status"] == expected["status"]
    for key in ("final", "first_error"):
        if key in expected:
            got = {k: verdict[key][k] for k in expected[key]}
            assert got == expected[key]
