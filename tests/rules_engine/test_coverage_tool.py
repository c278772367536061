"""The rule-coverage command: rule IDs from RULES.md (or the snapshot) and how tests cite them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_engine.cli import DEFAULT_RULES
from rules_engine.coverage import citations, load_rule_ids, rule_ids_from_text, snapshot_ids

RULES = """# Spec
## 3. Turn structure
- **T1** Start of turn.
| ID | Step |
|---|---|
| DP-1 | T3 |
## 11. Team modes
- **TT-1** not a Versus rule.
## 13. Open questions
| OQ-01 | Both defeated at once | Draw |
"""


def test_ids_come_from_the_versus_sections_only() -> None:
    assert rule_ids_from_text(RULES) == ["T1", "DP-1", "OQ-01"]


def test_snapshot_matches_rules_md_when_present() -> None:
    if not DEFAULT_RULES.exists():
        pytest.skip("../shared/rules/RULES.md is not beside the repository")
    assert snapshot_ids() == rule_ids_from_text(DEFAULT_RULES.read_text(encoding="utf-8"))


def test_missing_rules_file_falls_back_to_the_snapshot(tmp_path: Path) -> None:
    ids, source = load_rule_ids(tmp_path / "nope.md")
    assert ids == snapshot_ids() and "snapshot" in source


def test_names_docstrings_and_comments_cite_but_string_data_does_not(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        'def test_a__AR_THR_1_M_THROW_BLOCK():\n'
        '    """Checks CB-3."""\n'
        '    ids = ["PU-2"]\n'
        '    assert ids  # and KD-1\n', encoding="utf-8")
    cited = citations(tmp_path, ["AR-THR-1", "M-THROW-BLOCK", "M-THROW", "CB-3", "PU-2", "KD-1"])
    assert {rid for rid, tests in cited.items() if tests} == {
        "AR-THR-1", "M-THROW-BLOCK", "CB-3", "KD-1"}


def test_ids_without_hyphens_are_cited_from_docstrings(tmp_path: Path) -> None:
    (tmp_path / "test_y.py").write_text(
        'def test_b():\n    """C10: the winner continues."""\n', encoding="utf-8")
    assert citations(tmp_path, ["C10", "C1"]) == {"C10": ["test_y.py::test_b"], "C1": []}
