"""Reads of the stats app: what the character, matchup, player and leaderboard pages show.

Every read takes a :class:`Scope` (mode, event, period) and reads aggregate rows for it, never
the per-game rows in bulk: the number of queries is fixed and the rows read grow with the
number of characters, months and (for a player) opponents, not with the number of games. The
per-game rows are read only through an index and a small limit (the most damaging combos, the
biggest comeback, a player's latest games).

What a character's numbers count: Versus games, Triple Threat bouts (each a one-on-one fight)
and Tag Team / Dramatic Battle matches (the team's result, for every character that played);
the matchup chart counts only the one-on-one ones (Versus games and Triple Threat bouts). A
player's overall record counts each match once.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet, Sum

from matches.models import SOLO_MODES, Match, Player
from rules_engine.cards import characters
from stats.facts import NO_OPPONENT
from stats.models import (
    ALL_CHARACTERS,
    ALL_EVENTS,
    ALL_TIME,
    OPTIONS,
    SIDE_COUNTERS,
    CharacterStat,
    ComboRecord,
    GameSide,
    HeadToHead,
    PlayerStat,
)
from stats.wilson import wilson_interval
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, PlayerRating, RatingHistory

# A cell or a row with fewer games than this shows its games but no rate: too few to say.
MIN_GAMES = 5
RATING_POINTS = 500  # the rating plot shows a player's latest games at most
PLACEMENT_EVENTS = 5  # the player page places the latest events; the rest are on their pages
OPTION_LABELS = {"attack": "Attack", "throw": "Throw", "block": "Block", "dodge": "Dodge",
                 "joker": "Joker (Gold Burst)", "no_card": "No card"}


@dataclass(frozen=True)
class Scope:
    """Which games: one mode or all (``""``), one event or all, a range of months or all time."""

    mode: str = ""
    event: Event | None = None
    since: dt.date | None = None
    until: dt.date | None = None

    @property
    def event_key(self) -> int:
        return self.event.pk if self.event is not None else ALL_EVENTS

    @property
    def is_all_time(self) -> bool:
        return self.since is None and self.until is None

    def months(self) -> Q:
        if self.is_all_time:
            return Q(month=ALL_TIME)
        q = Q(month__gt=ALL_TIME)
        if self.since:
            q &= Q(month__gte=self.since)
        if self.until:
            q &= Q(month__lte=self.until)
        return q

    def aggregate_filter(self) -> Q:
        """The aggregate rows of this scope (one per month of the period, or the all-time row)."""
        return Q(mode=self.mode, event_key=self.event_key) & self.months()

    def rows_filter(self) -> Q:
        """The same games among per-game rows (sides, combos)."""
        q = Q()
        if self.mode:
            q &= Q(mode=self.mode)
        if self.event is not None:
            q &= Q(event_key=self.event.pk)
        if self.since:
            q &= Q(month__gte=self.since)
        if self.until:
            q &= Q(month__lte=self.until)
        return q

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode or None,
            "event": self.event.slug if self.event is not None else None,
            "since": self.since.strftime("%Y-%m") if self.since else None,
            "until": self.until.strftime("%Y-%m") if self.until else None,
        }


@dataclass
class Record:
    """Games, wins and draws, with the win rate (a draw is half a win) and its 95% interval."""

    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def win_rate(self) -> float | None:
        return (self.wins + self.draws / 2) / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.wins + self.draws / 2, self.games)

    @property
    def is_enough(self) -> bool:
        return self.games >= MIN_GAMES

    def to_dict(self) -> dict[str, Any]:
        interval = self.interval
        return {
            "games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "win_rate": self.win_rate,
            "interval_low": interval[0] if interval else None,
            "interval_high": interval[1] if interval else None,
            "enough_games": self.is_enough,
        }


def _record(row: dict[str, Any] | None) -> Record:
    row = row or {}
    return Record(int(row.get("games") or 0), int(row.get("wins") or 0),
                  int(row.get("draws") or 0))


def roster() -> list[tuple[str, str]]:
    """Every character as (id, name), by name."""
    return sorted(((c.id, c.name) for c in characters().values()), key=lambda c: c[1])


# ------------------------------------------------------------------------- character page


@dataclass
class MatchupCell:
    character: str
    opponent: str
    opponent_name: str
    record: Record

    def to_dict(self) -> dict[str, Any]:
        return {"character": self.character, "opponent": self.opponent,
                "opponent_name": self.opponent_name, **self.record.to_dict()}


@dataclass
class CharacterStats:
    character: str
    name: str
    scope: Scope
    overall: Record
    matchups: list[MatchupCell]
    options: list[dict[str, Any]]
    combos: dict[str, Any]
    jokers: dict[str, Any]
    comebacks: dict[str, Any]
    popularity: list[dict[str, Any]]
    top_combos: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "character": self.character, "name": self.name, "scope": self.scope.to_dict(),
            "overall": self.overall.to_dict(),
            "matchups": [m.to_dict() for m in self.matchups],
            "options": self.options, "combos": {**self.combos, "top": self.top_combos},
            "jokers": self.jokers, "comebacks": self.comebacks, "popularity": self.popularity,
        }


def _per_game(total: int, games: int) -> float | None:
    return total / games if games else None


def character_stats(*, character: str, scope: Scope) -> CharacterStats:
    """A character's numbers in a scope (4 queries, whatever the number of games)."""
    names = dict(roster())
    sums = {name: Sum(name) for name in ("games", "wins", "draws", *SIDE_COUNTERS)}
    by_opponent = {
        row["opponent"]: row
        for row in CharacterStat.objects.filter(scope.aggregate_filter(), character=character)
        .order_by().values("opponent").annotate(**sums)
    }
    totals: dict[str, int] = {name: 0 for name in sums}
    for row in by_opponent.values():
        for name in sums:
            totals[name] += int(row[name] or 0)
    overall = _record(totals)
    games = overall.games
    matchups = [
        MatchupCell(character, cid, cname, _record(by_opponent.get(cid)))
        for cid, cname in roster()
    ]
    option_total = sum(totals[f"option_{o}"] for o in OPTIONS)
    options = [
        {"option": o, "label": OPTION_LABELS[o], "count": totals[f"option_{o}"],
         "share": totals[f"option_{o}"] / option_total if option_total else None}
        for o in OPTIONS
    ]
    combo_rows = list(
        ComboRecord.objects.filter(scope.rows_filter(), character=character)
        .order_by("-damage", "-game_id", "turn")
        .values("game_id", "turn", "cards", "damage", "opponent_character")[:5]
    )
    top_combos = [{**c, "opponent_name": names.get(c["opponent_character"], "")}
                  for c in combo_rows]
    combos = {
        "count": totals["combos"], "per_game": _per_game(totals["combos"], games),
        "damage_mean": _per_game(totals["combo_damage"], totals["combos"]),
        "damage_max": combo_rows[0]["damage"] if combo_rows else None,
    }
    jokers = {
        name: {"total": totals[name], "per_game": _per_game(totals[name], games)}
        for name in ("gold_bursts", "rewinds", "power_up_jokers", "pump_jokers", "bluffs")
    }
    best = (
        GameSide.objects.filter(scope.rows_filter(), character=character,
                                for_characters=True, deficit_overcome__gt=0)
        .order_by("-deficit_overcome", "-played_at").values("game_id", "deficit_overcome")
        .first()
    )
    comebacks = {
        "count": totals["comebacks"],
        "share_of_wins": _per_game(totals["comebacks"], overall.wins),
        "deficit_overcome_mean": _per_game(totals["deficit_overcome"], totals["comebacks"]),
        "largest_deficit_overcome": best["deficit_overcome"] if best else None,
        "largest_game": best["game_id"] if best else None,
        "aces_spent_per_game": _per_game(totals["aces_spent"], games),
        "damage_per_game": _per_game(totals["damage_dealt"], games),
        "knockdowns_per_game": _per_game(totals["knockdowns"], games),
    }
    months_q = scope.months() if not scope.is_all_time else Q(month__gt=ALL_TIME)
    base = CharacterStat.objects.filter(months_q, mode=scope.mode, event_key=scope.event_key)
    monthly: dict[dt.date, list[int]] = {}
    for row in (
        base.order_by().values("month")
        .annotate(all_games=Sum("games"), mine=Sum("games", filter=Q(character=character)))
    ):
        monthly[row["month"]] = [int(row["mine"] or 0), int(row["all_games"] or 0)]
    popularity = [
        {"month": month.strftime("%Y-%m"), "games": mine, "all_games": every,
         "pick_rate": mine / every if every else None}
        for month, (mine, every) in sorted(monthly.items())
    ]
    return CharacterStats(
        character=character, name=names.get(character, character), scope=scope,
        overall=overall, matchups=matchups, options=options, combos=combos, jokers=jokers,
        comebacks=comebacks, popularity=popularity, top_combos=top_combos,
    )


# ------------------------------------------------------------------------- matchup chart


@dataclass
class MatchupChart:
    scope: Scope
    characters: list[tuple[str, str]]
    cells: dict[tuple[str, str], Record]

    def cell(self, character: str, opponent: str) -> Record:
        return self.cells.get((character, opponent)) or Record()

    def rows(self) -> list[tuple[str, str, list[tuple[str, Record]]]]:
        return [
            (cid, name, [(oid, self.cell(cid, oid)) for oid, _ in self.characters])
            for cid, name in self.characters
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope.to_dict(),
            "characters": [{"id": c, "name": n} for c, n in self.characters],
            "min_games": MIN_GAMES,
            "cells": [
                {"character": c, "opponent": o, **self.cell(c, o).to_dict()}
                for c, _ in self.characters for o, _ in self.characters
            ],
        }


def matchup_chart(*, scope: Scope) -> MatchupChart:
    """Every character against every other in a scope (one query): Versus games and Triple
    Threat bouts (Tag Team and Dramatic Battle have no one-on-one pairing: not here)."""
    cells = {
        (row["character"], row["opponent"]): _record(row)
        for row in CharacterStat.objects.filter(scope.aggregate_filter())
        .exclude(opponent=NO_OPPONENT).order_by().values("character", "opponent")
        .annotate(games=Sum("games"), wins=Sum("wins"), draws=Sum("draws"))
    }
    return MatchupChart(scope=scope, characters=roster(), cells=cells)


#: The modes player-vs-player stats cover (Training and Survival have their own tables:
#: :mod:`stats.training`).
VERSUS_STATS_MODES = [(v, label) for v, label in Match.Mode.choices if v not in SOLO_MODES]


# ------------------------------------------------------------------------- player page


@dataclass
class PlayerStats:
    player: Player
    scope: Scope
    overall: Record
    characters: list[dict[str, Any]]
    head_to_head: list[dict[str, Any]]
    opponent: dict[str, Any] | None
    rating: PlayerRating | None
    rating_history: list[dict[str, Any]]
    recent_games: list[dict[str, Any]]
    placements: list[dict[str, Any]]
    results: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        rating = None
        if self.rating is not None:
            rating = {"ordinal": self.rating.ordinal, "mu": self.rating.mu,
                      "sigma": self.rating.sigma, "games": self.rating.games}
        return {
            "player": {"id": self.player.pk, "display_name": self.player.display_name},
            "scope": self.scope.to_dict(), "overall": self.overall.to_dict(),
            "characters": self.characters, "head_to_head": self.head_to_head,
            "opponent": self.opponent, "rating": rating,
            "rating_history": self.rating_history, "recent_games": self.recent_games,
            "placements": self.placements, "results": self.results,
        }


def _placements(player: Player) -> list[dict[str, Any]]:
    """The player's place in their latest finished events (the last stage's standings)."""
    out = []
    entries = list(
        tournament_selectors.player_events(player)
        .filter(event__status=Event.Status.FINISHED)[:PLACEMENT_EVENTS]
    )
    for entrant in entries:
        stage = entrant.event.stages.order_by("-order").first()
        if stage is None:
            continue
        line = next((line for line in tournament_selectors.stage_standings(stage).lines
                     if line.entrant.pk == entrant.pk), None)
        out.append({"event": entrant.event.name, "event_slug": entrant.event.slug,
                    "entrant": entrant.name, "rank": line.rank if line else None,
                    "entrants": entrant.event.entrants.count()})
    return out


def _results(player: Player) -> list[dict[str, Any]]:
    """The player's latest finished sets (every result is on the player's own page)."""
    return [
        {"event": s.stage.event.name, "event_slug": s.stage.event.slug, "set": s.pk,
         "round": s.round_name or s.key, "entrant_a": s.side_label("a"),
         "entrant_b": s.side_label("b"), "score_a": s.score_a, "score_b": s.score_b,
         "winner": s.winner.name if s.winner else None}
        for s in tournament_selectors.player_sets(player)[:10]
    ]


def player_stats(*, player: Player, scope: Scope, opponent: Player | None = None) -> PlayerStats:
    """A player's numbers in a scope; ``opponent`` adds their head-to-head record."""
    names = dict(roster())
    rows = list(
        PlayerStat.objects.filter(scope.aggregate_filter(), player=player)
        .order_by().values("character")
        .annotate(games=Sum("games"), wins=Sum("wins"), draws=Sum("draws"))
    )
    overall = _record(next((r for r in rows if r["character"] == ALL_CHARACTERS), None))
    per_character = sorted(
        ({"character": r["character"], "name": names.get(r["character"], r["character"]),
          **_record(r).to_dict()} for r in rows if r["character"] != ALL_CHARACTERS),
        key=lambda r: (-r["games"], r["name"]),
    )
    h2h = (
        HeadToHead.objects.filter(player=player, mode=scope.mode)
        .select_related("opponent").order_by("-games", "opponent__display_name")
    )

    def h2h_row(row: HeadToHead) -> dict[str, Any]:
        return {"opponent": row.opponent_id, "opponent_name": row.opponent.display_name,
                **_record({"games": row.games, "wins": row.wins, "draws": row.draws}).to_dict()}

    head_to_head = [h2h_row(row) for row in h2h[:20]]
    chosen = None
    if opponent is not None:
        row = h2h.filter(opponent=opponent).first()
        chosen = h2h_row(row) if row else {
            "opponent": opponent.pk, "opponent_name": opponent.display_name,
            **Record().to_dict()}
    history = list(
        RatingHistory.objects.filter(player=player)
        .order_by("-recorded_at", "-id").values("recorded_at", "ordinal", "mu", "sigma")
        [:RATING_POINTS]
    )
    history.reverse()
    recent = list(
        GameSide.objects.filter(scope.rows_filter(), player=player, for_players=True)
        .order_by("-played_at", "-game_id")
        .values("game_id", "played_at", "character", "opponent_character",
                "opponent__display_name", "result")[:10]
    )
    recent_games = [
        {**g, "character_name": names.get(g["character"], g["character"]),
         "opponent_character_name": names.get(g["opponent_character"], g["opponent_character"]),
         "opponent_name": g.pop("opponent__display_name")}
        for g in recent
    ]
    return PlayerStats(
        player=player, scope=scope, overall=overall, characters=per_character,
        head_to_head=head_to_head, opponent=chosen,
        rating=PlayerRating.objects.filter(player=player).first(),
        rating_history=[{**h, "recorded_at": h["recorded_at"].isoformat()} for h in history],
        recent_games=recent_games, placements=_placements(player), results=_results(player),
    )


# ------------------------------------------------------------------------- leaderboards


def leaderboard(
    *, scope: Scope, character: str = "", min_games: int = 1, limit: int = 50
) -> list[dict[str, Any]]:
    """Players by wins (then win rate) in a scope, with one character or all (one query)."""
    rows = (
        PlayerStat.objects.filter(scope.aggregate_filter(), character=character)
        .order_by().values("player_id", "player__display_name")
        .annotate(games=Sum("games"), wins=Sum("wins"), draws=Sum("draws"))
        .filter(games__gte=min_games).order_by("-wins", "games", "player__display_name")
        [:limit]
    )
    return [
        {"rank": i, "player": r["player_id"], "player_name": r["player__display_name"],
         **_record(r).to_dict()}
        for i, r in enumerate(rows, start=1)
    ]


def game_sides() -> QuerySet[GameSide]:
    """Every side of every counted game (the API's list; filtered there)."""
    return GameSide.objects.select_related("player", "opponent").order_by("-played_at", "-id")

