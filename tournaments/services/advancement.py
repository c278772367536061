"""Reporting results, forfeits, disqualifications and corrections; advancing the bracket.

Every write locks the stage row first (``SELECT ... FOR UPDATE``), so writes to one stage run one
after another; the set itself is re-read under the lock and its status checked, which makes
finishing a set (and so advancing its winner) happen exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, Event, Game, Set, SetResultChange, Stage
from tournaments.services.bracket import SetBook, downstream_keys, finish, reset, resolve
from tournaments.services.common import lock_stage, require_organizer


@dataclass(frozen=True)
class GameInput:
    winner_side: str  # "a" or "b"
    characters_a: Sequence[str] = ()
    characters_b: Sequence[str] = ()


@dataclass(frozen=True)
class SetResult:
    """A result to record: games played, or a forfeit by one side or both."""

    games: Sequence[GameInput] = ()
    forfeit: str = ""  # "", "a", "b" or "both"


@dataclass
class CorrectionPlan:
    """What a correction will change, shown to the organizer before they confirm."""

    set: Set
    old_winner: Entrant | None
    new_winner: Entrant | None
    winner_changes: bool
    reset_sets: list[Set] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def cleared_results(self) -> list[Set]:
        return [s for s in self.reset_sets if s.status == Set.Status.FINISHED]


def _book_for(stage: Stage) -> SetBook:
    qs = Set.objects.select_related("entrant_a", "entrant_b").filter(stage=stage)

    def load(key: str) -> Set:
        return qs.select_for_update(of=("self",)).get(key=key)

    disqualified = set(
        Entrant.objects.filter(
            event_id=stage.event_id, status=Entrant.Status.DISQUALIFIED
        ).values_list("pk", flat=True)
    )
    return SetBook(sets={}, loader=load, disqualified=disqualified)


def _locked_set(set: Set) -> tuple[Stage, SetBook, Set]:
    """Lock ``set``'s stage and load its book of sets; the set as the book holds it (locked,
    its stage the locked one), for a change that may move results through the bracket."""
    stage = lock_stage(set.stage)
    book = _book_for(stage)
    s = book.get(set.key)
    s.stage = stage
    return stage, book, s


def _save(book: SetBook) -> None:
    fields = [
        "entrant_a", "entrant_b", "is_bye_a", "is_bye_b", "score_a", "score_b", "winner",
        "loser", "status", "outcome", "finished_at",
    ]
    changed = book.changed()
    for s in changed:
        s.full_clean(exclude=["stage", "entrant_a", "entrant_b", "winner", "loser"])
    Set.objects.bulk_update(changed, fields, batch_size=500)
    from tournaments.announcements import sets_ready_announce

    sets_ready_announce(sets=changed)
    # Open matches of sets that changed entrants (or finished another way) are cancelled, so a
    # result is never credited to an entrant who did not play it.
    from tournaments.services.set_matches import set_matches_cancel_stale

    set_matches_cancel_stale(sets=changed)


def _snapshot(s: Set) -> dict[str, Any]:
    return {
        "status": s.status, "outcome": s.outcome, "score_a": s.score_a, "score_b": s.score_b,
        "winner": s.winner_id, "entrant_a": s.entrant_a_id, "entrant_b": s.entrant_b_id,
        "games": [
            {"winner_side": g.winner_side, "characters_a": g.characters_a,
             "characters_b": g.characters_b}
            for g in s.games.all()
        ] if s.pk else [],
    }


def character_names() -> dict[str, str]:
    """Every character the rulebook has, by lower-case name and id, to its name ("Grave")."""
    from rules_engine.cards import characters

    known: dict[str, str] = {}
    for character_id, character in characters().items():
        known[character_id.lower()] = character.name
        known[character.name.lower()] = character.name
    return known


def canonical_character(name: str) -> str | None:
    return character_names().get(name.strip().lower())


def _check_character_names(games: Sequence[GameInput]) -> None:
    """A report names real characters: made-up names would poison stats and pick rules."""
    roster = sorted(set(character_names().values()))
    for i, game in enumerate(games, 1):
        for side in ("a", "b"):
            for name in getattr(game, f"characters_{side}"):
                if canonical_character(name) is None:
                    raise TournamentError(
                        TournamentErrorCode.RESULT_INVALID,
                        f"game {i}, side {side.upper()}: there is no character called "
                        f"{name!r} (characters: {', '.join(roster)})",
                        game=i, side=side,
                    )


def _check_characters(event: Event, games: Sequence[GameInput]) -> None:
    _check_character_names(games)
    rule = event.character_rule
    for side in ("a", "b"):
        picks = [[canonical_character(c) or c for c in getattr(g, f"characters_{side}")]
                 for g in games]
        for i in range(1, len(games)):
            before, now = picks[i - 1], picks[i]
            if not before or not now:
                continue
            if rule == Event.CharacterRule.LOCKED and now != before:
                raise TournamentError(
                    TournamentErrorCode.RESULT_INVALID,
                    f"characters are locked for the set: side {side} switched in game {i + 1}",
                )
            kept = games[i - 1].winner_side == side
            if rule == Event.CharacterRule.WINNER_LOCKED and kept and now != before:
                raise TournamentError(
                    TournamentErrorCode.RESULT_INVALID,
                    f"side {side} won game {i} and is locked to its characters in game {i + 1}",
                )


def _validate_result(s: Set, result: SetResult) -> tuple[str | None, int, int]:
    """Check a result against the set; returns (winner side, score a, score b)."""
    if result.forfeit:
        if result.forfeit not in ("a", "b", "both"):
            raise TournamentError(
                TournamentErrorCode.RESULT_INVALID, "forfeit is 'a', 'b' or 'both'"
            )
        if result.games:
            raise TournamentError(
                TournamentErrorCode.RESULT_INVALID, "a forfeit carries no games"
            )
        if result.forfeit == "both":
            return None, 0, 0
        return ("b" if result.forfeit == "a" else "a"), 0, 0
    if not result.games:
        raise TournamentError(TournamentErrorCode.RESULT_INVALID, "report at least one game")
    wins = {"a": 0, "b": 0}
    for i, game in enumerate(result.games, 1):
        if game.winner_side not in wins:
            raise TournamentError(
                TournamentErrorCode.RESULT_INVALID, f"game {i}: the winner is side 'a' or 'b'"
            )
        if max(wins.values()) >= s.wins_needed:
            raise TournamentError(
                TournamentErrorCode.RESULT_INVALID,
                f"best of {s.best_of}: the set was decided before game {i}",
            )
        wins[game.winner_side] += 1
    if max(wins.values()) < s.wins_needed:
        raise TournamentError(
            TournamentErrorCode.RESULT_INVALID,
            f"best of {s.best_of}: a side needs {s.wins_needed} wins "
            f"(reported {wins['a']}-{wins['b']})",
        )
    _check_characters(s.stage.event, result.games)
    from tournaments.services.picks import check_picks

    check_picks(s, result.games)
    return ("a" if wins["a"] > wins["b"] else "b"), wins["a"], wins["b"]


def _record_games(s: Set, result: SetResult, actor: Any, *, keep: frozenset[int] = frozenset(),
                  ) -> None:
    """The set's games as reported; ``keep``: numbers of games left as they are (recorded
    from confirmed matches)."""
    s.games.exclude(number__in=keep).delete()
    now = timezone.now()
    reporter = actor if actor.is_authenticated else None
    Game.objects.bulk_create(
        Game(
            set=s, number=i, winner_side=g.winner_side,
            characters_a=[canonical_character(c) or c for c in g.characters_a],
            characters_b=[canonical_character(c) or c for c in g.characters_b],
            reported_by=reporter, played_at=now,
        )
        for i, g in enumerate(result.games, 1) if i not in keep
    )


def _games_from_matches(s: Set, result: SetResult) -> frozenset[int]:
    """The games of a partly played set that confirmed matches recorded: a report must agree
    with each (same number, same winner), and they are kept as recorded, so the set never
    disagrees with the matches that decided its games (issue 31). A forfeit records no games:
    it leaves them too."""
    recorded = list(s.games.filter(match__isnull=False).order_by("number"))
    for game in recorded:
        if result.forfeit:
            continue
        reported = result.games[game.number - 1] if game.number <= len(result.games) else None
        if reported is None or reported.winner_side != game.winner_side:
            raise TournamentError(
                TournamentErrorCode.RESULT_INVALID,
                f"game {game.number} was recorded from confirmed match #{game.match_id} (won by "
                f"side {game.winner_side.upper()}): a report keeps the games that confirmed "
                "matches recorded; override that match's result to change it",
            )
    return frozenset(game.number for game in recorded)


def _outcome(result: SetResult, *, dq: bool = False) -> str:
    if dq:
        return Set.Outcome.DISQUALIFICATION
    if result.forfeit == "both":
        return Set.Outcome.DOUBLE_FORFEIT
    return Set.Outcome.FORFEIT if result.forfeit else Set.Outcome.PLAYED


def stage_finish_if_done(stage: Stage) -> bool:
    """Finish a stage when all its sets are done (Swiss: after its last round)."""
    open_sets = stage.sets.filter(status__in=(Set.Status.WAITING, Set.Status.READY)).exists()
    if stage.kind == Stage.Kind.SWISS and stage.current_round < (stage.swiss_rounds or 0):
        return False
    if open_sets or stage.status != Stage.Status.RUNNING:
        return False
    stage.status = Stage.Status.FINISHED
    stage.save(update_fields=["status"])
    event = stage.event
    if not event.stages.filter(order__gt=stage.order).exists():
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    return True


def _stage_reopen(stage: Stage) -> None:
    if stage.status == Stage.Status.FINISHED:
        stage.status = Stage.Status.RUNNING
        stage.save(update_fields=["status"])
        Event.objects.filter(pk=stage.event_id, status=Event.Status.FINISHED).update(
            status=Event.Status.RUNNING
        )


def _after_result(stage: Stage) -> None:
    from tournaments.services.ratings import ratings_recompute_on_commit

    if (
        stage.kind == Stage.Kind.SWISS
        and stage.current_round < (stage.swiss_rounds or 0)
        and not stage.sets.exclude(status=Set.Status.FINISHED).exists()
    ):
        from tournaments.services.swiss import swiss_pair_next_round

        try:
            swiss_pair_next_round(stage)
        except TournamentError:
            # No pairing without a rematch or a second bye: the Swiss ends after this round.
            stage.swiss_rounds = stage.current_round
            stage.save(update_fields=["swiss_rounds"])
    stage_finish_if_done(stage)
    ratings_recompute_on_commit()


@transaction.atomic
def set_result_report(*, set: Set, actor: Any, result: SetResult) -> Set:
    """Record a ready set's result and advance its winner (and loser) exactly once."""
    require_organizer(event=set.stage.event, actor=actor)
    return set_result_record(set=set, actor=actor, result=result)


def set_result_record(*, set: Set, actor: Any, result: SetResult, action: str = "") -> Set:
    """Record a ready set's result (no permission check: callers decide who may)."""
    stage, book, s = _locked_set(set)
    if s.status == Set.Status.FINISHED:
        raise TournamentError(
            TournamentErrorCode.SET_ALREADY_FINISHED,
            f"{s.round_name or s.key} is already finished; correct it instead",
        )
    if s.status != Set.Status.READY:
        raise TournamentError(
            TournamentErrorCode.SET_NOT_READY,
            f"{s.round_name or s.key} is waiting for its entrants",
        )
    winner_side, score_a, score_b = _validate_result(s, result)
    keep = _games_from_matches(s, result)
    before = _snapshot(s)
    _record_games(s, result, actor, keep=keep)
    finish(book, s, winner_side=winner_side, outcome=_outcome(result),
           score_a=score_a, score_b=score_b)
    _save(book)
    SetResultChange.objects.create(
        set=s, changed_by=actor,
        action=action or ("forfeit" if result.forfeit else "report"),
        before=before, after=_snapshot(s),
    )
    _after_result(stage)
    return s


def _plan(book: SetBook, s: Set, winner_side: str | None, stage: Stage) -> CorrectionPlan:
    new_winner = None
    if winner_side is not None:
        new_winner = s.entrant_a if winner_side == "a" else s.entrant_b
    winner_changes = (new_winner.pk if new_winner else None) != s.winner_id
    plan = CorrectionPlan(
        set=s, old_winner=s.winner, new_winner=new_winner, winner_changes=winner_changes
    )
    if not winner_changes:
        plan.notes.append("The winner stays the same: only this set's games and score change.")
        return plan
    keys = downstream_keys(book, s)
    plan.reset_sets = [book.get(k) for k in keys]
    plan.reset_sets = [
        r for r in plan.reset_sets
        if r.status != Set.Status.WAITING or r.entrant_a_id or r.entrant_b_id
    ]
    if stage.kind in Stage.TABLE_KINDS:
        plan.notes.append("Standings are recomputed; sets already paired are kept.")
    return plan


def _plan_guard(stage: Stage, plan: CorrectionPlan) -> None:
    if not plan.winner_changes:
        return
    later = Stage.objects.filter(event_id=stage.event_id, order__gt=stage.order).exclude(
        status=Stage.Status.PENDING
    )
    if later.exists():
        raise TournamentError(
            TournamentErrorCode.STAGE_STARTED,
            "a later stage was generated from this stage's result; the winner cannot change",
        )


def set_correction_preview(*, set: Set, actor: Any, result: SetResult) -> CorrectionPlan:
    """What correcting a finished set would change; writes nothing."""
    require_organizer(event=set.stage.event, actor=actor)
    with transaction.atomic():
        stage, book, s = _locked_set(set)
        if s.status != Set.Status.FINISHED:
            raise TournamentError(
                TournamentErrorCode.SET_NOT_FINISHED,
                f"{s.round_name or s.key} has no result yet; report it instead",
            )
        winner_side, _, _ = _validate_result(s, result)
        plan = _plan(book, s, winner_side, stage)
        _plan_guard(stage, plan)
        return plan


@transaction.atomic
def set_result_correct(
    *, set: Set, actor: Any, result: SetResult, reason: str, confirm: bool
) -> CorrectionPlan:
    """Replace a finished set's result; every set that depended on it is reset and refilled.

    Without ``confirm`` nothing is written and CONFIRMATION_REQUIRED names what would change.
    """
    plan = set_correction_preview(set=set, actor=actor, result=result)
    if not confirm:
        raise TournamentError(
            TournamentErrorCode.CONFIRMATION_REQUIRED,
            "confirm the correction: " + describe_plan(plan),
            reset_sets=[r.key for r in plan.reset_sets],
        )
    if not reason.strip():
        raise TournamentError(TournamentErrorCode.RESULT_INVALID, "say why the result changes")
    stage, book, s = _locked_set(set)
    winner_side, score_a, score_b = _validate_result(s, result)
    before = _snapshot(s)
    keys = downstream_keys(book, s) if plan.winner_changes else []
    if keys:
        reset(book, keys, cleared_sources={s.key, *keys})
        Game.objects.filter(set__stage=stage, set__key__in=keys).delete()
        _stage_reopen(stage)
    _record_games(s, result, actor)
    if plan.winner_changes:
        finish(book, s, winner_side=winner_side, outcome=_outcome(result),
               score_a=score_a, score_b=score_b)
    else:
        s.score_a, s.score_b, s.outcome = score_a, score_b, _outcome(result)
        book.touch(s)
    _save(book)
    SetResultChange.objects.create(
        set=s, changed_by=actor, action="correct", reason=reason.strip(), before=before,
        after=_snapshot(s), reset_set_keys=[r.key for r in plan.reset_sets],
    )
    _after_result(stage)
    return plan


REOPENABLE_OUTCOMES = (Set.Outcome.PLAYED, Set.Outcome.FORFEIT, Set.Outcome.DOUBLE_FORFEIT)


def set_reopen_preview(*, set: Set, actor: Any) -> CorrectionPlan:
    """What reopening a finished set would clear; writes nothing."""
    require_organizer(event=set.stage.event, actor=actor)
    with transaction.atomic():
        stage, book, s = _locked_set(set)
        if s.status != Set.Status.FINISHED:
            raise TournamentError(
                TournamentErrorCode.SET_NOT_FINISHED,
                f"{s.round_name or s.key} is not finished: nothing to reopen",
            )
        if s.outcome not in REOPENABLE_OUTCOMES:
            # A bye or a disqualification would decide the set again at once.
            raise TournamentError(
                TournamentErrorCode.INVALID,
                f"{s.round_name or s.key} was decided by {s.get_outcome_display().lower()}: "
                "it cannot be replayed",
            )
        plan = CorrectionPlan(set=s, old_winner=s.winner, new_winner=None, winner_changes=True)
        plan.reset_sets = [
            r for r in (book.get(k) for k in downstream_keys(book, s))
            if r.status != Set.Status.WAITING or r.entrant_a_id or r.entrant_b_id
        ]
        plan.notes.append("The set is played again: its games and score are cleared.")
        if stage.kind in Stage.TABLE_KINDS:
            plan.notes.append("Standings are recomputed; sets already paired are kept.")
        _plan_guard(stage, plan)
        return plan


@transaction.atomic
def set_reopen(*, set: Set, actor: Any, reason: str, confirm: bool) -> CorrectionPlan:
    """Clear a finished set's result so it is played again; later sets it fed are reset.

    Without ``confirm`` nothing is written and CONFIRMATION_REQUIRED names what would change.
    """
    plan = set_reopen_preview(set=set, actor=actor)
    if not confirm:
        raise TournamentError(
            TournamentErrorCode.CONFIRMATION_REQUIRED,
            f"confirm reopening: {len(plan.reset_sets)} later set(s) are reset",
            reset_sets=[r.key for r in plan.reset_sets],
        )
    if not reason.strip():
        raise TournamentError(TournamentErrorCode.RESULT_INVALID, "say why the set is reopened")
    stage, book, s = _locked_set(set)
    before = _snapshot(s)
    keys = downstream_keys(book, s)
    if keys:
        reset(book, keys, cleared_sources={s.key, *keys})
        Game.objects.filter(set__stage=stage, set__key__in=keys).delete()
    s.games.all().delete()
    s.status, s.outcome = Set.Status.READY, ""
    s.score_a = s.score_b = 0
    s.winner = s.loser = None
    s.finished_at = None
    book.touch(s)
    _stage_reopen(stage)
    _save(book)
    SetResultChange.objects.create(
        set=s, changed_by=actor, action="reopen", reason=reason.strip(), before=before,
        after=_snapshot(s), reset_set_keys=[r.key for r in plan.reset_sets],
    )
    from tournaments.services.ratings import ratings_recompute_on_commit

    ratings_recompute_on_commit()
    return plan


def describe_plan(plan: CorrectionPlan) -> str:
    if not plan.winner_changes:
        return "only the score of this set changes"
    cleared = plan.cleared_results
    parts = [
        f"the winner becomes {plan.new_winner.name if plan.new_winner else 'nobody'}",
        f"{len(plan.reset_sets)} later set(s) are reset",
    ]
    if cleared:
        parts.append(
            "results cleared: " + ", ".join(f"{r.round_name or r.key} ({r})" for r in cleared)
        )
    return "; ".join(parts)


@transaction.atomic
def entrant_disqualify(*, entrant: Entrant, actor: Any, reason: str = "") -> Entrant:
    """Disqualify an entrant: its open sets are lost by DQ now, later ones as they come."""
    event = entrant.event
    require_organizer(event=event, actor=actor)
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if entrant.status != Entrant.Status.REGISTERED:
        raise TournamentError(
            TournamentErrorCode.INVALID,
            f"{entrant.name} is {entrant.get_status_display().lower()}",
        )
    entrant.status = Entrant.Status.DISQUALIFIED
    entrant.save(update_fields=["status"])
    stages = event.stages.filter(status=Stage.Status.RUNNING).order_by("order")
    for stage in stages:
        stage = lock_stage(stage)
        book = _book_for(stage)
        ready = Set.objects.filter(stage=stage, status=Set.Status.READY).filter(
            Q(entrant_a=entrant) | Q(entrant_b=entrant)
        )
        for key in ready.values_list("key", flat=True):
            s = book.get(key)
            before = _snapshot(s)
            s.status = Set.Status.WAITING  # resolve() decides again, now knowing of the DQ
            resolve(book, s)
            SetResultChange.objects.create(
                set=s, changed_by=actor, action="disqualify", reason=reason,
                before=before, after=_snapshot(s),
            )
        _save(book)
        _after_result(stage)
    return entrant



# --- game by game, from verified match logs ----------------------------------------------------


def _wins(games: Sequence[Game]) -> tuple[int, int]:
    return (
        sum(1 for g in games if g.winner_side == "a"),
        sum(1 for g in games if g.winner_side == "b"),
    )


@transaction.atomic
def set_game_record(
    *, set: Set, game: GameInput, match: Any = None, actor: Any = None
) -> Set:
    """Add one game to a ready set; finish the set (and advance) once a side has enough wins.

    Used for results that come from confirmed match logs. Recording the same match twice
    changes nothing, so a retried or duplicated callback is harmless.
    """
    stage, book, s = _locked_set(set)
    if match is not None and Game.objects.filter(match=match).exists():
        return s
    if s.status != Set.Status.READY:
        raise TournamentError(
            TournamentErrorCode.SET_NOT_READY if s.status == Set.Status.WAITING
            else TournamentErrorCode.SET_ALREADY_FINISHED,
            f"{s.round_name or s.key} is {s.get_status_display().lower()}: no game can be added",
        )
    games = list(s.games.order_by("number"))
    _check_characters(stage.event, [
        *(GameInput(g.winner_side, g.characters_a, g.characters_b) for g in games), game,
    ])
    from tournaments.services.picks import check_picks

    check_picks(s, [game], first_number=len(games) + 1)
    before = _snapshot(s)
    reporter = actor if getattr(actor, "is_authenticated", False) else None
    games.append(Game.objects.create(
        set=s, number=len(games) + 1, winner_side=game.winner_side,
        characters_a=list(game.characters_a), characters_b=list(game.characters_b),
        reported_by=reporter, played_at=timezone.now(), match=match,
    ))
    score_a, score_b = _wins(games)
    is_decided = max(score_a, score_b) >= s.wins_needed
    if is_decided:
        finish(book, s, winner_side="a" if score_a > score_b else "b",
               outcome=Set.Outcome.PLAYED, score_a=score_a, score_b=score_b)
    else:
        s.score_a, s.score_b = score_a, score_b
        book.touch(s)
    _save(book)
    SetResultChange.objects.create(
        set=s, changed_by=reporter, action="game", before=before, after=_snapshot(s),
        reason=f"game {len(games)} from match {match.pk}" if match is not None else "",
    )
    if is_decided:
        _after_result(stage)
    return s


@transaction.atomic
def set_game_winner_change(*, game: Game, winner_side: str, actor: Any, reason: str) -> Set:
    """An organizer changed the result of a game (a match override): update the set.

    If the set's outcome changes, every set that depended on it is reset, as in a correction; a
    finished set that is no longer decided becomes ready again for the games still to play.
    """
    stage, book, s = _locked_set(game.set)
    games = list(s.games.order_by("number"))
    target = next(g for g in games if g.pk == game.pk)
    if target.winner_side == winner_side:
        return s
    before = _snapshot(s)
    target.winner_side = winner_side
    target.save(update_fields=["winner_side"])
    score_a, score_b = _wins(games)
    is_decided = max(score_a, score_b) >= s.wins_needed
    new_winner_side = ("a" if score_a > score_b else "b") if is_decided else None
    old_winner_side = None
    if s.status == Set.Status.FINISHED and s.winner_id is not None:
        old_winner_side = "a" if s.winner_id == s.entrant_a_id else "b"
    if s.status == Set.Status.FINISHED and new_winner_side != old_winner_side:
        plan = _plan(book, s, new_winner_side, stage)
        _plan_guard(stage, plan)
        keys = downstream_keys(book, s)
        reset(book, [s.key, *keys], cleared_sources={s.key, *keys})
        Game.objects.filter(set__stage=stage, set__key__in=keys).delete()
        _stage_reopen(stage)
        resolve(book, s)
    if is_decided and s.status != Set.Status.FINISHED:
        finish(book, s, winner_side=new_winner_side, outcome=Set.Outcome.PLAYED,
               score_a=score_a, score_b=score_b)
    else:
        s.score_a, s.score_b = score_a, score_b
        book.touch(s)
    _save(book)
    reporter = actor if getattr(actor, "is_authenticated", False) else None
    SetResultChange.objects.create(
        set=s, changed_by=reporter, action="game_override", reason=reason,
        before=before, after=_snapshot(s),
    )
    _after_result(stage)
    return s
