"""The bracket page: connector lines between rounds, the disqualified marked, one seed number."""

from __future__ import annotations

import re

import pytest

from tests.tournaments.factories import StageFactory, entrant_create, entrants_create
from tournaments.models import Entrant, Set, Stage
from tournaments.services.advancement import entrant_disqualify
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


def _page(client, stage: Stage) -> str:
    return client.get(f"/events/{stage.event.slug}/stages/{stage.pk}/").content.decode()


def test_rounds_join_in_pairs_and_the_final_takes_them_in(client, event, organizer) -> None:
    entrants_create(event, 8)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    page = _page(client, stage)
    classes = re.findall(r'class="bracket-round([^"]*)"', page)
    assert classes == [" joins-pairs", " joins-pairs has-in", " has-in"]
    assert "css/bracket.css" in page


def test_round_robin_draws_no_lines(client, event, organizer) -> None:
    entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.ROUND_ROBIN)
    stage_generate(stage=stage, actor=organizer)
    assert re.findall(r'class="bracket-round([^"]*)"', _page(client, stage)) == ["", "", ""]


def test_the_disqualified_are_marked_in_the_bracket(client, event, organizer) -> None:
    entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.DOUBLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    cheat = Set.objects.get(stage=stage, key="W1-1").entrant_a
    entrant_disqualify(entrant=cheat, actor=organizer, reason="x")
    page = _page(client, stage)
    assert page.count('title="Disqualified">DQ</abbr>') >= 1
    box = re.search(r'<span class="bside dq">.*?</span></span>', page, re.S)
    assert box is not None and cheat.name in box.group(0)


def test_event_page_and_bracket_show_the_same_seeds(client, event, organizer) -> None:
    # seeds with a gap (3 withdrew) and one entrant never seeded
    seeded = [entrant_create(event, seed=s) for s in (1, 2, 4)]
    late = entrant_create(event)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    stage_seeds = dict(stage.entries.values_list("entrant_id", "seed"))
    for entrant in [*seeded, late]:
        entrant.refresh_from_db()
        assert entrant.seed == stage_seeds[entrant.pk]
    assert Entrant.objects.get(pk=late.pk).seed == 4
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert re.search(rf"<td>4</td><td>{re.escape(late.name)}", page)
    bracket = _page(client, stage)
    assert re.search(rf'<span class="seed">4</span><span class="name">{re.escape(late.name)}',
                     bracket)
