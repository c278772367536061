"""Ruleset options (RULES.md Appendix B, §9.4 conflict table): one frozen value per game.

Glossary: an *option* (``opt.*``, GEN-3) settles a point where the sources conflict or are silent.
Every option has the documented default; a match log records the options it changes.

Responsibility: names, values and defaults of the options, and their JSON form
(``{"illegalAce": "PREVENT", ...}``, keys without the ``opt.`` prefix). Every alternative of
Appendix B is played by the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum
from functools import cache
from typing import Any


class Jokers(Enum):
    INCLUDED = "INCLUDED"
    REMOVED = "REMOVED"


class OnOff(Enum):
    ON = "ON"
    OFF = "OFF"


class InitiativeTie(Enum):
    PREVIOUS_HOLDER = "PREVIOUS_HOLDER"
    RPS_EACH_TIE = "RPS_EACH_TIE"


class Timeout(Enum):
    RULEBOOK = "RULEBOOK"
    PLAY_ON = "PLAY_ON"
    NO_DRAWS = "NO_DRAWS"


class RewindDraw(Enum):
    IF_PREVENTED_MUST = "IF_PREVENTED_MUST"
    IF_PREVENTED_MAY = "IF_PREVENTED_MAY"
    ALWAYS = "ALWAYS"


class RewindScope(Enum):
    FACE_DOWN_ONLY = "FACE_DOWN_ONLY"
    ALL_COMBO_DAMAGE = "ALL_COMBO_DAMAGE"


class IllegalAce(Enum):
    FAQ_PENALTY = "FAQ_PENALTY"
    PREVENT = "PREVENT"
    DE_VOID = "DE_VOID"


class GoldBurstSearch(Enum):
    STANDARD = "STANDARD"
    FREE_UP_TO_2 = "FREE_UP_TO_2"


class JokerMirror(Enum):
    BOTH_WIN = "BOTH_WIN"
    TIE = "TIE"


class NeutralResult(Enum):
    TIE = "TIE"
    DE_BOTH_LOSE = "DE_BOTH_LOSE"


class BlockReturn(Enum):
    END_OF_COMBAT = "END_OF_COMBAT"
    IMMEDIATE = "IMMEDIATE"


class VoidTiming(Enum):
    LOCK_IN = "LOCK_IN"
    AFTER_REVEAL = "AFTER_REVEAL"


class ChainReward(Enum):
    LONGEST = "LONGEST"
    SUM = "SUM"


class AceSource(Enum):
    FREE = "FREE"
    DISCARD_FIRST = "DISCARD_FIRST"


class ShuffleTrigger(Enum):
    TOOK_FROM_DECK = "TOOK_FROM_DECK"
    SEARCHED_DECK = "SEARCHED_DECK"


class DoubleKO(Enum):
    DRAW = "DRAW"
    HIGHER_LIFE = "HIGHER_LIFE"


class PumpTiming(Enum):
    ANY_BEFORE_COMBO_END = "ANY_BEFORE_COMBO_END"
    IMMEDIATE = "IMMEDIATE"


class FaceBlockParity(Enum):
    RANK = "RANK"
    IMMUNE = "IMMUNE"


class UnstablePowerRotation(Enum):
    """Which combat card Jaina's Unstable Power may rotate (docs/rules/characters/jaina.md, "Engine
rulings")."""

    REVEALED_ATTACK = "REVEALED_ATTACK"  # the 2014 text: "your combat-revealed attack"
    ANY_CARD_WITH_ATTACK = "ANY_CARD_WITH_ATTACK"  # the first-edition FAQ (FR-JAINA-9)


class EntanglingVines(Enum):
    """Rook's Entangling Vines (characters/rook.md, source conflict): next turn his attacks and
    throws are 3.0 faster (yomibase since 2017: the default) or 5.0 faster (wiki 2015)."""

    FASTER_3 = "FASTER_3"
    FASTER_5 = "FASTER_5"


class RollingPandaBlock(Enum):
    """Lum's Rolling Panda block damage (characters/lum.md, "not listed; 1st ed: 2"): none as
    the 2014 card data lists it (the default) or 2 as the first edition printed it."""

    NONE = "NONE"
    FIRST_EDITION_2 = "FIRST_EDITION_2"


class MoralHighGround(Enum):
    """DeGrey's innate (characters/degrey.md, source conflict): the bonus is the difference in
    hand sizes (yomibase, 2nd edition: the default) or the difference plus one (wiki 2015)."""

    DIFFERENCE = "DIFFERENCE"
    DIFFERENCE_PLUS_ONE = "DIFFERENCE_PLUS_ONE"


class BurstOfSpeed(Enum):
    """Valerie's 10 (characters/valerie.md vs RULES.md FR-VALERIE-2): 2 speed faster to a
    minimum of 1.0 (the 2014 text: the default) or to a minimum of 0.0 (the first-edition FAQ
    ruling FR-VALERIE-2: 2.2 -> 0.2 -> 0.0)."""

    MIN_1_0 = "MIN_1_0"
    FLOOR_0_0 = "FLOOR_0_0"


class ProtectiveWard(Enum):
    """Argagarg's 7 (characters/argagarg.md, source conflict): Combat Reveal (yomibase, 2nd
    edition: the default) or Draw Phase (wiki 2015)."""

    COMBAT_REVEAL = "COMBAT_REVEAL"
    DRAW_PHASE = "DRAW_PHASE"


class InnateCounters(Enum):
    """Whether counters may counter innates (character-card abilities), docs/rules/COUNTERS.md.

    The 2014 counter cards say "You can't counter Aces, Jokers or character cards" (the
    default). The first-edition FAQ (FR-GRAVE-3, FR-ROOK-5, CTR-6) lets Smoke Bomb counter an
    innate as it is activated: every innate then is counterable unless a card says otherwise
    (Valerie's and Midori's first-edition innates, FR-SETSUKI-1; Mental Toughness and Crash and
    Flow, whose first-edition texts excluded character cards too)."""

    CARD_TEXT_2014 = "CARD_TEXT_2014"
    FIRST_EDITION_FAQ = "FIRST_EDITION_FAQ"


class ArgagargLife(Enum):
    """Argagarg's starting life (characters/argagarg.md, source conflict): 85 (yomibase,
    alpha-counter: the default) or 90 (wiki 2015)."""

    LIFE_85 = "LIFE_85"
    LIFE_90 = "LIFE_90"


class BotTieChoice(Enum):
    """TR-8 / OQ-26: how the Training bot breaks ties between equally damaging combos."""

    DETERMINISTIC = "DETERMINISTIC"
    HUMAN = "HUMAN"


class ZaneThrowSpeed(Enum):
    """Zane's normal throws (characters/zane.md, yomibase inconsistency): speed x.3 (every
    move entry, the card data: the default) or x.4 (the summary line)."""

    X_3 = "X_3"
    X_4 = "X_4"


@dataclass(frozen=True, slots=True)
class Ruleset:
    """All Versus-relevant ``opt.*`` keys with their defaults (Appendix B)."""

    jokers: Jokers = Jokers.INCLUDED                                  # S-7, CF-01
    knockdowns: OnOff = OnOff.ON                                      # S-7
    initiativeTie: InitiativeTie = InitiativeTie.PREVIOUS_HOLDER      # CF-02
    pumpCardsInCombo: bool = True                                     # CF-03
    timeout: Timeout = Timeout.RULEBOOK                               # CF-04
    rewindDraw: RewindDraw = RewindDraw.IF_PREVENTED_MUST             # CF-05
    rewindScope: RewindScope = RewindScope.FACE_DOWN_ONLY             # CF-06
    illegalAce: IllegalAce = IllegalAce.FAQ_PENALTY                   # CF-08
    goldBurstSearch: GoldBurstSearch = GoldBurstSearch.STANDARD       # CF-09
    jokerMirror: JokerMirror = JokerMirror.BOTH_WIN                   # CF-10
    neutralResult: NeutralResult = NeutralResult.TIE                  # CF-11
    afterNormalAttackOnly: bool = False                               # CF-14
    blockReturn: BlockReturn = BlockReturn.END_OF_COMBAT              # CF-15
    voidTiming: VoidTiming = VoidTiming.LOCK_IN                       # CF-16
    chainReward: ChainReward = ChainReward.LONGEST                    # CF-17
    aceSource: AceSource = AceSource.FREE                             # CF-18
    shuffleTrigger: ShuffleTrigger = ShuffleTrigger.TOOK_FROM_DECK    # CF-19
    doubleKO: DoubleKO = DoubleKO.DRAW                                # CF-23
    maxTurns: int = 500                                               # END-10
    pumpTiming: PumpTiming = PumpTiming.ANY_BEFORE_COMBO_END          # OQ-08
    dodgeVsNoCardAttackOnly: bool = False                             # OQ-06
    faceBlockParity: FaceBlockParity = FaceBlockParity.RANK           # OQ-07
    unstablePowerRotation: UnstablePowerRotation = (                  # FR-JAINA-9
        UnstablePowerRotation.REVEALED_ATTACK)
    moralHighGround: MoralHighGround = MoralHighGround.DIFFERENCE     # degrey.md conflict
    protectiveWard: ProtectiveWard = ProtectiveWard.COMBAT_REVEAL     # argagarg.md conflict
    argagargLife: ArgagargLife = ArgagargLife.LIFE_85                 # argagarg.md conflict
    burstOfSpeed: BurstOfSpeed = BurstOfSpeed.MIN_1_0                 # FR-VALERIE-2 conflict
    innateCounters: InnateCounters = InnateCounters.CARD_TEXT_2014    # CTR-8, FR-GRAVE-3
    entanglingVines: EntanglingVines = EntanglingVines.FASTER_3       # rook.md conflict
    zaneThrowSpeed: ZaneThrowSpeed = ZaneThrowSpeed.X_3               # zane.md conflict
    rollingPandaBlock: RollingPandaBlock = RollingPandaBlock.NONE     # lum.md conflict
    ttFreshBoutTurn1: bool = False                                    # OQ-17
    hardBot: OnOff = OnOff.OFF                                        # TR-7
    assists: OnOff = OnOff.ON                                         # AS (Tag Team, DB-1)
    botTieChoice: BotTieChoice = BotTieChoice.DETERMINISTIC           # TR-8, OQ-26

    def starting_life(self, character_id: str, printed: int) -> int:
        """A character's starting life (S-5; GEN-8's cap) under these options."""
        if character_id == "argagarg" and self.argagargLife is ArgagargLife.LIFE_90:
            return 90
        return printed

    def to_json(self) -> dict[str, Any]:
        """Only the options that differ from the defaults, as JSON values."""
        out: dict[str, Any] = {}
        default = Ruleset()
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                out[f.name] = value.value if isinstance(value, Enum) else value
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> Ruleset:
        """Build a ruleset from a log's ``ruleset`` object; ValueError names the bad key."""
        if not data:
            return DEFAULT_RULESET  # most logs play the defaults (a Ruleset is immutable)
        changes: dict[str, Any] = {}
        types = _option_types()
        for key, value in data.items():
            name = key.removeprefix("opt.")
            if name not in types:
                raise ValueError(f"unknown ruleset option {key!r}")
            kind = types[name]
            if kind is bool:
                if not isinstance(value, bool):
                    raise ValueError(f"option {key!r} must be true or false")
                changes[name] = value
            elif kind is int:
                if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                    raise ValueError(f"option {key!r} must be a positive integer")
                changes[name] = value
            else:
                try:
                    changes[name] = kind(value)
                except ValueError:
                    allowed = ", ".join(m.value for m in kind)
                    raise ValueError(f"option {key!r} must be one of {allowed}") from None
        return replace(DEFAULT_RULESET, **changes)


DEFAULT_RULESET = Ruleset()


@cache
def _option_types() -> dict[str, Any]:
    """Each option's value type, from the defaults (once, not one ``Ruleset()`` per field
    for every log read)."""
    return {f.name: type(getattr(DEFAULT_RULESET, f.name)) for f in fields(Ruleset)}
