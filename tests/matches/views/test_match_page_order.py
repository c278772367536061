"""The match page leads with the result and the log that decided it (issue 21)."""

from __future__ import annotations

import pytest

from matches.models import Match
from matches.services import match_log_confirm, match_log_submit
from tests.matches.factories import (
    log_bytes,
    self_play_log_text,
    side_user,
    versus_match,
    with_extra_event,
)

pytestmark = pytest.mark.django_db


def test_the_deciding_log_comes_first_and_the_illegal_one_after_it_collapsed(
    client, django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    legal = self_play_log_text()
    for text in (with_extra_event(legal), legal):  # the illegal log is submitted first
        with django_capture_on_commit_callbacks(execute=True):
            match_log_submit(match=match, submitted_by=side_user(match, 1),
                             log_bytes=log_bytes(text))
    match_log_confirm(match=match, user=side_user(match, 2))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    deciding = match.result_log
    illegal = match.logs.exclude(pk=deciding.pk).get()
    winner = match.sides.get(side=match.winner_side).player.display_name

    html = client.get(f"/matches/{match.pk}/").content.decode()
    headline = html.index("result-headline")
    assert winner in html[headline:headline + 400]
    first_log = html.index("The log that decided the result")
    assert headline < first_log < html.index(deciding.sha256[:12]) < html.index(illegal.sha256[:12])
    # the illegal log sits in a closed box after the deciding one; only the deciding log's
    # timeline is open
    other = html.index('<details class="other-logs">')
    assert other < html.index(illegal.sha256[:12])
    assert html.count('<details class="timeline" open>') == 1
    assert html.index('<details class="timeline" open>') < other


def test_a_match_without_a_result_lists_its_logs_as_before(
    client, django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1),
                         log_bytes=log_bytes(self_play_log_text()))
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "<h2>Logs</h2>" in html and "result-headline" not in html
    assert "other-logs" not in html
