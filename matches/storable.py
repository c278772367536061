"""Values that came from a log, made storable in PostgreSQL whatever characters the log used."""

from __future__ import annotations

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
    """``value`` (JSON-ready data) with every string and key passed through ``text_storable``."""
    if isinstance(value, str):
        return text_storable(value)
    if isinstance(value, dict):
        return {json_storable(k): json_storable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_storable(v) for v in value]
    return value
