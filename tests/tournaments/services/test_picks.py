"""Character picks: double-blind game 1, the pick rules after it, and reports held to them."""

from __future__ import annotations

import re

import pytest

from tests.tournaments.factories import StageFactory, entrants_create
from tests.tournaments.helpers import win
from tournaments.errors import TournamentError
from tournaments.models import CharacterPick, Event, Set, Stage
from tournaments.services.advancement import (
    GameInput,
    SetResult,
    set_game_record,
    set_result_report,
)
from tournaments.services.generation import stage_generate
from tournaments.services.picks import character_pick_lock, commitment

pytestmark = pytest.mark.django_db


@pytest.fixture
def ready_set(event, organizer) -> Set:
    entrants_create(event, 2)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    s.best_of = 3
    s.save()
    return s


def _user(entrant):
    return entrant.members.get().player.user


def _page(client, s: Set, user=None) -> str:
    """The set page without the pick form's list of every character."""
    if user is not None:
        client.force_login(user)
    else:
        client.logout()
    page = client.get(f"/events/{s.stage.event.slug}/sets/{s.pk}/").content.decode()
    return re.sub(r"<select.*?</select>", "", page, flags=re.S)


def test_game_one_is_hidden_until_both_lock(client, ready_set) -> None:
    a, b = _user(ready_set.entrant_a), _user(ready_set.entrant_b)
    pick = character_pick_lock(set=ready_set, actor=a, character="setsuki")
    assert pick.character == "Setsuki" and not pick.is_revealed
    assert pick.digest == commitment(set_id=ready_set.pk, game_number=1, side="a",
                                     character="Setsuki", nonce=pick.nonce)
    # the picker sees it; the opponent and spectators see only that it is locked
    assert "<strong>Setsuki</strong>" in _page(client, ready_set, a)
    for viewer in (b, None):
        page = _page(client, ready_set, viewer)
        assert "Setsuki" not in page
        assert "locked, hidden until both sides lock" in page
    from tests.tournaments.factories import PlayerFactory
    assert "Setsuki" not in _page(client, ready_set, PlayerFactory().user)
    character_pick_lock(set=ready_set, actor=b, character="Grave")
    assert CharacterPick.objects.filter(revealed_at__isnull=False).count() == 2
    page = _page(client, ready_set, None)
    assert "<strong>Setsuki</strong>" in page and "<strong>Grave</strong>" in page


def test_a_pick_is_locked_once_and_only_by_the_sets_players(client, ready_set, player) -> None:
    a = _user(ready_set.entrant_a)
    character_pick_lock(set=ready_set, actor=a, character="Grave")
    with pytest.raises(TournamentError, match="already locked"):
        character_pick_lock(set=ready_set, actor=a, character="Jaina")
    with pytest.raises(TournamentError, match="only the set's players"):
        character_pick_lock(set=ready_set, actor=player.user, character="Jaina")
    with pytest.raises(TournamentError, match="no character called 'Bob'"):
        character_pick_lock(set=ready_set, actor=_user(ready_set.entrant_b), character="Bob")
    client.force_login(player.user)
    client.post(f"/events/{ready_set.stage.event.slug}/sets/{ready_set.pk}/pick/",
                {"character": "Rook"})
    assert CharacterPick.objects.count() == 1


def _both(s: Set, ca: str, cb: str) -> None:
    character_pick_lock(set=s, actor=_user(s.entrant_a), character=ca)
    character_pick_lock(set=s, actor=_user(s.entrant_b), character=cb)


def test_a_report_contradicting_the_picks_is_refused(ready_set, organizer) -> None:
    _both(ready_set, "Grave", "Jaina")
    wrong = SetResult(games=[GameInput("a", ["Grave"], ["Rook"]),
                             GameInput("a", ["Grave"], ["Rook"])])
    with pytest.raises(TournamentError, match="game 1, side B: played Rook but picked Jaina"):
        set_result_report(set=ready_set, actor=organizer, result=wrong)
    right = SetResult(games=[GameInput("a", ["Grave"], ["Jaina"]),
                             GameInput("a", ["Grave"], ["Rook"])])
    assert set_result_report(set=ready_set, actor=organizer, result=right).status == "finished"


def test_a_log_contradicting_the_picks_is_refused(ready_set) -> None:
    _both(ready_set, "Grave", "Jaina")
    with pytest.raises(TournamentError, match="game 1, side A: played Midori but picked Grave"):
        set_game_record(set=ready_set, game=GameInput("a", ["Midori"], ["Jaina"]))
    set_game_record(set=ready_set, game=GameInput("a", ["Grave"], ["Jaina"]))


def test_winner_keeps_loser_switches_openly(ready_set) -> None:
    _both(ready_set, "Grave", "Jaina")
    set_game_record(set=ready_set, game=GameInput("a", ["Grave"], ["Jaina"]))
    with pytest.raises(TournamentError, match="game 2, side A: you keep Grave"):
        character_pick_lock(set=ready_set, actor=_user(ready_set.entrant_a), character="Rook")
    pick = character_pick_lock(set=ready_set, actor=_user(ready_set.entrant_b),
                               character="Rook")
    assert pick.is_revealed and not pick.is_blind  # the loser counter-picks in the open
    with pytest.raises(TournamentError, match="game 2, side B: played Jaina but picked Rook"):
        set_game_record(set=ready_set, game=GameInput("b", ["Grave"], ["Jaina"]))
    with pytest.raises(TournamentError, match="side a won game 1 and is locked"):
        set_game_record(set=ready_set, game=GameInput("b", ["Midori"], ["Rook"]))
    set_game_record(set=ready_set, game=GameInput("b", ["Grave"], ["Rook"]))


@pytest.mark.parametrize(("rule", "second_pick_blind"), [
    (Event.CharacterRule.FREE, True), (Event.CharacterRule.LOCKED, None)])
def test_other_rules(ready_set, rule, second_pick_blind) -> None:
    event = ready_set.stage.event
    event.character_rule = rule
    event.save()
    _both(ready_set, "Grave", "Jaina")
    set_game_record(set=ready_set, game=GameInput("a", ["Grave"], ["Jaina"]))
    b = _user(ready_set.entrant_b)
    if second_pick_blind is None:
        with pytest.raises(TournamentError, match="you keep Jaina"):
            character_pick_lock(set=ready_set, actor=b, character="Rook")
    else:
        assert not character_pick_lock(set=ready_set, actor=b, character="Rook").is_revealed


def test_team_modes_have_no_picks(event, organizer) -> None:
    event.mode = Event.Mode.TAG_TEAM
    event.save()
    entrants_create(event, 2, team_size=2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    with pytest.raises(TournamentError, match="declares characters with the roster"):
        character_pick_lock(set=s, actor=s.entrant_a.members.first().player.user,
                            character="Grave")
    assert set_result_report(set=s, actor=organizer, result=win("a")).status == "finished"


def test_no_api_answer_shows_a_hidden_pick(client, ready_set) -> None:
    character_pick_lock(set=ready_set, actor=_user(ready_set.entrant_a), character="Setsuki")
    client.force_login(_user(ready_set.entrant_b))
    for url in (f"/api/sets/{ready_set.pk}/", f"/api/sets/?stage={ready_set.stage_id}",
                f"/api/stages/{ready_set.stage_id}/"):
        response = client.get(url)
        assert response.status_code == 200
        assert "Setsuki" not in response.content.decode()


def test_a_submitted_log_contradicting_the_picks_is_refused_before_it_is_stored(
        client, ready_set) -> None:
    """The set's match refuses, at submission, a log whose characters are not the ones the
    sides picked for that game (API 409 naming game and side; the page shows it beside the
    form); nothing is stored. The log of the picked characters is accepted."""
    from matches.models import MatchLog
    from tests.matches.factories import self_play_log_text
    from tournaments.services.set_matches import set_match_open

    _both(ready_set, "Grave", "Jaina")
    match = set_match_open(set=ready_set, actor=_user(ready_set.entrant_a))
    client.force_login(_user(ready_set.entrant_a))
    wrong = self_play_log_text("grave", "midori", 3)
    response = client.post(f"/api/matches/{match.pk}/logs/", data={"log_text": wrong},
                           content_type="application/json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "log_picks_mismatch"
    assert "game 1, side B: played Midori but picked Jaina" in body["message"]
    page = client.post(f"/matches/{match.pk}/", {"log_text": wrong}).content.decode()
    assert "played Midori but picked Jaina" in page
    assert not MatchLog.objects.filter(match=match).exists()
    right = self_play_log_text("grave", "jaina", 3)
    response = client.post(f"/api/matches/{match.pk}/logs/", data={"log_text": right},
                           content_type="application/json")
    assert response.status_code in (201, 202), response.content
    assert MatchLog.objects.filter(match=match).count() == 1
