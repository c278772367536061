"""Reads: events, stages, sets, standings (computed on read), brackets and player pages."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Max, Prefetch, Q, QuerySet

from matches.models import Dispute, LogEndorsement, Match, Player
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
    SetMatch,
    SetReport,
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


# A stage with more sets than this is shown one round at a time, a page of sets at a time: a
# 4,096-entrant double elimination (8,191 sets) on one page is 3.6 MiB of HTML and a second of
# rendering. 256 entrants (about 511 sets) still show whole.
BRACKET_WHOLE_MAX_SETS = 520
BRACKET_PAGE_SETS = 128


@dataclass(frozen=True)
class RoundLink:
    """A round of a stage shown a round at a time: the round navigation's entries."""

    bracket: str
    number: int
    name: str
    sets: int
    unfinished: int

    @property
    def key(self) -> str:
        return f"{self.bracket}-{self.number}"

    @property
    def section(self) -> str:
        return SECTION_TITLES.get(self.bracket, self.bracket)


def _shown_sets(stage: Stage) -> QuerySet[Set]:
    # the grand-final reset appears only once it is needed
    return stage.sets.exclude(
        is_conditional=True, status__in=(Set.Status.WAITING, Set.Status.SKIPPED)
    )


def stage_bracket_rounds(stage: Stage) -> list[RoundLink]:
    """Every round of the stage with its number of sets and of unfinished ones (one query)."""
    rows = (
        _shown_sets(stage).values("bracket", "round")
        .annotate(name=Max("round_name"), sets=Count("id"),
                  unfinished=Count("id", filter=Q(status__in=(Set.Status.WAITING,
                                                              Set.Status.READY))))
        .order_by()
    )
    order = {b: i for i, b in enumerate(SECTION_ORDER)}
    links = [RoundLink(r["bracket"], r["round"], r["name"] or f"Round {r['round']}", r["sets"],
                       r["unfinished"]) for r in rows]
    return sorted(links, key=lambda link: (order.get(link.bracket, 99), link.number))


def stage_bracket_round_page(stage: Stage, link: RoundLink, page: object) -> tuple[
    BracketSection, Page[Set]
]:
    """One page of one round's sets, as a one-round section (a LIMIT query)."""
    sets = (_shown_sets(stage).filter(bracket=link.bracket, round=link.number)
            .select_related("entrant_a", "entrant_b", "winner").order_by("group", "position"))
    page_ = Paginator(sets, BRACKET_PAGE_SETS).get_page(page)
    section = BracketSection(link.bracket, link.section,
                             [BracketRound(link.number, link.name, list(page_.object_list))])
    return section, page_


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


# --- a player's next steps ---------------------------------------------------------------------


def _user_entrant_ids(user: Any) -> QuerySet[EntrantMember]:
    return EntrantMember.objects.filter(player__user=user, is_accepted=True).values("entrant_id")


def user_open_set_count(user: Any) -> int:
    """How many ready sets the user plays in (the header's badge): one COUNT query."""
    if not getattr(user, "is_authenticated", False):
        return 0
    mine = _user_entrant_ids(user)
    return Set.objects.filter(status=Set.Status.READY).filter(
        Q(entrant_a__in=mine) | Q(entrant_b__in=mine)
    ).count()


@dataclass
class NextStep:
    """One thing the player should do (or wait for), with where to do it.

    ``kind`` names the step for the template: "invitation", "check_in", "start_game" (a POST
    that opens the match), "submit_log", "confirm", "wait" (nothing to do until someone else
    acts).
    """

    kind: str
    event: Event
    text: str
    set: Set | None = None
    entrant: Entrant | None = None
    url: str = ""
    opponent: str = ""


def _match_step(s: Set, link: Any, user: Any, game_number: int) -> tuple[str, str]:
    """The step for the set's open match: its status and, awaiting confirmation, who is next."""
    match = link.match
    status = match.status
    if status == Match.Status.AWAITING_LOG:
        return "submit_log", f"Play game {game_number} and submit its log"
    if status == Match.Status.VERIFYING:
        return "wait", f"The log of game {game_number} is being verified"
    if status == Match.Status.DISPUTED:
        return "wait", f"Game {game_number} is disputed: an organizer decides"
    if status == Match.Status.AWAITING_CONFIRMATION:
        side = match.sides.filter(player__user=user).values_list("side", flat=True).first()
        vouched = LogEndorsement.objects.filter(log__match=match, side=side).exists()
        if side is not None and not vouched:
            return "confirm", f"Your opponent submitted the log of game {game_number}: " \
                "confirm or dispute it"
        return "wait", f"Waiting for your opponent to confirm game {game_number}"
    return "wait", f"Game {game_number}: {match.get_status_display().lower()}"


def _report_step(s: Set, user: Any) -> tuple[str, str]:
    from tournaments.services.picks import member_side

    pending = s.reports.filter(status=SetReport.Status.PENDING).first()
    if pending is None:
        return "report", "Play the set and report its score"
    if pending.side == member_side(s, user):
        return "wait", "Waiting for your opponent to confirm your reported score"
    a, b = pending.score
    return "confirm", f"Your opponent reported {a}-{b}: confirm or dispute it"


def player_next_steps(user: Any, *, now: Any = None) -> list[NextStep]:
    """What the user should do next in every event they take part in, most urgent first.

    Answers team invitations, check-in while it is open, and for each ready set the step its
    open match is at (or starting the next game). Sets of a league round whose match window is
    not open yet are listed as waiting.
    """
    from django.urls import reverse
    from django.utils import timezone

    from tournaments.services.picks import pick_needed_by
    from tournaments.services.registration import check_in_is_open

    if not getattr(user, "is_authenticated", False):
        return []
    now = now or timezone.now()
    steps: list[NextStep] = []
    invitations = Entrant.objects.filter(
        status=Entrant.Status.INVITED, members__player__user=user, members__is_accepted=False,
    ).select_related("event").order_by("registered_at", "id")
    for entrant in invitations:
        steps.append(NextStep(
            "invitation", entrant.event, f"{entrant.name} invites you to its roster",
            entrant=entrant, url=reverse("tournaments:event-detail", args=[entrant.event.slug]),
        ))
    to_check_in = Entrant.objects.filter(
        pk__in=_user_entrant_ids(user), status=Entrant.Status.REGISTERED,
        checked_in_at__isnull=True, event__status=Event.Status.CHECK_IN,
    ).select_related("event")
    for entrant in to_check_in:
        if check_in_is_open(entrant.event, now):
            steps.append(NextStep(
                "check_in", entrant.event, f"Check {entrant.name} in",
                entrant=entrant,
                url=reverse("tournaments:entrant-check-in", args=[entrant.event.slug, entrant.pk]),
            ))
    mine = set(_user_entrant_ids(user).values_list("entrant_id", flat=True))
    sets = (
        Set.objects.filter(status=Set.Status.READY)
        .filter(Q(entrant_a__in=mine) | Q(entrant_b__in=mine))
        .select_related("stage__event", "entrant_a", "entrant_b")
        .prefetch_related(Prefetch(
            "set_matches", queryset=SetMatch.objects.filter(is_recorded=False)
            .select_related("match"), to_attr="open_links",
        ))
        .annotate(games_played=Count("games"))
        .order_by("window_opens_at", "stage__event__created_at", "round", "position")
    )
    for s in sets:
        event = s.stage.event
        opponent = (s.entrant_b if s.entrant_a_id in mine else s.entrant_a)
        game = s.games_played + 1
        url = reverse("tournaments:set-detail", args=[event.slug, s.pk])
        step = NextStep("wait", event, "", set=s, url=url,
                        opponent=opponent.name if opponent else "")
        self_report = event.result_policy == Event.ResultPolicy.SELF_REPORT
        if s.window_opens_at and now < s.window_opens_at:
            step.text = f"Match window opens {s.window_opens_at:%d %b %H:%M}"
        elif self_report and s.reports.filter(status=SetReport.Status.PENDING).exists():
            # a score is reported: answering it (or waiting for the answer) comes before any
            # pick, whatever order the players went in (issue 35: "Pick your character" stayed)
            step.kind, step.text = _report_step(s, user)
        elif not s.open_links and pick_needed_by(s, user):  # type: ignore[attr-defined]
            step.kind, step.text = "pick", f"Pick your character for game {game}"
        elif self_report:
            step.kind, step.text = _report_step(s, user)
        elif s.open_links:  # type: ignore[attr-defined]
            link = s.open_links[0]  # type: ignore[attr-defined]
            step.kind, step.text = _match_step(s, link, user, game)
            step.url = reverse("matches:match-detail", args=[link.match_id])
        else:
            step.kind, step.text = "start_game", f"Start game {game}: play it and submit its log"
            step.url = reverse("tournaments:set-match-open", args=[event.slug, s.pk])
        steps.append(step)
    urgency = {"invitation": 0, "check_in": 0, "confirm": 1, "pick": 2, "submit_log": 2,
               "report": 2,
               "start_game": 2,
               "wait": 3}
    return sorted(steps, key=lambda st: urgency[st.kind])


def disqualification_preview(entrant: Entrant) -> list[Set]:
    """The sets a disqualification decides now: the entrant's ready sets, lost by DQ."""
    return list(
        Set.objects.filter(stage__event_id=entrant.event_id, status=Set.Status.READY)
        .filter(Q(entrant_a=entrant) | Q(entrant_b=entrant))
        .select_related("stage", "entrant_a", "entrant_b")
        .order_by("stage__order", "round", "position")
    )


def event_open_disputes(event: Event) -> list[Dispute]:
    """Open disputes on the matches of the event's sets, oldest first (organizers settle them)."""
    return list(
        Dispute.objects.filter(
            status=Dispute.Status.OPEN, match__set_link__set__stage__event=event
        ).select_related("match__set_link__set", "opened_by").order_by("opened_at", "id")
    )


def event_disputed_reports(event: Event) -> list[SetReport]:
    """Reported scores the opponent disputed on sets still open: an organizer decides them."""
    return list(
        SetReport.objects.filter(
            status=SetReport.Status.DISPUTED, set__stage__event=event, set__status=Set.Status.READY
        ).select_related("set").order_by("answered_at", "id")
    )


def event_champion(event: Event) -> Entrant | None:
    """The winner of the event's last stage once it is finished (its one entrant ranked first);
    None before then, or when the stage ranks several first (a shared first place)."""
    last = event.stages.order_by("-order", "-id").first()
    if last is None or last.status != Stage.Status.FINISHED:
        return None
    first = [line.entrant for line in stage_standings(last).lines if line.rank == 1]
    return first[0] if len(first) == 1 else None


def event_unchecked_entrants(event: Event) -> list[Entrant]:
    """The registered entrants generating the first stage would remove now: during check-in,
    those who have not checked in (named before and after, never removed silently)."""
    if event.status != Event.Status.CHECK_IN or event.stages.exclude(
            status=Stage.Status.PENDING).exists():
        return []
    return list(event.entrants.filter(status=Entrant.Status.REGISTERED,
                                      checked_in_at__isnull=True).order_by("name"))
