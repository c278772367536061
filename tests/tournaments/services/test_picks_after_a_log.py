"""A pick cannot be locked for a game whose log was already submitted (issue 31, item 8): the
confirmed match would have been voided (its log no longer fitting the picks) without a word."""

from __future__ import annotations

import pytest

from matches.services import match_log_submit
from tests.matches.factories import self_play_log_won_by, side_user
from tests.tournaments.factories import StageFactory, entrants_create
from tournaments.errors import TournamentError
from tournaments.models import CharacterPick, Set, Stage
from tournaments.services.generation import stage_generate
from tournaments.services.picks import character_pick_lock
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db


def test_no_pick_after_the_games_log_was_submitted(event, organizer,
                                                   django_capture_on_commit_callbacks) -> None:
    entrants_create(event, 2)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    match = set_match_open(set=s, actor=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1),
                         log_bytes=self_play_log_won_by("P1").encode())
    player_a = s.entrant_a.members.get().player.user
    with pytest.raises(TournamentError) as refused:
        character_pick_lock(set=s, actor=player_a, character="setsuki")
    assert f"match #{match.pk}" in refused.value.message
    assert not CharacterPick.objects.filter(set=s).exists()
