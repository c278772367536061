"""Hostile and malformed logs sent to the submission endpoint: never a 500, never half-stored.

Hypothesis mutates a legal log (wrong types, huge numbers, deep nesting, unknown cards, unicode,
missing and extra keys) and also sends arbitrary bytes. Every answer is a 2xx with the log and
one verification run stored, or a 4xx with nothing stored.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from matches.models import AuditEntry, LogEndorsement, MatchLog, VerificationRun
from tests.matches.factories import self_play_log_text, side_user, versus_match

pytestmark = [pytest.mark.django_db]

LEGAL = json.loads(self_play_log_text())

hostile_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    # unknown or malformed cards and names, a NUL, a playing-card emoji, a fullwidth "A" + spade
    st.sampled_from(["ZZ", "X3", "AH ", "1S", "", "P3", "attack", "\u0000", "🂡", "\uff21\u2660"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc[:6]):  # the first events are enough to reach every shape
            found += paths(value, (*prefix, index))
    return found


LEGAL_PATHS = paths(LEGAL)[1:]


def replaced(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    doc = json.loads(json.dumps(doc))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


def deleted(doc: Any, path: tuple[Any, ...]) -> Any:
    doc = json.loads(json.dumps(doc))
    target = doc
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return doc


mutated_logs = st.one_of(
    st.builds(replaced, st.just(LEGAL), st.sampled_from(LEGAL_PATHS), hostile_values),
    st.builds(deleted, st.just(LEGAL), st.sampled_from(LEGAL_PATHS)),
).map(json.dumps)
deep_nesting = st.integers(min_value=50, max_value=200_000).map(lambda n: "[" * n + "]" * n)
huge_number = st.integers(min_value=1000, max_value=50_000).map(
    lambda n: json.dumps(LEGAL).replace('"seed":', f'"seed":{"9" * n},"x":', 1)
)


def counts() -> tuple[int, ...]:
    return (
        MatchLog.objects.count(),
        VerificationRun.objects.count(),
        LogEndorsement.objects.count(),
        AuditEntry.objects.count(),
    )


@pytest.fixture
def submitter():
    match = versus_match()
    client = APIClient()
    client.force_authenticate(side_user(match, 1))
    return match, client


def check_answer(response, before: tuple[int, ...]) -> None:
    assert response.status_code < 500, response.content[:500]
    after = counts()
    if response.status_code in (200, 201):
        new_logs = after[0] - before[0]
        assert new_logs in (0, 1)
        assert after[1] - before[1] == new_logs  # a new log always has its run
    else:
        assert 400 <= response.status_code < 500
        assert after == before, "a refused submission stored something"
        assert "code" in response.json() or response.status_code == 400


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.one_of(mutated_logs, deep_nesting, huge_number, st.text(max_size=200)))
def test_hostile_log_text_is_answered_without_a_500(submitter, text: str) -> None:
    match, client = submitter
    before = counts()
    response = client.post(f"/api/matches/{match.pk}/logs/", {"log_text": text}, format="json")
    check_answer(response, before)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=st.binary(max_size=300))
def test_arbitrary_bytes_uploaded_are_answered_without_a_500(submitter, raw: bytes) -> None:
    match, client = submitter
    before = counts()
    upload = SimpleUploadedFile("log.json", raw)
    response = client.post(
        f"/api/matches/{match.pk}/logs/", {"log_file": upload}, format="multipart"
    )
    check_answer(response, before)


def test_deeply_nested_json_is_refused_with_a_path(submitter) -> None:
    match, client = submitter
    response = client.post(
        f"/api/matches/{match.pk}/logs/",
        {"log_text": "[" * 100_000 + "]" * 100_000},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["json_path"] == "$"
    assert MatchLog.objects.count() == 0


def test_nul_characters_are_stored_escaped_or_refused_raw(submitter) -> None:
    # PostgreSQL text cannot hold U+0000: an escaped one is plain text, a raw one is bad JSON
    match, client = submitter
    doc = json.loads(json.dumps(LEGAL))
    doc["players"]["P1"]["name"] = "nul\u0000name"
    escaped = json.dumps(doc)
    assert "\\u0000" in escaped
    response = client.post(f"/api/matches/{match.pk}/logs/", {"log_text": escaped}, format="json")
    assert response.status_code == 201
    assert MatchLog.objects.get().text == escaped
    raw = escaped.replace("\\u0000", "\u0000")
    response = client.post(f"/api/matches/{match.pk}/logs/", {"log_text": raw}, format="json")
    assert response.status_code == 400
    assert response.json() == {"log_text": ["Null characters are not allowed."]}
    assert MatchLog.objects.count() == 1
