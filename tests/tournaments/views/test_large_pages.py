"""Issue 17, part 3: large stages are shown a round (and a page of sets) at a time, round-robin
groups are capped, and lists are paged."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.factories import PlayerFactory, StageFactory, entrants_create
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import PlayerRating, Set, Stage
from tournaments.services import generation
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


def test_a_large_bracket_is_shown_a_round_and_a_page_at_a_time(
    event, organizer, monkeypatch, django_assert_max_num_queries
):
    entrants_create(event, 16)
    stage = StageFactory(event=event, kind=Stage.Kind.DOUBLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    url = f"/events/{event.slug}/stages/{stage.pk}/"
    whole = Client().get(url).content.decode()
    assert "a round at a time" not in whole and "Losers bracket" in whole
    # as if the stage had more sets than a page shows whole (a 4,096-entrant bracket)
    monkeypatch.setattr(selectors, "BRACKET_WHOLE_MAX_SETS", 10)
    monkeypatch.setattr(selectors, "BRACKET_PAGE_SETS", 3)
    with django_assert_max_num_queries(12):
        page = Client().get(url).content.decode()
    assert "a round at a time" in page
    # the first round with sets to play, its first page of 3 of 8 sets
    assert "Sets 1\u20133 of 8" in page and page.count('class="bset ') == 3
    assert "?round=losers-1" in page and "?round=winners-1&amp;page=2" in page
    page = Client().get(f"{url}?round=winners-1&page=3").content.decode()
    assert "Sets 7\u20138 of 8" in page and page.count('class="bset ') == 2
    page = Client().get(f"{url}?round=grand_final-1").content.decode()
    assert page.count('class="bset ') == 1 and "Grand final" in page


def test_a_round_robin_group_above_the_cap_is_refused_with_what_to_do(event, organizer):
    entrants_create(event, generation.MAX_ROUND_ROBIN_GROUP + 1)
    stage = StageFactory(event=event, kind=Stage.Kind.ROUND_ROBIN)
    with pytest.raises(TournamentError) as refused:
        stage_generate(stage=stage, actor=organizer)
    assert (f"a round-robin group takes at most {generation.MAX_ROUND_ROBIN_GROUP} entrants, "
            "and this one would have 33 (528 sets)") in refused.value.message
    assert "Use at least 2 groups, Swiss rounds, or groups then a playoff" in refused.value.message
    assert not Set.objects.filter(stage=stage).exists()
    stage.refresh_from_db()
    stage.group_count = 2
    stage.save()
    stage_generate(stage=stage, actor=organizer)
    assert Set.objects.filter(stage=stage).count() == 16 * 15 // 2 + 17 * 16 // 2


def test_the_ratings_page_is_paged():
    players = [PlayerFactory() for _ in range(55)]
    PlayerRating.objects.bulk_create(
        PlayerRating(player=p, mu=25, sigma=8, ordinal=float(i), games=1)
        for i, p in enumerate(players))
    first = Client().get("/events/players/").content.decode()
    assert first.count("/events/players/") >= 50 and "Page 1 of 2 (55)" in first
    assert players[-1].display_name in first  # the best rated first
    second = Client().get("/events/players/?page=2").content.decode()
    assert "<td>51</td>" in second and players[0].display_name in second


@pytest.mark.parametrize("url", ["/players/", "/matches/", "/events/"])
def test_lists_are_paged(url: str):
    for _ in range(51):
        PlayerFactory()
    assert Client().get(url).status_code == 200
    if url == "/players/":
        assert "Page 1 of 2 (51)" in Client().get(url).content.decode()
