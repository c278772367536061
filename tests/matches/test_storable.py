"""Values from a log made storable in PostgreSQL (``matches.storable``)."""

from __future__ import annotations

import json

import pytest

from matches.storable import json_storable, json_storable_from


def test_data_from_a_plain_ascii_log_is_kept_as_it_is() -> None:
    text = json.dumps({"events": [{"player": "P1", "action": "stop"}]})
    value = {"turns": [{"events": ["stop"]}]}
    assert json_storable_from(text, value) is value  # not walked, not copied


@pytest.mark.parametrize("text", [
    '{"name": "Unstable\\u0000Power"}',  # a NUL written as an escape
    '{"name": "\\ud800"}',  # a lone surrogate written as an escape
    '{"name": "Unstable\\u00e9Power"}',  # any escape: the text is not looked into further
    '{"name": "Unstable Pow\u00e9r"}',  # not ASCII
    '{"name": "Unstable\x00Power"}',  # a raw NUL
])
def test_data_from_any_other_log_goes_through_json_storable(text: str) -> None:
    value = json.loads(text, strict=False)
    assert json_storable_from(text, value) == json_storable(value)
    stored = json.dumps(json_storable_from(text, value))
    assert "\\u0000" not in stored and "\\ud800" not in stored
