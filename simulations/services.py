"""Writes for simulations: matchup jobs (create, run a chunk, resume, sweep) and event odds.

Every function is keyword-only. Chunks are idempotent: a chunk already stored is not played
again, and a second store of the same chunk is refused by the unique constraint, so a message
delivered twice (a worker killed mid-chunk, the sweeper, a resume) never counts games twice.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from matches.dispatch import task_send
from rules_engine import selfplay
from rules_engine.bots import BEST_BOT, make_bot
from rules_engine.cards import characters as all_characters
from rules_engine.types import PlayerId
from simulations.errors import SimulationError
from simulations.models import MatchupChunk, MatchupJob

DEFAULT_BOT = BEST_BOT  # a chart is only as good as the play behind it
DEFAULT_CHUNK_SIZE = 250
MAX_GAMES_PER_PAIR = 100_000


def bot_validate(name: str) -> str:
    """``name`` if ``rules_engine.bots.make_bot`` accepts it, else SimulationError."""
    try:
        make_bot(name, 0)
    except ValueError as exc:
        raise SimulationError(str(exc)) from exc
    return name


def characters_validate(ids: Sequence[str] | None) -> list[str]:
    known = sorted(all_characters())
    if not ids:
        return known
    unknown = [c for c in ids if c not in known]
    if unknown:
        raise SimulationError(f"unknown characters: {', '.join(unknown)}")
    if len(set(ids)) != len(ids):
        raise SimulationError("a character is listed twice")
    return list(ids)


def matchup_job_create(
    *,
    bot: str = DEFAULT_BOT,
    games_per_pair: int,
    characters: Sequence[str] | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    base_seed: int = 0,
    created_by: Any = None,
) -> MatchupJob:
    """Store a job and, once committed, send every chunk to the workers."""
    bot_validate(bot)
    chosen = characters_validate(characters)
    if not 1 <= games_per_pair <= MAX_GAMES_PER_PAIR:
        raise SimulationError(f"games per pair must be 1 to {MAX_GAMES_PER_PAIR}")
    if chunk_size < 1:
        raise SimulationError("chunk size must be at least 1")
    with transaction.atomic():
        job = MatchupJob.objects.create(
            bot=bot, games_per_pair=games_per_pair, characters=chosen,
            chunk_size=min(chunk_size, games_per_pair), base_seed=base_seed,
            created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
        )
        transaction.on_commit(lambda: matchup_job_resume(job=job))
    return job


def matchup_job_resume(*, job: MatchupJob) -> int:
    """Send every chunk of ``job`` not stored yet; the number sent. A finished job sends none."""
    from simulations.tasks import matchup_chunk_task

    job.refresh_from_db()
    if job.status == MatchupJob.Status.FINISHED:
        return 0
    done = set(job.chunks.values_list("p1", "p2", "index"))
    missing = [key for key in job.chunk_keys() if key not in done]
    MatchupJob.objects.filter(pk=job.pk).update(enqueued_at=timezone.now())
    for p1, p2, index in missing:
        task_send(f"chunk {p1}/{p2}/{index} of job {job.pk}",
                  lambda p1=p1, p2=p2, index=index: matchup_chunk_task.delay(job.pk, p1, p2, index))
    if not missing:
        matchup_job_finish_if_complete(job_id=job.pk)
    return len(missing)


def matchup_chunk_run(*, job_id: int, p1: str, p2: str, index: int) -> bool:
    """Play one chunk and store it; False if it was stored already (nothing counted twice)."""
    job = MatchupJob.objects.get(pk=job_id)
    if MatchupChunk.objects.filter(job=job, p1=p1, p2=p2, index=index).exists():
        return False
    if p1 not in job.characters or p2 not in job.characters or index >= job.chunks_per_pair:
        raise SimulationError(f"chunk {p1}/{p2}/{index} is not part of job {job.pk}")
    # per half of the seeds (even, odd offset): games, P1 wins, P2 wins, draws
    counts = [[0, 0, 0, 0], [0, 0, 0, 0]]
    seeds = job.chunk_seeds(index)
    started = time.perf_counter()
    for seed in seeds:
        game, _ = selfplay.play_game(p1, p2, seed, bot=job.bot)
        assert game.outcome is not None
        winner = game.outcome.winner
        half = counts[(seed - job.base_seed) % 2]
        half[0] += 1
        half[3 if winner is None else 1 if winner is PlayerId.P1 else 2] += 1
    seconds = time.perf_counter() - started
    odd = counts[1]
    try:
        with transaction.atomic():
            MatchupChunk.objects.create(
                job=job, p1=p1, p2=p2, index=index, games=len(seeds),
                p1_wins=counts[0][1] + odd[1], p2_wins=counts[0][2] + odd[2],
                draws=counts[0][3] + odd[3], seconds=seconds, odd_games=odd[0],
                odd_p1_wins=odd[1], odd_p2_wins=odd[2], odd_draws=odd[3],
            )
    except IntegrityError:
        return False  # another delivery of the same chunk got there first
    matchup_job_finish_if_complete(job_id=job.pk)
    return True


def matchup_job_finish_if_complete(*, job_id: int) -> bool:
    job = MatchupJob.objects.get(pk=job_id)
    if job.chunks.count() < job.chunks_total:
        return False
    return bool(MatchupJob.objects.filter(pk=job_id, status=MatchupJob.Status.RUNNING)
                .update(status=MatchupJob.Status.FINISHED, finished_at=timezone.now()))


def matchup_jobs_sweep() -> int:
    """Resume every running job whose chunks were last sent over YOMI_SWEEP_AFTER ago."""
    cutoff = timezone.now() - dt.timedelta(seconds=settings.YOMI_SWEEP_AFTER)
    sent = 0
    for job in MatchupJob.objects.filter(status=MatchupJob.Status.RUNNING,
                                         enqueued_at__lt=cutoff):
        sent += matchup_job_resume(job=job)
    return sent


__all__ = [
    "DEFAULT_BOT",
    "bot_validate",
    "characters_validate",
    "matchup_chunk_run",
    "matchup_job_create",
    "matchup_job_finish_if_complete",
    "matchup_job_resume",
    "matchup_jobs_sweep",
]
