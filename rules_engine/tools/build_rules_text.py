"""Build `rules_engine/data/rules_text.json` (rule ID -> the rule's words) from RULES.md.

Glossary: a *bullet rule* is a line ``- **ID** text`` (continued on indented lines); a *table
rule* is a table row whose first cell is a rule ID (``| M-THROW-BLOCK | throw vs block | ...``);
a *source tag* is a bracketed citation such as ``[RB; FAQ Q1]`` (RULES.md §0.1).

Responsibility: turn the normative text into plain sentences a match page can show next to a
rule ID: markdown emphasis and code marks are dropped, source tags that merely cite are removed,
tags used as words in a sentence ("[CL] gives no way ...") keep their short name ("CL"), a bullet's
parenthesised title becomes a lead ("Return: A block card ..."), and a table row becomes one
sentence built from its cells under the table's headers. Cross-references such as
``(M-THROW-THROW-TIE)`` are kept. Every text has its final full stop removed, so a caller can
place it in a sentence or a tooltip. The engine reads only the JSON this writes, never
RULES.md itself (:mod:`rules_engine.rules_text`).

Usage: ``python -m rules_engine.tools.build_rules_text [RULES_MD] [OUT_JSON]``
(defaults: the project's ``docs/rules/RULES.md`` and the committed data file).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_SOURCE = REPO / "docs" / "rules" / "RULES.md"
DEFAULT_OUT = REPO / "rules_engine" / "data" / "rules_text.json"

RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*$")
_BULLET = re.compile(r"^- \*\*(?P<id>[A-Z][A-Z0-9-]*)\*\*\s*(?P<text>.*)$")

# The source documents of RULES.md §0.1. A tag used as a word keeps its short name ("CL's"),
# which reads in any grammar ("the literal RB wording", "every source except CL").
SOURCES = ("RB", "QR", "FAQ", "CL", "DE")
_TAG = re.compile(r"\[(?P<body>(?:RB|QR|FAQ|CL|DE)\b[^\]]*)\]")


# ---------------------------------------------------------------------------- text cleaning


def _strip_tags(text: str) -> str:
    """Remove citing source tags; a tag used as a word keeps its short name.

    A tag cites when it starts the text or is followed by the end, punctuation or a
    parenthesised cross-reference ("... [RB] (CB-3)"); otherwise it is part of the sentence
    ("[CL] gives no way", "[CL]'s \"no draws\"", "the [RB] 2v2 text").
    """
    out: list[str] = []
    pos = 0
    for m in _TAG.finditer(text):
        before = text[:m.start()]
        after = text[m.end():]
        out.append(text[pos:m.start()])
        pos = m.end()
        prev = before.rstrip()[-1:]
        noun_after = prev in ">/(:" or before.endswith("except ")
        cites = (not before.strip()) or (not noun_after and (
            after == "" or after[0] in ".,;:)]" or after.startswith((" (", " ["))))
        if cites:
            continue
        out.append(m.group("body").split()[0])
    out.append(text[pos:])
    return "".join(out)


def clean(text: str) -> str:
    """Plain words: no source tags, emphasis, code marks or table escapes; tidy spacing."""
    text = text.replace("\\|", "|")
    text = _strip_tags(text)
    text = text.replace("**", "")
    # Italics: *Draw Phase* -> Draw Phase. A lone star (as in "M-*") has no partner and stays.
    text = re.sub(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])", r"\1", text)
    text = text.replace("`", "")
    text = re.sub(r"\s+", " ", text).strip()
    # Removing a tag can leave "word ." or "( x" behind.
    text = re.sub(r"\s+([.,;:)])", r"\1", text)
    text = re.sub(r"\(\s+", "(", text)
    text = re.sub(r"\.\.$", ".", text)
    # A cell that began with a citing tag ("[DE ...]. RB says ...") keeps only what follows.
    text = re.sub(r"^[.,;:]\s*", "", text)
    return text


def _no_final_stop(text: str) -> str:
    return text[:-1] if text.endswith(".") and not text.endswith("..") else text


def _lead(title: str) -> str:
    return title[0].upper() + title[1:] if title else title


def bullet_text(raw: str) -> str:
    """A bullet rule's words; a leading "(title)" or "(title)." becomes "Title: "."""
    text = clean(raw)
    if text.startswith("("):
        depth = 0
        for i, ch in enumerate(text):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                title, rest = text[1:i], text[i + 1:].lstrip(".").strip()
                if rest:
                    text = f"{_lead(title)}: {rest}"
                break
    return _no_final_stop(text)


# ---------------------------------------------------------------------------- tables


def _none(cell: str) -> str:
    """A table's dash means "nothing": "—" -> "none", "— (block discarded)" -> "none (...)"."""
    if cell.startswith("—"):
        return ("none " + cell[1:].strip()).strip()
    return cell


def _sentence(*parts: str) -> str:
    """Join sentence parts with ". " without doubling a part's own full stop."""
    kept = [p.rstrip(".") if i < len(parts) - 1 else p for i, p in enumerate(parts) if p]
    return ". ".join(kept)


Row = Sequence[str]
Formatter = Callable[[Row], str]


def _matrix(c: Row) -> str:
    return _sentence(f"{c[0]}: {c[1]}", f"Draws: {_none(c[2])}", f"Damage: {_none(c[3])}",
                     f"Follow-up: {_none(c[4])}", f"Returns to hand: {_none(c[5])}")


def _conflict(c: Row) -> str:
    names = ("RB", "QR/FAQ", "DE", "CL")
    said = [f"{n}: {v}" for n, v in zip(names, c[1:5], strict=True) if v not in ("—", "")]
    return _sentence(c[0], *said, f"Default → option: {c[5]}")


def _rewind_table(c: Row) -> str:
    verdict = c[1].lower()
    extra = ""
    if " (" in verdict:
        verdict, extra = verdict.split(" (", 1)
        extra = " (" + extra
    return f"Lost to {c[0]}: the loser {verdict} place a Rewind/bluff card{extra}"


def _follow(c: Row) -> str:
    # CT-FIRST's "previous move" is a parenthesised description, not a move.
    lead = _lead(c[0][1:-1].replace(": ", ", ")) if c[0].startswith("(") else f"After {c[0]}"
    text = f"{lead}: may be followed by {c[1]}"
    return text if c[2] == "—" else f"{text}; may not be followed by {c[2]}"


# Keyed by the table's header cells after "ID"; each renders one row (ID cell removed).
TABLES: dict[tuple[str, ...], Formatter] = {
    ("Term", "Definition"): lambda c: f"{c[0]}: {c[1]}",
    ("Step", "Who decides", "Choice", "Hidden until"):
        lambda c: f"At {c[0]}, {c[1]} decides: {c[2]}. Hidden until: {c[3]}",
    ("X vs Y", "Winner / hits", "Draws (C7\u2013C8)", "Damage at C8", "Follow-up (C9\u2013C10)",
     "Returns to hand"): _matrix,
    ("Situation", "Resolution"): lambda c: f"{_lead(c[0])}: {c[1]}",
    ("Previous move", "May be followed by", "May not be followed by"): _follow,
    ("Combo (first = combat card)", "Expected", "Rule(s)"):
        lambda c: f"{c[0]}: {c[1]} ({c[2]})",
    ("The loser lost to …", "Rewind/bluff?", "Source"): _rewind_table,
    ("Situation", "Expected"): lambda c: f"{_lead(c[0])}: {c[1]}",
    ("Test", "Expected"): lambda c: f"{_lead(c[0])}: {c[1]}",
    ("Condition", "Result"): lambda c: f"{_lead(c[0])}: {c[1]}",
    ("Topic", "RB", "QR/FAQ", "DE", "CL", "Default → option"): _conflict,
    ("Tag / window", "Where", "Rule"): lambda c: f"{c[0]} window ({c[1]}): {c[2]}",
    ("Ruling (paraphrased)",): lambda c: c[0],
    ("You won with …", "You swapped", "You did not swap"):
        lambda c: f"You won with {c[0]}. If you swapped: {c[1]}. If you did not swap: {c[2]}",
    ("Character", "Bot rule changes"): lambda c: f"{c[0]} bot: {c[1]}",
    ("Question", "Recommended resolution"):
        lambda c: f"{c[0]} Recommended resolution: {c[1]}",
}


def _cells(line: str) -> list[str]:
    body = line.strip()[1:]
    body = body[:-1] if body.endswith("|") else body
    # "\|" is a pipe inside a cell (CF-04), not a column separator.
    return [c.replace("\0", "\\|").strip() for c in body.replace("\\|", "\0").split("|")]


def _generic(headers: Sequence[str]) -> Formatter:
    def fmt(c: Row) -> str:
        return _sentence(*(f"{h}: {v}" for h, v in zip(headers, c, strict=False)))
    return fmt


# ---------------------------------------------------------------------------- parsing


def parse(markdown: str) -> dict[str, str]:
    """Every rule ID of RULES.md with its text, in document order.

    Raises ValueError for an ID defined twice or a rule left without words, so a change in
    RULES.md's layout fails loudly here instead of shipping empty texts.
    """
    rules: dict[str, str] = {}

    def add(rule_id: str, text: str) -> None:
        if rule_id in rules:
            raise ValueError(f"{rule_id} is defined twice in RULES.md")
        if not text:
            raise ValueError(f"{rule_id} has no text")
        rules[rule_id] = text

    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        bullet = _BULLET.match(line)
        if bullet:
            parts = [bullet.group("text")]
            i += 1
            # Continuation lines are indented; a blank line or a new bullet ends the rule.
            while i < len(lines) and lines[i].startswith((" ", "\t")) and lines[i].strip():
                parts.append(lines[i].strip())
                i += 1
            add(bullet.group("id"), bullet_text(" ".join(parts)))
            continue
        if line.startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            # Headers are matched raw: cleaning would drop the CF table's "[RB]" columns.
            headers = [h.replace("**", "") for h in _cells(line)]
            i += 2
            fmt: Formatter | None = None
            if headers and headers[0] == "ID":
                key = tuple(h.strip("[]").replace("]/[", "/") for h in headers[1:])
                # Header words may carry a source tag ("Bot rule changes [RB]"): match without.
                key = tuple(re.sub(r"\s*\[[^\]]*\]$", "", h) for h in key)
                fmt = TABLES.get(key, _generic([clean(h) for h in headers[1:]]))
            while i < len(lines) and lines[i].startswith("|"):
                cells = _cells(lines[i])
                i += 1
                if fmt is None or not RULE_ID.match(cells[0]):
                    continue
                row = [clean(c) for c in cells[1:]]
                add(cells[0], _no_final_stop(clean(fmt(row))))
            continue
        i += 1
    return rules


def build(source: Path, out: Path) -> dict[str, str]:
    rules = parse(source.read_text(encoding="utf-8"))
    out.write_text(render(rules), encoding="utf-8")
    return rules


def render(rules: dict[str, str]) -> str:
    """The committed file's exact bytes (sorted keys are not used: document order reads better)."""
    return json.dumps(rules, ensure_ascii=False, indent=1) + "\n"


def main(argv: Sequence[str]) -> int:
    source = Path(argv[0]) if argv else DEFAULT_SOURCE
    out = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUT
    rules = build(source, out)
    print(f"wrote {len(rules)} rule texts to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
