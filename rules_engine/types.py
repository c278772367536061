"""Players, actors and steps: the small vocabulary every other module shares.

Glossary: *player* = a seat: P1 or P2 (a side's first seat), P3 and P4 the second seats of
Tag Team and Dramatic Battle (the bench, :class:`rules_engine.table.Table`); *actor* = who must
act now: one player, several at once (SIMULTANEOUS, the hidden C1 commit, GEN-5), or nobody
(TERMINAL). Chance in a tabletop log (a recorded draw) is attributed to the player who draws, so
it is a player's turn to "act" (report the card) even though nobody chooses it.
*step* = the RULES.md step ID the game is in ("S-5", "T2", "C1".."C13", "P2", "K2", "END").
"""

from __future__ import annotations

from enum import Enum, IntEnum


class PlayerId(IntEnum):
    """A seat (a log's player); who opposes whom is the table's to say
    (:class:`rules_engine.table.Table`), never this type's."""

    P1 = 0
    P2 = 1
    P3 = 2  # team modes with a bench: side A's second seat (TG-2)
    P4 = 3  # side B's second seat (Tag Team; Dramatic Battle seats its pair at P2 and P3)

    @staticmethod
    def parse(text: str) -> PlayerId:
        return PlayerId[text]


class Actor(Enum):
    """Who acts when no single player does."""

    SIMULTANEOUS = "simultaneous"
    TERMINAL = "terminal"


class Termination(Enum):
    """How a game ended (END rules)."""

    KO = "ko"                    # END-1, END-R1
    DOUBLE_KO = "double_ko"      # END-3, END-R2
    TIMEOUT = "timeout"          # END-4..END-7, END-R3/R4
    MAX_TURNS = "max_turns"      # END-10, END-R5
    EXHAUSTED = "exhausted"      # CF-04 PLAY_ON: both decks and hands empty
