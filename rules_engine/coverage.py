"""Rule coverage: every rule ID of RULES.md's Versus sections and the tests that cite it.

Glossary: a *rule ID* is a stable label from ``../shared/rules/RULES.md`` (``AR-THR-1``,
``TV-CB-04``, ``C10``). The *Versus sections* are §0-§10 and §13 (team modes §11 and Training
§12 are later issues). A test *cites* an ID by writing it in its docstring or body with hyphens
(``AR-THR-1``; IDs inside string data do not count) or at the end of its name after a double
underscore, with underscores
(``def test_throw_beats_block__AR_THR_1_M_THROW_BLOCK``).

Responsibility: extracting IDs from the rules text (or the committed snapshot
``data/versus_rule_ids.json`` when the rules are not beside the repository) and matching them to
tests. Uncited IDs are the issue's remaining work.
"""

from __future__ import annotations

import ast
import io
import json
import re
import textwrap
import tokenize
from importlib import resources
from pathlib import Path

VERSUS_SECTIONS = {str(n) for n in range(11)} | {"13"}
_ID = r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*"
_LINE_ID = re.compile(rf"^(?:- \*\*({_ID})\*\*|\| ({_ID}) \|)")
_SECTION = re.compile(r"^## (\d+)\.")


def rule_ids_from_text(text: str) -> list[str]:
    """The rule IDs defined in the Versus sections of RULES.md, in document order."""
    ids: list[str] = []
    section = None
    for line in text.splitlines():
        m = _SECTION.match(line)
        if m:
            section = m.group(1)
            continue
        if line.startswith("## ") and not line.startswith("## Appendix"):
            section = None
        if line.startswith("## Appendix"):
            section = None
        if section not in VERSUS_SECTIONS:
            continue
        m = _LINE_ID.match(line)
        if m:
            rid = m.group(1) or m.group(2)
            if rid != "ID" and (any(ch.isdigit() for ch in rid) or "-" in rid) \
                    and rid not in ids:
                ids.append(rid)
    return ids


def snapshot_ids() -> list[str]:
    text = resources.files("rules_engine").joinpath("data/versus_rule_ids.json").read_text(
        "utf-8")
    ids: list[str] = json.loads(text)["ids"]
    return ids


def load_rule_ids(rules_path: Path | None) -> tuple[list[str], str]:
    """IDs from ``rules_path`` if it exists, else the shipped snapshot; and where they came from."""
    if rules_path is not None and rules_path.exists():
        return rule_ids_from_text(rules_path.read_text(encoding="utf-8")), str(rules_path)
    return snapshot_ids(), "snapshot rules_engine/data/versus_rule_ids.json"


def citations(test_dir: Path, ids: list[str]) -> dict[str, list[str]]:
    """Map each ID to the tests (``file::function``) citing it."""
    known = set(ids)
    by_underscore = {rid.replace("-", "_"): rid for rid in ids}
    longest_first = sorted(by_underscore, key=len, reverse=True)
    patterns = {rid: re.compile(rf"(?<![A-Za-z0-9-]){re.escape(rid)}(?![A-Za-z0-9-])")
                for rid in ids}
    out: dict[str, list[str]] = {rid: [] for rid in ids}
    for path in sorted(test_dir.glob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test"):
                continue
            label = f"{path.name}::{node.name}"
            found: set[str] = set()
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            segment = "\n".join(source.splitlines()[start - 1:node.end_lineno])
            prose = _prose(segment, ast.get_docstring(node) or "")
            found |= {rid for rid, pat in patterns.items() if pat.search(prose)}
            if "__" in node.name:
                tail = node.name.split("__", 1)[1]
                found |= _parse_tail(tail, longest_first, by_underscore)
            for rid in found & known:
                out[rid].append(label)
    return out


def _prose(segment: str, docstring: str) -> str:
    """A test's docstring and comments: where it says which rules it checks. Rule IDs inside
    string data (a list of IDs to look up, say) are not citations."""
    comments = [docstring]
    try:
        for tok in tokenize.generate_tokens(io.StringIO(textwrap.dedent(segment)).readline):
            if tok.type == tokenize.COMMENT:
                comments.append(tok.string)
    except (tokenize.TokenError, IndentationError):
        pass
    return "\n".join(comments)


def _parse_tail(tail: str, longest_first: list[str], by_underscore: dict[str, str]) -> set[str]:
    found: set[str] = set()
    pos = 0
    while pos < len(tail):
        for u in longest_first:
            end = pos + len(u)
            if tail.startswith(u, pos) and (end == len(tail) or tail[end] == "_"):
                found.add(by_underscore[u])
                pos = end + 1
                break
        else:
            nxt = tail.find("_", pos)
            if nxt < 0:
                break
            pos = nxt + 1
    return found
