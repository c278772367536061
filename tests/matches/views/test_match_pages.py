"""Match pages: verdicts, the submission form with errors beside it, confirmation, override."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from matches.models import AuditEntry, Dispute, Match, MatchLog
from matches.services import MAX_LOG_BYTES, match_log_submit
from tests.matches.factories import (
    PlayerFactory,
    UserFactory,
    log_bytes,
    self_play_log_text,
    side_user,
    versus_match,
    with_extra_event,
)

pytestmark = pytest.mark.django_db


def submitted(match: Match, text: str, capture, side: int = 1) -> None:
    with capture(execute=True):
        match_log_submit(
            match=match, submitted_by=side_user(match, side), log_bytes=log_bytes(text)
        )


def test_list_and_status_filter(client) -> None:
    match = versus_match()
    other = versus_match()
    Match.objects.filter(pk=other.pk).update(status=Match.Status.CONFIRMED, winner_side=1)
    html = client.get("/matches/").content.decode()
    assert f"/matches/{match.pk}/" in html and f"/matches/{other.pk}/" in html
    filtered = client.get("/matches/", {"status": "confirmed"}).content.decode()
    assert f"/matches/{other.pk}/" in filtered
    assert f"/matches/{match.pk}/" not in filtered
    assert "Side 1 won" in filtered


def test_illegal_log_page_shows_turn_rule_and_reason(
    client, django_capture_on_commit_callbacks
) -> None:
    match = versus_match()
    legal = self_play_log_text()
    submitted(match, with_extra_event(legal), django_capture_on_commit_callbacks)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    events = len(json.loads(legal)["events"])
    assert "Illegal" in html
    assert "<strong>END-2</strong>" in html
    assert f"$.events[{events}]" in html
    assert "the game is already over" in html


def test_legal_log_page_shows_the_result_and_the_confirm_button_to_the_other_side(
    client, django_capture_on_commit_callbacks
) -> None:
    match = versus_match()
    submitted(match, self_play_log_text(), django_capture_on_commit_callbacks)
    final = json.loads(self_play_log_text())["result"]
    client.force_login(side_user(match, 2))
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Every step is legal" in html
    assert f"after {final['turns']} turns" in html
    assert "Confirm this result" in html
    response = client.post(f"/matches/{match.pk}/confirm/", {"log": match.logs.get().pk},
                           follow=True)
    assert "Result confirmed." in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


def test_submitter_sees_no_confirm_button(client, django_capture_on_commit_callbacks) -> None:
    match = versus_match()
    submitted(match, self_play_log_text(), django_capture_on_commit_callbacks)
    client.force_login(side_user(match, 1))
    assert "Confirm this result" not in client.get(f"/matches/{match.pk}/").content.decode()


def test_paste_form_submits_and_redirects(client, django_capture_on_commit_callbacks) -> None:
    match = versus_match()
    client.force_login(side_user(match, 1))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/matches/{match.pk}/", {"log_text": self_play_log_text()})
    assert response.status_code == 302
    assert MatchLog.objects.filter(match=match).count() == 1
    page = client.get(response["Location"]).content.decode()
    assert "Log received" in page


def test_unreadable_paste_shows_the_json_path_beside_the_form(client) -> None:
    match = versus_match()
    client.force_login(side_user(match, 1))
    doc = json.loads(self_play_log_text())
    doc["events"][2]["action"] = "teleport"
    response = client.post(f"/matches/{match.pk}/", {"log_text": json.dumps(doc)})
    assert response.status_code == 400
    html = response.content.decode()
    assert "$.events[2].action" in html
    assert 'class="form-errors"' in html
    assert MatchLog.objects.count() == 0


def test_oversized_upload_is_refused_beside_the_field(client) -> None:
    match = versus_match()
    client.force_login(side_user(match, 1))
    big = SimpleUploadedFile("big.json", b" " * (MAX_LOG_BYTES + 1))
    response = client.post(f"/matches/{match.pk}/", {"log_file": big})
    assert response.status_code == 400
    assert "the limit is 2,097,152 bytes (2 MB)" in response.content.decode()
    assert MatchLog.objects.count() == 0


def test_form_needs_exactly_one_of_file_or_text(client) -> None:
    match = versus_match()
    client.force_login(side_user(match, 1))
    response = client.post(f"/matches/{match.pk}/", {})
    assert response.status_code == 400
    assert "Upload a file or paste the log" in response.content.decode()


def test_outsider_is_told_they_may_not_submit(client) -> None:
    match = versus_match()
    client.force_login(PlayerFactory().user)
    response = client.post(f"/matches/{match.pk}/", {"log_text": self_play_log_text()})
    assert response.status_code == 400
    assert "only the match&#x27;s players" in response.content.decode()
    assert MatchLog.objects.count() == 0


def test_anonymous_post_is_sent_to_log_in(client) -> None:
    match = versus_match()
    response = client.post(f"/matches/{match.pk}/", {"log_text": self_play_log_text()})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert MatchLog.objects.count() == 0


def test_override_previews_then_applies_only_when_confirmed(client) -> None:
    organizer = UserFactory()
    match = versus_match(managers=[organizer])
    client.force_login(organizer)
    preview = client.post(f"/matches/{match.pk}/override/", {"result": "2", "reason": "no-show"})
    assert preview.status_code == 200
    assert "This will set the result to <strong>side 2 wins</strong>" in preview.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_LOG  # nothing changed yet
    done = client.post(
        f"/matches/{match.pk}/override/", {"result": "2", "reason": "no-show", "confirmed": "True"}
    )
    assert done.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner_side) == (Match.Status.CONFIRMED, 2)
    assert AuditEntry.objects.get(match=match, action="result_overridden").reason == "no-show"


def test_player_cannot_open_the_override_page(client) -> None:
    match = versus_match()
    client.force_login(side_user(match, 1))
    response = client.post(
        f"/matches/{match.pk}/override/", {"result": "1", "reason": "x", "confirmed": "True"}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_LOG


def test_dispute_page_shows_both_events_at_the_divergence(client) -> None:
    match = versus_match()
    user = side_user(match, 1)
    log_a = MatchLog.objects.create(
        match=match, text="{}", sha256="a" * 64, size_bytes=2, submitted_by=user
    )
    log_b = MatchLog.objects.create(
        match=match, text="{}", sha256="b" * 64, size_bytes=2, submitted_by=user
    )
    dispute = Dispute.objects.create(
        match=match,
        log_a=log_a,
        log_b=log_b,
        first_divergence_index=12,
        divergence={"a": {"player": "P1", "action": "no_card"}, "b": None},
    )
    html = client.get(f"/matches/{match.pk}/disputes/{dispute.pk}/").content.decode()
    assert "event #12" in html
    assert "no_card" in html
    assert "(the log ends here)" in html


def test_illegal_verdict_shows_the_rules_own_words(
    client, django_capture_on_commit_callbacks
) -> None:
    match = versus_match()
    submitted(match, with_extra_event(self_play_log_text()), django_capture_on_commit_callbacks)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    # END-2 in RULES.md: "When the engine checks: After every damage or life-loss event ..."
    assert "<strong>END-2</strong>: When the engine checks: After every damage" in html


def test_legal_log_page_shows_every_turn(client, django_capture_on_commit_callbacks) -> None:
    text = self_play_log_text()
    final = json.loads(text)["result"]
    match = versus_match()
    submitted(match, text, django_capture_on_commit_callbacks)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"Turn by turn ({final['turns']} turns)" in html
    rows = html.split('<table class="table timeline-table">')[1].split("</table>")[0]
    assert rows.count("<tr") == final["turns"] + 1  # the header row and one row per turn
    last_row = rows.split("<tr")[-1]
    assert f"P1 {final['life']['P1']} · P2 {final['life']['P2']}" in last_row
    assert "(M-" in rows  # combat results cite their matrix cell


def test_opponent_disputes_from_the_page(client, django_capture_on_commit_callbacks) -> None:
    match = versus_match()
    submitted(match, self_play_log_text(), django_capture_on_commit_callbacks)
    client.force_login(side_user(match, 2))
    assert "Dispute this log" in client.get(f"/matches/{match.pk}/").content.decode()
    page = client.post(
        f"/matches/{match.pk}/dispute/",
        {"reason": "we played another game", "log": match.logs.get().pk}, follow=True
    ).content.decode()
    assert "Dispute opened" in page
    assert "the other side contested the log" in page
    dispute = Dispute.objects.get(match=match)
    detail = client.get(f"/matches/{match.pk}/disputes/{dispute.pk}/").content.decode()
    assert "“we played another game”" in detail


def test_page_renders_when_the_engine_fails_on_a_log(
    client, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    from matches import engine

    def broken(text: str):
        raise KeyError("engine bug")

    monkeypatch.setattr(engine, "log_judge", broken)
    monkeypatch.setattr(engine, "judge", broken)  # the analyses' one replay
    match = versus_match()
    submitted(match, self_play_log_text(), django_capture_on_commit_callbacks)
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    assert "Engine error (not the players&#x27; fault)" in response.content.decode()


def test_illegal_log_page_shows_the_board_before_the_error(
    client, django_capture_on_commit_callbacks
) -> None:
    match = versus_match()
    legal = self_play_log_text()
    submitted(match, with_extra_event(legal), django_capture_on_commit_callbacks)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    events = len(json.loads(legal)["events"])
    assert f"The board before event #{events}" in html
    assert "P1's hand is shown" in html  # the player who made the illegal event
    assert "The last events before it" in html


def test_a_log_not_verifiable_yet_says_which_characters_and_offers_confirmation(
    client, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    from rules_engine import characters as chars
    from tests.matches.factories import with_claimed_winner

    for cid in ("zane", "setsuki"):  # every character is implemented now: take two out
        monkeypatch.delitem(chars.IMPLEMENTED, cid, raising=False)

    legal = self_play_log_text("zane", "setsuki", 4)
    winner = json.loads(legal)["result"]["winner"]
    match = versus_match()
    submitted(match, with_claimed_winner(legal, "P1" if winner != "P1" else "P2"),
              django_capture_on_commit_callbacks)
    client.force_login(side_user(match, 2))
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Not verifiable yet" in html and "zane, setsuki" in html
    assert "cannot verify yet" in html and "Confirm this result" in html
    assert "Illegal" not in html


def test_verdict_changes_are_listed_for_organizers_only(client) -> None:
    from matches.models import VerdictChange, VerificationRun

    organizer, outsider = UserFactory(), UserFactory()
    match = versus_match()
    match.managers.add(organizer)
    log = MatchLog.objects.create(match=match, text="{}", sha256="0" * 64, size_bytes=2,
                                  submitted_by=side_user(match, 1))
    run = VerificationRun.objects.create(log=log, status="illegal")
    VerdictChange.objects.create(
        match=match, log=log, run=run,
        before={"status": "unverifiable", "summary": "Not verifiable yet: old engine."},
        after={"status": "illegal", "engine_version": "9.9", "summary": "Turn 3 [END-2]"})
    client.force_login(organizer)
    html = client.get("/matches/verdict-changes/").content.decode()
    assert f"/matches/{match.pk}/" in html and "Turn 3 [END-2]" in html
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "judges the log behind this result differently" in page
    client.force_login(outsider)
    assert f"/matches/{match.pk}/" not in client.get("/matches/verdict-changes/").content.decode()
    assert "judges the log behind" not in client.get(f"/matches/{match.pk}/").content.decode()
