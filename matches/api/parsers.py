"""A JSON parser that refuses, with a 400 naming where, what Python's parser would turn into a 500.

Python's ``json`` recurses once per nesting level: a body nested ~1,000 deep raises
RecursionError in the parser, before any view code runs. And it accepts ``"\\ud800"`` (a lone
surrogate), a string that cannot be encoded as UTF-8 and fails later wherever it is written. So
the body's nesting depth is measured first, without recursion, and every string and key of the
parsed document is checked to be real Unicode text.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

DEFAULT_MAX_DEPTH = 64  # a match log nests 4 deep; any API body far less than 64


def json_depth_check(text: str, max_depth: int) -> None:
    """Raise ParseError if arrays/objects nest deeper than ``max_depth`` (strings are skipped)."""
    depth = 0
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                raise ParseError(
                    f"JSON nested deeper than {max_depth} levels (at character {index})"
                )
        elif char in "]}":
            depth -= 1


def _has_lone_surrogate(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def json_text_check(value: Any, path: str = "$") -> None:
    """Raise ParseError naming the JSON path of the first string or key that is not Unicode text.

    Recursive, but only over documents already known to nest at most ``max_depth`` levels.
    """
    if isinstance(value, str):
        if _has_lone_surrogate(value):
            raise ParseError(f"{path}: a lone UTF-16 surrogate is not text")
    elif isinstance(value, dict):
        for key, item in value.items():
            if _has_lone_surrogate(key):
                raise ParseError(f"{path}: a key holds a lone UTF-16 surrogate, which is not text")
            json_text_check(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            json_text_check(item, f"{path}[{i}]")


class SafeJSONParser(JSONParser):
    """DRF's JSON parser with a nesting limit (``YOMI_JSON_MAX_DEPTH``) and a text check."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        if stream is None:
            return None
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(f"JSON parse error - the body is not {encoding} text "
                             f"(byte {exc.start})") from None
        json_depth_check(text, getattr(settings, "YOMI_JSON_MAX_DEPTH", DEFAULT_MAX_DEPTH))
        try:
            data = json.loads(text, parse_constant=self._refuse_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        json_text_check(data)
        return data

    @staticmethod
    def _refuse_constant(name: str) -> Any:
        raise ValueError(f"{name} is not valid JSON")
