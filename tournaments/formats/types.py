"""Value types shared by the format algorithms.

A stage is described as a list of `SetSpec`: one per set (a match between two sides, possibly a
best-of series) with where each side comes from (`SlotSource`) and where the winner and loser go.
Results come back in as `GameResultRecord`, standings go out as `StandingRow`.

Bye convention: a side whose source is `SlotSource(kind="bye")` has no entrant. Such sets are part
of the spec; the consumer auto-advances the other side (the set never has a loser). No set ever has
two bye sides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Side = Literal["a", "b"]
SourceKind = Literal["seed", "winner", "loser", "bye"]
Bracket = Literal["winners", "losers", "grand_final", "third_place", "round_robin", "swiss"]


@dataclass(frozen=True, slots=True)
class SlotSource:
    """Where one side of a set comes from."""

    kind: SourceKind
    seed: int | None = None  # kind="seed": 1-based seed number
    set_key: str | None = None  # kind="winner"/"loser": key of the set it comes from


BYE = SlotSource(kind="bye")


@dataclass(frozen=True, slots=True)
class SetSpec:
    """One set of a stage, before anyone plays it."""

    key: str  # stable id within the stage: "W1-1", "L3-2", "GF1", "GF2", "3RD", "R1-4"...
    bracket: Bracket
    round: int  # 1-based within its bracket
    round_name: str  # "Round 1", "Quarterfinals", "Semifinals", "Final", "Losers Round 3", ...
    position: int  # 1-based order within the round, for display
    side_a: SlotSource
    side_b: SlotSource
    winner_to: tuple[str, Side] | None = None
    loser_to: tuple[str, Side] | None = None
    # grand-final reset: played only if the losers-side entrant (side b) wins GF1
    is_conditional: bool = False

    @property
    def has_bye(self) -> bool:
        return self.side_a.kind == "bye" or self.side_b.kind == "bye"


@dataclass(frozen=True, slots=True)
class GameResultRecord:
    """The result of one finished set between two entrants.

    `winner` is None for a draw; `games_a`/`games_b` are the games each side won inside the set
    (1/0 for a single game). A double forfeit is `winner=None, double_forfeit=True`: it counts as
    a loss for both and as no meeting (no Buchholz, Sonneborn-Berger or head-to-head); without
    the flag a `winner=None` record is a draw.
    """

    entrant_a: int
    entrant_b: int
    winner: int | None
    games_a: int = 0
    games_b: int = 0
    double_forfeit: bool = False

    def __post_init__(self) -> None:
        if self.entrant_a == self.entrant_b:
            raise ValueError(f"an entrant cannot play itself ({self.entrant_a})")
        if self.winner is not None and self.winner not in (self.entrant_a, self.entrant_b):
            raise ValueError(
                f"winner {self.winner} is neither side ({self.entrant_a}, {self.entrant_b})"
            )
        if self.double_forfeit and self.winner is not None:
            raise ValueError("a double forfeit has no winner")


# The tracker issue names it both ways; one type.
SetResultRecord = GameResultRecord


@dataclass(frozen=True, slots=True)
class SwissEntrant:
    """An entrant as the Swiss pairer sees it.

    Within a score group entrants are ordered by `rating` (higher first, None last), then `seed`
    (lower first), then `id`. Pass the current standings rank as `seed` to order by tie-breaks.
    """

    id: int
    score: float
    seed: int
    rating: float | None = None


@dataclass(frozen=True, slots=True)
class SwissPairing:
    """One Swiss round: the pairs (side irrelevant) and the entrant with the bye, if any."""

    pairs: list[tuple[int, int]]
    bye: int | None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of a standings table. `rank` is shared (1, 2, 2, 4) only by entrants still tied
    after every tie-break; `tiebreaks` holds the value of each tie-break by name."""

    entrant_id: int
    rank: int
    wins: int
    losses: int
    draws: int
    points: float
    tiebreaks: Mapping[str, float] = field(default_factory=dict)
