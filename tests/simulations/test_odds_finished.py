"""The odds on a finished event (issue 35, part 2): recomputed on the final result, then hidden
(the result is shown instead, and the champion named); a bracket of 4 has no "Top 8" column and
its plot shows the final's bar, not a bar of 100% for everyone over it."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from simulations.models import StageOdds
from tests.simulations.test_odds import rate
from tests.tournaments.factories import EventFactory, StageFactory, entrants_create, organizer_of
from tests.tournaments.helpers import report
from tournaments.models import Stage
from tournaments.selectors import event_champion
from tournaments.services.generation import stage_generate

# commits as a site does: each result's ratings and odds rebuild runs after its commit
pytestmark = pytest.mark.django_db(transaction=True)


def _page(client, event) -> str:
    return client.get(reverse("tournaments:event-detail", args=[event.slug])).content.decode()


def test_a_bracket_of_four_has_only_its_rounds_and_finished_odds_follow_the_final(
        client) -> None:
    event = EventFactory(name="Four Open")
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    entrants = entrants_create(event, 4)
    for i, e in enumerate(entrants):
        rate(e, 30 - i)
    organizer = organizer_of(event)
    stage_generate(stage=stage, actor=organizer)
    html = _page(client, event)
    header = html[html.index("data-odds-stage"):html.index("</thead>", html.index("data-odds"))]
    assert "Final" in header and "Win" in header and "Top 8" not in header
    script = f'id="plot-odds-{stage.pk}" type="application/json">'
    figure = json.loads(html[html.index(script) + len(script):].split("</script>", 1)[0])
    assert [trace["name"] for trace in figure["data"]] == ["Final", "Win"]
    assert figure["layout"]["xaxis"]["title"]["text"]
    assert event_champion(event) is None and 'id="champion"' not in html

    # the bottom seed wins everything: semifinal, then the final
    report(stage, "W1-1", "b", organizer)
    report(stage, "W1-2", "a", organizer)
    report(stage, "W2-1", "a", organizer)
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    current = StageOdds.objects.get(stage=stage, kind="current")
    assert current.results_seen == 3  # the final result followed, not "after 2 results"
    champion = event_champion(event)
    assert champion == entrants[3]
    rows = {r["entrant"]: r for r in current.data["rows"]}
    assert rows[champion.pk]["win"] == 1.0
    html = _page(client, event)
    assert 'id="event-odds-title"' not in html  # no odds once the result is known
    assert f"Champion: <strong>{champion.name}</strong>" in html
