"""Reads for simulations: a matchup job's progress and its chart; the chart the seeding and
the odds use (the simulated chart blended with the real games')."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, Max, Min, Q, Sum
from django.utils import timezone

from rules_engine.bots import BOTS
from rules_engine.cards import character
from simulations.models import MatchupJob
from simulations.montecarlo.charts import SplitHalf, blended_score, split_half
from stats import selectors as stats_selectors
from stats.selectors import Record, Scope
from stats.wilson import wilson_interval

RATE_WINDOW = dt.timedelta(seconds=60)


@dataclass(frozen=True)
class JobProgress:
    job_id: int
    status: str
    games_done: int
    games_total: int
    chunks_done: int
    chunks_total: int
    games_per_second: float | None
    eta_seconds: float | None
    elapsed_seconds: float | None  # first chunk started to last stored (or now)

    @property
    def fraction(self) -> float:
        return self.games_done / self.games_total if self.games_total else 1.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "job": self.job_id, "status": self.status,
            "games_done": self.games_done, "games_total": self.games_total,
            "chunks_done": self.chunks_done, "chunks_total": self.chunks_total,
            "percent": round(100 * self.fraction, 1),
            "games_per_second": (None if self.games_per_second is None
                                 else round(self.games_per_second, 1)),
            "eta_seconds": None if self.eta_seconds is None else round(self.eta_seconds),
            "elapsed_seconds": (None if self.elapsed_seconds is None
                                else round(self.elapsed_seconds, 1)),
        }


def matchup_job_progress(*, job: MatchupJob, now: dt.datetime | None = None) -> JobProgress:
    """Games and chunks stored so far; the rate over the last minute (the whole run once it is
    finished) and the time left at that rate."""
    now = now or timezone.now()
    totals = job.chunks.aggregate(games=Sum("games"), chunks=Count("id"),
                                  first=Min("finished_at"), last=Max("finished_at"))
    games_done = totals["games"] or 0
    elapsed = None
    rate = None
    if totals["first"] is not None:
        # the first chunk's own play time comes before its row: count it in
        first_seconds = job.chunks.order_by("finished_at").values_list("seconds", flat=True)[0]
        start = totals["first"] - dt.timedelta(seconds=first_seconds)
        end = totals["last"] if job.status == MatchupJob.Status.FINISHED else now
        elapsed = max((end - start).total_seconds(), 1e-6)
        if job.status == MatchupJob.Status.FINISHED:
            rate = games_done / elapsed
        else:
            window_start = max(start, now - RATE_WINDOW)
            recent = job.chunks.filter(finished_at__gte=window_start).aggregate(
                g=Sum("games"))["g"] or 0
            span = (now - window_start).total_seconds()
            rate = recent / span if span > 0 and recent else None
    remaining = job.games_total - games_done
    eta = 0.0 if remaining <= 0 else (remaining / rate if rate else None)
    return JobProgress(job.pk, job.status, games_done, job.games_total,
                       totals["chunks"] or 0, job.chunks_total, rate, eta, elapsed)


@dataclass(frozen=True)
class ChartCell:
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float | None:
        """Expected score out of 10 for the row's character."""
        return 10 * self.points / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float] | None:
        found = wilson_interval(self.points, self.games)
        return None if found is None else (10 * found[0], 10 * found[1])


@dataclass(frozen=True)
class SimulatedChart:
    job: MatchupJob
    characters: list[str]
    cells: list[list[ChartCell]]
    # the agreement of the chart's two halves of seeds (None: chunks stored before halves were)
    reliability: SplitHalf | None = None

    @property
    def names(self) -> list[str]:
        return [character(c).name for c in self.characters]

    @property
    def scores(self) -> list[list[float | None]]:
        return [[c.score for c in row] for row in self.cells]

    def rows(self) -> list[tuple[str, str, list[tuple[str, ChartCell]]]]:
        return [(cid, name, list(zip(self.characters, row, strict=True)))
                for cid, name, row in zip(self.characters, self.names, self.cells, strict=True)]

    def as_dict(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 3)

        rel = self.reliability
        return {
            "job": self.job.pk, "bot": self.job.bot, "games_per_pair": self.job.games_per_pair,
            "status": self.job.status,
            "characters": self.characters,
            "score": [[r(c.score) for c in row] for row in self.cells],
            "games": [[c.games for c in row] for row in self.cells],
            "low": [[r(c.interval[0]) if c.interval else None for c in row]
                    for row in self.cells],
            "high": [[r(c.interval[1]) if c.interval else None for c in row]
                     for row in self.cells],
            "split_half": None if rel is None else {
                "pairs": rel.pairs, "cells": r(rel.cells), "averages": r(rel.averages),
                "cells_full": r(rel.cells_full), "averages_full": r(rel.averages_full),
            },
        }


Counts = tuple[int, int, int, int]  # games, P1 wins, P2 wins, draws


def _cells(chars: list[str], per_pair: dict[tuple[str, str], Counts]) -> list[list[ChartCell]]:
    """Row i against column j pools i's games as P1 against j and as P2 against j. In a mirror
    both seats are the same character, so its score is 5 by construction (its games count
    once)."""
    cells = []
    for a in chars:
        row = []
        for b in chars:
            g1, w1, l1, d1 = per_pair.get((a, b), (0, 0, 0, 0))
            if a == b:
                decisive = w1 + l1
                row.append(ChartCell(g1, decisive // 2, d1 + decisive % 2, decisive // 2))
                continue
            g2, l2, w2, d2 = per_pair.get((b, a), (0, 0, 0, 0))
            row.append(ChartCell(g1 + g2, w1 + w2, d1 + d2, l1 + l2))
        cells.append(row)
    return cells


def matchup_job_chart(*, job: MatchupJob) -> SimulatedChart:
    """Score out of 10 of each row's character against each column's, both seats pooled
    (:func:`_cells`), with the split-half reliability of the even and the odd seeds."""
    rows = job.chunks.values("p1", "p2").annotate(
        games=Sum("games"), w1=Sum("p1_wins"), w2=Sum("p2_wins"), d=Sum("draws"),
        og=Sum("odd_games"), ow1=Sum("odd_p1_wins"), ow2=Sum("odd_p2_wins"),
        od=Sum("odd_draws"), unsplit=Count("id", filter=Q(odd_games__isnull=True)))
    total: dict[tuple[str, str], Counts] = {}
    odd: dict[tuple[str, str], Counts] = {}
    even: dict[tuple[str, str], Counts] = {}
    split = True
    for row in rows:
        key = (row["p1"], row["p2"])
        total[key] = (row["games"], row["w1"], row["w2"], row["d"])
        if row["unsplit"]:
            split = False
            continue
        odd[key] = (row["og"], row["ow1"], row["ow2"], row["od"])
        even[key] = (row["games"] - row["og"], row["w1"] - row["ow1"],
                     row["w2"] - row["ow2"], row["d"] - row["od"])
    chars = list(job.characters)
    reliability = None
    if split and total:
        halves = [[[c.score for c in r] for r in _cells(chars, h)] for h in (even, odd)]
        reliability = split_half(halves[0], halves[1])
    return SimulatedChart(job, chars, _cells(chars, total), reliability)


def matchup_jobs_recent(limit: int = 20) -> list[MatchupJob]:
    return list(MatchupJob.objects.all()[:limit])


def matchup_job_in_use() -> MatchupJob | None:
    """The simulated chart the seeding and the odds stand on: the latest finished job of the
    best bot that has one (``rules_engine.bots.BOTS`` ranks them), so a quick random-bot chart
    started later never replaces a strong-bot chart. None before any job has finished."""
    finished = MatchupJob.objects.filter(status=MatchupJob.Status.FINISHED)
    bots = set(finished.values_list("bot", flat=True).distinct())
    if not bots:
        return None
    best = max(bots, key=lambda b: (BOTS.index(b) if b in BOTS else -1, b))
    return finished.filter(bot=best).order_by("-finished_at", "-id").first()


# ------------------------------------------------------------------ the chart the odds use

#: How many real games a simulated cell is worth: with this many real verified games in a cell,
#: the real games and the simulation weigh the same (``simulations.montecarlo.charts``).
PRIOR_GAMES = 20


@dataclass(frozen=True)
class BlendedCell:
    simulated: ChartCell | None  # None: the simulated chart does not have the pair
    real: Record  # the real verified games (stats), the row's character's record
    score: float | None  # the blend, out of 10

    @property
    def real_score(self) -> float | None:
        rate = self.real.win_rate
        return None if rate is None else 10 * rate


@dataclass(frozen=True)
class BlendedChart:
    """The chart the seeding and the odds stand on: the simulated chart in use (a prior) and
    the real verified games' chart, blended cell by cell, real games weighed by their count."""

    job: MatchupJob | None
    prior_games: float
    characters: list[str]
    cells: list[list[BlendedCell]]

    @property
    def names(self) -> list[str]:
        return [character(c).name for c in self.characters]

    @property
    def real_games(self) -> int:
        """Real games in the chart (each counted once, from its two sides' cells)."""
        return sum(c.real.games for row in self.cells for c in row) // 2

    def rows(self) -> list[tuple[str, str, list[tuple[str, BlendedCell]]]]:
        return [(cid, name, list(zip(self.characters, row, strict=True)))
                for cid, name, row in zip(self.characters, self.names, self.cells, strict=True)]

    def scores(self) -> dict[tuple[str, str], float]:
        return {(a, b): c.score for a, row in zip(self.characters, self.cells, strict=True)
                for b, c in zip(self.characters, row, strict=True) if c.score is not None}

    def source(self) -> dict[str, Any]:
        """What the odds record about the chart they used."""
        return {"job": self.job.pk if self.job else None,
                "bot": self.job.bot if self.job else None,
                "real_games": self.real_games, "prior_games": self.prior_games}


def chart_in_use() -> BlendedChart:
    """The simulated chart in use (:func:`matchup_job_in_use`) blended with the real verified
    games of every mode, event and month (``stats.selectors.matchup_chart``)."""
    prior_games = getattr(settings, "YOMI_CHART_PRIOR_GAMES", PRIOR_GAMES)
    job = matchup_job_in_use()
    sim = matchup_job_chart(job=job) if job is not None else None
    real = stats_selectors.matchup_chart(scope=Scope())
    simulated: dict[tuple[str, str], ChartCell] = {}
    if sim is not None:
        for a, row in zip(sim.characters, sim.cells, strict=True):
            for b, cell in zip(sim.characters, row, strict=True):
                if cell.games:
                    simulated[(a, b)] = cell
    played = {c for (a, b), r in real.cells.items() if r.games for c in (a, b)}
    chars = sorted({*(sim.characters if sim is not None else []), *played})
    cells = []
    for a in chars:
        row = []
        for b in chars:
            s, r = simulated.get((a, b)), real.cell(a, b)
            row.append(BlendedCell(s, r, blended_score(
                None if s is None else s.score, r.wins + r.draws / 2, r.games, prior_games)))
        cells.append(row)
    return BlendedChart(job, prior_games, chars, cells)
