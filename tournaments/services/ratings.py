"""Player ratings: OpenSkill (Plackett-Luce) over every finished game, in time order.

Teams are rated natively: a game between an entrant of two players and one of one (Dramatic
Battle), two and two (Tag Team) or three and three (Triple Threat teams) is one OpenSkill match
between teams of those players. A game's time is when it was played; games of the same moment
are taken by set and game number. Forfeits, byes and disqualifications have no games and so do
not move ratings. Ratings are rebuilt from scratch, so a corrected result is reflected at once.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction
from openskill.models import PlackettLuce

from matches.dispatch import task_send
from tournaments.models import EntrantMember, Game, PlayerRating, RatingHistory, Set

MODEL = PlackettLuce()


def _rosters(entrant_ids: set[int]) -> dict[int, list[int]]:
    roster: dict[int, list[int]] = defaultdict(list)
    members = EntrantMember.objects.filter(entrant_id__in=entrant_ids).order_by("order")
    for entrant_id, player_id in members.values_list("entrant_id", "player_id"):
        roster[entrant_id].append(player_id)
    return roster


@transaction.atomic
def ratings_recompute() -> int:
    """Rebuild every player's rating and history; returns the number of games rated."""
    games = list(
        Game.objects.filter(set__status=Set.Status.FINISHED)
        .select_related("set")
        .order_by("played_at", "set_id", "number")
    )
    entrant_ids = {g.set.entrant_a_id for g in games} | {g.set.entrant_b_id for g in games}
    roster = _rosters({e for e in entrant_ids if e})
    current: dict[int, Any] = {}
    counts: dict[int, int] = defaultdict(int)
    history: list[RatingHistory] = []
    for game in games:
        side_a = roster.get(game.set.entrant_a_id or 0, [])
        side_b = roster.get(game.set.entrant_b_id or 0, [])
        if not side_a or not side_b:
            continue
        teams = [side_a, side_b] if game.winner_side == "a" else [side_b, side_a]
        rated = MODEL.rate([[current.get(p) or MODEL.rating() for p in team] for team in teams])
        for team, ratings in zip(teams, rated, strict=True):
            for player_id, rating in zip(team, ratings, strict=True):
                current[player_id] = rating
                counts[player_id] += 1
                history.append(RatingHistory(
                    player_id=player_id, game=game, mu=rating.mu, sigma=rating.sigma,
                    ordinal=rating.ordinal(), recorded_at=game.played_at,
                ))
    RatingHistory.objects.all().delete()
    RatingHistory.objects.bulk_create(history, batch_size=1000)
    PlayerRating.objects.exclude(player_id__in=current).delete()
    existing = {r.player_id: r for r in PlayerRating.objects.all()}
    to_create, to_update = [], []
    for player_id, rating in current.items():
        row = existing.get(player_id) or PlayerRating(player_id=player_id)
        row.mu, row.sigma, row.ordinal = rating.mu, rating.sigma, rating.ordinal()
        row.games = counts[player_id]
        (to_update if row.pk else to_create).append(row)
    PlayerRating.objects.bulk_create(to_create, batch_size=1000)
    PlayerRating.objects.bulk_update(
        to_update, ["mu", "sigma", "ordinal", "games"], batch_size=1000
    )
    return len(games)


def _enqueue() -> None:
    from tournaments.tasks import ratings_recompute_task

    # A lost rebuild (broker down) is redone by the next result: each rebuild starts from zero.
    task_send("ratings rebuild", ratings_recompute_task.delay)


def ratings_recompute_on_commit() -> None:
    """Schedule one rebuild after the current transaction commits (several results: still one)."""
    connection = transaction.get_connection()
    if any(func is _enqueue for _, func, _ in connection.run_on_commit):
        return
    transaction.on_commit(_enqueue)
