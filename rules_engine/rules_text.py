"""Rule texts: the words of every rule ID in RULES.md, for pages that cite rules.

Glossary: a *rule ID* is a RULES.md identifier such as ``AR-THR-1``, ``C7``, ``KD-5``,
``M-THROW-BLOCK`` or ``TV-CB-04`` (RULES.md §0.3). Its *text* is the rule's wording as plain
words: no markdown emphasis, no citing source tags (``[RB; FAQ Q1]``), cross-references such as
``(M-THROW-THROW-TIE)`` kept, and no final full stop. A table row (the §4.4 matrix, the CT
follow table, test vectors, conflicts, ...) reads as one sentence built from its cells.

Responsibility: look texts up in ``rules_engine/data/rules_text.json``, which
``rules_engine/tools/build_rules_text.py`` generates from ``docs/rules/RULES.md``. The
package never reads RULES.md at run time (an installed package has no ``docs/``); the file is
loaded once, on first use.

>>> rule_text("KD-7")
'Double knockdown: If both players would be knocked down in the same combat, neither is'
>>> rule_text("NO-SUCH-RULE") is None
True
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

__all__ = ["all_rule_texts", "rule_text"]


@cache
def all_rule_texts() -> MappingProxyType[str, str]:
    """Every rule ID with its text, in RULES.md order (read-only; loaded on first call)."""
    raw: Any = json.loads(
        resources.files("rules_engine").joinpath("data/rules_text.json").read_text("utf-8"))
    if not isinstance(raw, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in raw.items()):
        raise ValueError("rules_text.json must map rule IDs to texts")
    return MappingProxyType(dict(raw))


def rule_text(rule_id: str) -> str | None:
    """The words of ``rule_id`` (e.g. ``"KD-5"``), or None for an ID RULES.md does not define.

    IDs are matched exactly: RULES.md writes them in upper case.
    """
    return all_rule_texts().get(rule_id)
