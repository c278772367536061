"""Sides as teams: which characters a side has, who controls each, and where each one is.

Glossary (RULES.md §2, §11): a *side* is one of the two teams every mode has; its *members* are
its characters (one in Versus, three in Triple Threat, two in Tag Team, one or two in Dramatic
Battle), each with its own deck, hand, discard pile, life and cards in play (a
:class:`~rules_engine.state.PlayerState` once it has entered play); a member is *in reserve*
(not yet played: Triple Threat), *in play* (at a seat of the table: the active character, or
Tag Team's benched one) or *defeated*. The *controller* of a member is the player who makes its
decisions (TT-1: one player for the whole side, or one per character).

Responsibility: the roster. Which seat a member in play occupies, and which seat is active,
is the :class:`~rules_engine.table.Table`'s business; what happens when a member is defeated is
the mode's (:mod:`rules_engine.modes`).

>>> t = Team.of(("grave", "jaina", "midori"))
>>> t.in_reserve
('grave', 'jaina', 'midori')
>>> t.enter("jaina"); t.defeat("jaina"); t.in_reserve, t.defeated
(('grave', 'midori'), ('jaina',))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Mode(Enum):
    """The four modes of the rulebook (RULES.md §1, §11), as a log names them."""

    VERSUS = "versus"
    TRIPLE_THREAT = "triple_threat"
    TAG_TEAM = "tag_team"
    DRAMATIC_BATTLE = "dramatic_battle"
    TRAINING = "training"  # solo play against the rulebook's bot (RULES.md §12)
    SURVIVAL = "survival"  # Training against a sequence of bots (TR-14)

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").title()


@dataclass(frozen=True, slots=True)
class Member:
    """One character of a side as the log declares it: its id and, where each character of a
    team has its own player (TT-1), that player's name."""

    character: str
    controller: str | None = None


@dataclass(slots=True)
class Team:
    """A side's roster during a game: the members, in the order the log declares them, and
    which of them are in play or defeated (the rest are in reserve)."""

    members: tuple[Member, ...]
    in_play: list[str] = field(default_factory=list)
    defeated_ids: list[str] = field(default_factory=list)

    @staticmethod
    def of(characters: tuple[str, ...], controllers: tuple[str | None, ...] | None = None,
           ) -> Team:
        names = controllers if controllers is not None else (None,) * len(characters)
        return Team(tuple(Member(c, n) for c, n in zip(characters, names, strict=True)))

    @property
    def characters(self) -> tuple[str, ...]:
        return tuple(m.character for m in self.members)

    @property
    def in_reserve(self) -> tuple[str, ...]:
        """The members not played yet, in declared order (a side's next picks come from
        these: TT-2, TT-4)."""
        return tuple(c for c in self.characters
                     if c not in self.in_play and c not in self.defeated_ids)

    @property
    def defeated(self) -> tuple[str, ...]:
        return tuple(self.defeated_ids)

    @property
    def is_out(self) -> bool:
        """TT-6: every member defeated (the side loses)."""
        return not self.in_play and not self.in_reserve

    def enter(self, character: str) -> None:
        self.in_play.append(character)

    def defeat(self, character: str) -> None:
        self.in_play.remove(character)
        self.defeated_ids.append(character)

    def key(self) -> str:
        """The roster's state for a position fingerprint (only in team modes)."""
        return f"{'+'.join(self.in_play)}/{'+'.join(self.defeated_ids)}"
