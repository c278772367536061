"""Values that came from a log, made storable in PostgreSQL whatever characters the log used."""

from __future__ import annotations

import json
from typing import Any


def text_storable(value: str) -> str:
    """``value`` without the characters PostgreSQL refuses, each replaced by U+FFFD.

    ``\\u0000`` is valid JSON and a valid Python string, but ``jsonb`` and ``text`` columns
    reject it; a lone surrogate (``\\ud800``) cannot be encoded as UTF-8 at all. Replacing them
    visibly keeps a verdict or a divergence that names them storable and readable.
    """
    if "\x00" in value:
        value = value.replace("\x00", "\ufffd")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        value = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in value)
    return value


def json_storable(value: Any) -> Any:
    r"""``value`` (JSON-ready data) with every string and key passed through ``text_storable``.

    Most values have nothing to replace, and are returned as they are: their JSON (ASCII
    escaped, so every ``\x00`` is written ``\u0000`` and every surrogate ``\udXXX``) has
    neither; that check is C code, where walking a verdict's timeline in Python took longer
    than the replay's own timeline. Anything else (a look-alike included) is walked.
    """
    if not isinstance(value, str):
        try:
            encoded = json.dumps(value)
        except (TypeError, ValueError):
            encoded = "\\u0000"  # not plain JSON data: walk it
        if "\\u0000" not in encoded and "\\ud" not in encoded:
            return value
    return _storable(value)


def json_storable_from(text: str, value: Any) -> Any:
    r"""``json_storable(value)`` for data computed from the JSON text ``text`` (a verdict, a
    timeline): ``value`` as it is when the text is ASCII without a ``\u`` escape or a NUL.
    Nothing decoded from such a text can hold a NUL or a lone surrogate (only ``\u`` escapes
    make them), and the engine writes none of its own, so the walk or the ``json.dumps`` of
    ``json_storable`` (a third of a millisecond a log for a timeline) is not needed."""
    if text.isascii() and "\\u" not in text and "\x00" not in text:
        return value
    return json_storable(value)


def _storable(value: Any) -> Any:
    if isinstance(value, str):
        return text_storable(value)
    if isinstance(value, dict):
        return {_storable(k): _storable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_storable(v) for v in value]
    return value
