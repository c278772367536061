"""Reads: events, stages, sets, standings (computed on read), brackets and player pages."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from matches.models import Player
from tournaments.formats import round_robin, swiss
from tournaments.formats.types import GameResultRecord, StandingRow
from tournaments.models import (
    Entrant,
    EntrantMember,
    Event,
    Game,
    PlayerRating,
    RatingHistory,
    Set,
    Stage,
)

# Tie-breaks an organizer may choose for round robin (see tournaments.formats.standings).
ROUND_ROBIN_TIEBREAKS = (
    "points", "wins", "head_to_head", "game_difference", "games_won", "buchholz",
    "sonneborn_berger", "seed",
)


def events_visible_to(user: Any) -> QuerySet[Event]:
    """Every event but drafts, which only their organizers (and staff) see.

    A draft is an organizer's work in progress (settings, stages not yet announced): it appears
    in no list, page or API answer for anyone else, who gets a 404 as for an unknown event. It
    becomes public when its organizers open registration.
    """
    events = Event.objects.all()
    if getattr(user, "is_staff", False):
        return events
    public = ~Q(status=Event.Status.DRAFT)
    if getattr(user, "is_authenticated", False):
        own = Event.objects.filter(organizers=user).values("pk")
        return events.filter(public | Q(pk__in=own))
    return events.filter(public)


def event_list(*, user: Any = None) -> QuerySet[Event]:
    return events_visible_to(user).prefetch_related("organizers").order_by("-created_at")


def event_get(*, slug: str) -> Event:
    return Event.objects.prefetch_related("organizers").get(slug=slug)


def event_entrants(event: Event) -> QuerySet[Entrant]:
    return event.entrants.prefetch_related(
        Prefetch("members", queryset=EntrantMember.objects.select_related("player"))
    ).order_by("seed", "registered_at", "id")


def entrant_invitations_for_user(event: Event, user: Any) -> list[Entrant]:
    """Teams of the event waiting for this user to accept (or decline) their place."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(event.entrants.filter(
        status=Entrant.Status.INVITED, members__player__user=user, members__is_accepted=False,
    ).order_by("registered_at", "id"))


def entrant_for_user(event: Event, user: Any) -> Entrant | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        event.entrants.filter(
            members__player__user=user,
            members__is_accepted=True,
            status__in=(
                Entrant.Status.REGISTERED, Entrant.Status.WAITLISTED, Entrant.Status.DISQUALIFIED,
                Entrant.Status.INVITED,
            ),
        )
        .order_by("-id")
        .first()
    )


def stage_sets(stage: Stage) -> QuerySet[Set]:
    return stage.sets.select_related("entrant_a", "entrant_b", "winner").order_by(
        "bracket", "group", "round", "position"
    )


# --- results and standings -------------------------------------------------------------------


def _records(sets: Iterable[Set]) -> list[GameResultRecord]:
    records = []
    for s in sets:
        if s.status != Set.Status.FINISHED or not (s.entrant_a_id and s.entrant_b_id):
            continue
        if s.outcome == Set.Outcome.DOUBLE_FORFEIT:
            continue  # nobody scores (the engine would count it as a draw)
        records.append(
            GameResultRecord(
                entrant_a=s.entrant_a_id, entrant_b=s.entrant_b_id, winner=s.winner_id,
                games_a=s.score_a, games_b=s.score_b,
            )
        )
    return records


def swiss_scores(sets: Iterable[Set]) -> dict[int, float]:
    """Swiss points: a set win (or a bye) is 1, a loss or a double forfeit 0."""
    score: dict[int, float] = defaultdict(float)
    for s in sets:
        if s.status == Set.Status.FINISHED and s.winner_id:
            score[s.winner_id] += 1.0
    return dict(score)


@dataclass
class StandingLine:
    rank: int
    entrant: Entrant
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points: float = 0.0
    tiebreaks: dict[str, float] = field(default_factory=dict)
    group: int | None = None


@dataclass
class Standings:
    stage: Stage
    groups: list[tuple[int | None, list[StandingLine]]]
    tiebreak_names: list[str]

    @property
    def lines(self) -> list[StandingLine]:
        return [line for _, lines in self.groups for line in lines]


def _lines(rows: Sequence[StandingRow], entrants: dict[int, Entrant], group: int | None) -> list[
    StandingLine
]:
    return [
        StandingLine(
            rank=r.rank, entrant=entrants[r.entrant_id], wins=r.wins, losses=r.losses,
            draws=r.draws, points=r.points, tiebreaks=dict(r.tiebreaks), group=group,
        )
        for r in rows
    ]


def _elimination_standings(sets: list[Set], entrants: dict[int, Entrant]) -> list[StandingLine]:
    """Placement by how far an entrant got; entrants knocked out in the same round share it.

    Single elimination knocks out in the winners rounds (the third-place match ranks between the
    final and the semifinals); double elimination in the losers rounds and the grand final.
    """
    last_winners = max((s.round for s in sets if s.bracket == Set.Bracket.WINNERS), default=1)
    skipped = {s.key for s in sets if s.status == Set.Status.SKIPPED}

    def out_key(s: Set, *, won: bool = False) -> tuple[int, int]:
        if s.bracket == Set.Bracket.THIRD_PLACE:
            return (last_winners - 1, 1 if won else 0)
        if s.bracket == Set.Bracket.GRAND_FINAL:
            return (10_000 + s.round, 0)
        return (s.round, 0)

    wins: dict[int, int] = defaultdict(int)
    losses: dict[int, int] = defaultdict(int)
    out_at: dict[int, tuple[int, int]] = {}
    for s in sets:
        if s.status != Set.Status.FINISHED:
            continue
        if s.winner_id:
            wins[s.winner_id] += 1
        if s.loser_id:
            losses[s.loser_id] += 1
            if not s.loser_to_key or s.loser_to_key in skipped:
                out_at[s.loser_id] = out_key(s)
        if s.outcome == Set.Outcome.DOUBLE_FORFEIT:
            for e in (s.entrant_a_id, s.entrant_b_id):
                if e:
                    out_at[e] = out_key(s)
        if s.bracket == Set.Bracket.THIRD_PLACE and s.winner_id:
            out_at[s.winner_id] = out_key(s, won=True)
    lines = [
        StandingLine(rank=1, entrant=entrants[e], wins=wins[e], losses=losses[e])
        for e in entrants
        if e not in out_at
    ]
    position, rank, previous = len(lines), 0, None
    for e, key in sorted(out_at.items(), key=lambda kv: kv[1], reverse=True):
        position += 1
        if key != previous:
            rank, previous = position, key
        lines.append(StandingLine(rank=rank, entrant=entrants[e], wins=wins[e], losses=losses[e]))
    return lines


def stage_standings(stage: Stage) -> Standings:
    entries = list(stage.entries.select_related("entrant").order_by("seed"))
    entrants = {entry.entrant_id: entry.entrant for entry in entries}
    sets = list(stage.sets.all())
    if stage.kind in Stage.ELIMINATION_KINDS:
        return Standings(stage, [(None, _elimination_standings(sets, entrants))], [])
    if stage.kind == Stage.Kind.SWISS:
        ids = [entry.entrant_id for entry in entries]
        byes = [s.entrant_a_id for s in sets if s.is_bye_b and s.entrant_a_id]
        rows = swiss.swiss_standings(ids, _records(sets), byes=byes)
        names = _shown(swiss.DEFAULT_SWISS_TIEBREAKS)
        return Standings(stage, [(None, _lines(rows, entrants, None))], names)
    tiebreaks = tuple(stage.tiebreaks) or round_robin.DEFAULT_RR_TIEBREAKS
    by_group: dict[int | None, list[int]] = defaultdict(list)
    for entry in entries:
        by_group[entry.group].append(entry.entrant_id)
    groups = []
    for group, ids in sorted(by_group.items(), key=lambda kv: kv[0] or 0):
        members = set(ids)
        group_sets = [s for s in sets if s.entrant_a_id in members]
        rows = round_robin.round_robin_standings(ids, _records(group_sets), tiebreaks=tiebreaks)
        groups.append((group, _lines(rows, entrants, group)))
    return Standings(stage, groups, _shown(tiebreaks))


def _shown(tiebreaks: Sequence[str]) -> list[str]:
    """The tie-break columns worth showing: points and seed are shown elsewhere."""
    return [t for t in tiebreaks if t not in ("points", "seed")]


def stage_advancing_entrants(stage: Stage) -> list[Entrant]:
    """Who a finished stage hands to the next one, in seed order for it.

    Groups: by final standing (all group winners, then all runners-up, ...), ``advance_count``
    per group. Other stages: the top ``advance_count`` of the standings (all when unset).
    Disqualified entrants never advance.
    """
    standings = stage_standings(stage)
    if stage.kind in (Stage.Kind.ROUND_ROBIN, Stage.Kind.LEAGUE) and len(standings.groups) > 1:
        per_group = stage.advance_count or min(len(lines) for _, lines in standings.groups)
        group_rows = [
            [
                line.entrant.pk
                for line in lines
                if line.entrant.status != Entrant.Status.DISQUALIFIED
            ]
            for _, lines in standings.groups
        ]
        per_group = min(per_group, *(len(rows) for rows in group_rows))
        by_id = {line.entrant.pk: line.entrant for line in standings.lines}
        return [by_id[i] for i in round_robin.playoff_seeding(group_rows, per_group)]
    lines = [
        line for line in standings.lines if line.entrant.status != Entrant.Status.DISQUALIFIED
    ]
    return [line.entrant for line in lines[: stage.advance_count or len(lines)]]


# --- bracket view ------------------------------------------------------------------------------


@dataclass
class BracketRound:
    number: int
    name: str
    sets: list[Set]


@dataclass
class BracketSection:
    bracket: str
    title: str
    rounds: list[BracketRound]


SECTION_TITLES = {
    Set.Bracket.WINNERS: "Winners bracket",
    Set.Bracket.LOSERS: "Losers bracket",
    Set.Bracket.GRAND_FINAL: "Grand final",
    Set.Bracket.THIRD_PLACE: "Third-place match",
    Set.Bracket.ROUND_ROBIN: "Round robin",
    Set.Bracket.SWISS: "Swiss rounds",
}
SECTION_ORDER = list(SECTION_TITLES)


def stage_bracket(stage: Stage) -> list[BracketSection]:
    """Sets grouped into sections (winners, losers, grand final, ...) and rounds (columns).

    A grand-final reset is shown only once it is needed (the losers-side entrant won GF1).
    """
    by_section: dict[str, dict[int, BracketRound]] = defaultdict(dict)
    for s in stage_sets(stage):
        if s.is_conditional and s.status in (Set.Status.WAITING, Set.Status.SKIPPED):
            continue  # the grand-final reset appears only once it is needed
        rounds = by_section[s.bracket]
        if s.round not in rounds:
            rounds[s.round] = BracketRound(s.round, s.round_name or f"Round {s.round}", [])
        rounds[s.round].sets.append(s)
    return [
        BracketSection(b, SECTION_TITLES[b], [by_section[b][r] for r in sorted(by_section[b])])
        for b in SECTION_ORDER
        if b in by_section
    ]


# --- players -----------------------------------------------------------------------------------


def player_list() -> QuerySet[Player]:
    return Player.objects.select_related("user", "rating").order_by("display_name")


def player_get(*, pk: int) -> Player:
    return Player.objects.select_related("user").get(pk=pk)


def player_rating(player: Player) -> PlayerRating | None:
    return PlayerRating.objects.filter(player=player).first()


def player_rating_history(player: Player) -> QuerySet[RatingHistory]:
    return RatingHistory.objects.filter(player=player).order_by("recorded_at", "id")


def player_sets(player: Player) -> QuerySet[Set]:
    entrant_ids = EntrantMember.objects.filter(player=player).values("entrant_id")
    return (
        Set.objects.filter(status=Set.Status.FINISHED)
        .filter(Q(entrant_a__in=entrant_ids) | Q(entrant_b__in=entrant_ids))
        .select_related("entrant_a", "entrant_b", "winner", "stage__event")
        .order_by("-finished_at", "-id")
    )


def player_events(player: Player) -> QuerySet[Entrant]:
    return (
        Entrant.objects.filter(members__player=player)
        .select_related("event")
        .order_by("-event__created_at")
    )


def set_games(s: Set) -> QuerySet[Game]:
    return s.games.order_by("number")
