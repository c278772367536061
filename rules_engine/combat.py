"""Pure combat and combo rules: the matrix, follow table, Rewind eligibility, chains, Power Up sums.

Glossary: a combat *kind* is the locked-in action's category: attack, throw, block, dodge,
joker (Gold Burst) or none (no-card, or a void card, M-VOID). *Speed* is in tenths (GEN-7).

Responsibility: small functions of values only (no game state), each stating the rule it
implements, so the game (:mod:`rules_engine.game`) and tests share one definition.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules_engine.cards import Card, ComboType, Move, MoveType, Rank
from rules_engine.errors import RuleViolation
from rules_engine.ruleset import AceSource, ChainReward, FaceBlockParity, JokerMirror, Ruleset

ATTACK = "attack"
THROW = "throw"
BLOCK = "block"
DODGE = "dodge"
JOKER = "joker"
NONE = "none"
CANCELLED = "CANCELLED"  # the cell of a combat card text cancelled before C6 (Acrobatics)

KIND_OF_MOVE = {
    MoveType.ATTACK: ATTACK, MoveType.THROW: THROW, MoveType.BLOCK: BLOCK,
    MoveType.DODGE: DODGE,
}


@dataclass(frozen=True, slots=True)
class CombatResult:
    """C6: ``winner`` is 0 (first player), 1 (second) or None; ``both_hit`` for speed ties and
    Gold Burst mirrors; ``cell`` is the matrix row's ID (M-*) for facts and tests;
    ``also_hits``: card text lets the loser's attack hit the winner all the same ("you still
    take damage from the normal attack": Lockhorn Skewer, Troq Armor): a hit at C6, its base
    damage dealt at C8c with the winner's, no combo for the loser."""

    winner: int | None
    both_hit: bool
    cell: str
    also_hits: bool = False


def _cell(x: str, y: str) -> str:
    return f"M-{x.upper().replace('NONE', 'NOCARD')}-{y.upper().replace('NONE', 'NOCARD')}"


# AR-1: the cycle. Which kind beats which (speed decides attack/attack and throw/throw).
_BEATS = {
    ATTACK: {THROW, NONE},
    THROW: {BLOCK, DODGE, NONE},
    BLOCK: {ATTACK, JOKER, NONE},
    DODGE: {ATTACK, JOKER, NONE},
    JOKER: {ATTACK, THROW, NONE},
    NONE: set(),
}
_ORDER = (ATTACK, THROW, BLOCK, DODGE, JOKER, NONE)
# Worked out once: C6 runs every combat, and formatting a cell's ID or searching _ORDER each
# time was a sizeable part of a combat's cost.
_POSITION = {kind: i for i, kind in enumerate(_ORDER)}
_CELLS = {(x, y): _cell(x, y) for x in _ORDER for y in _ORDER}


def resolve(
    kind_a: str, speed_a: int | None, kind_b: str, speed_b: int | None, ruleset: Ruleset,
) -> CombatResult:
    """C6 / §4.4 matrix between two locked-in actions (after voids, M-VOID).

    AR-ATK-1: the faster attack wins; equal speed, both hit (M-ATTACK-ATTACK-TIE).
    AR-THR-1: the faster throw wins; equal speed, nothing happens (M-THROW-THROW-TIE).
    CF-10: Gold Burst vs Gold Burst both hit (BOTH_WIN) or tie (TIE). CF-11: neutral pairs tie.
    """
    flip = _POSITION[kind_a] > _POSITION[kind_b]
    if flip:
        x, y, sx, sy = kind_b, kind_a, speed_b, speed_a
    else:
        x, y, sx, sy = kind_a, kind_b, speed_a, speed_b
    cell = _CELLS[x, y]
    winner: int | None
    both = False
    if x == y and x in (ATTACK, THROW):
        assert sx is not None and sy is not None
        if sx == sy:
            return CombatResult(None, x == ATTACK, cell + "-TIE")
        winner = 0 if sx < sy else 1
    elif x == y == JOKER:
        both = ruleset.jokerMirror is JokerMirror.BOTH_WIN
        winner = None
    elif y in _BEATS[x]:
        winner = 0
    elif x in _BEATS[y]:
        winner = 1
    else:
        winner = None
    if flip and winner is not None:
        winner = 1 - winner
    return CombatResult(winner, both, cell)


def block_parity(rank: Rank, ruleset: Ruleset) -> int | None:
    """OQ-07: parity of a block's rank (J=11, Q=12, K=13, A=1); None = immune to mixups."""
    if rank.is_normal:
        return int(rank) % 2
    if ruleset.faceBlockParity is FaceBlockParity.IMMUNE:
        return None
    return 1 if rank is Rank.ACE else int(rank) % 2


def is_mixup(block_rank: Rank, attack: Move, ruleset: Ruleset) -> bool:
    """KD-5: a knocked-down player's block fails against a normal attack of opposite parity."""
    if not attack.is_normal_attack:
        return False  # KD-5, CF-12: face-card and Ace attacks never mix up
    parity = block_parity(block_rank, ruleset)
    return parity is not None and parity != int(attack.rank) % 2



def knockdown_voids(kind: str, rank: Rank | None, other_kind: str, other_move: Move | None,
                    ruleset: Ruleset) -> bool:
    """C5 (KD-4, KD-5, M-VOID): whether a knocked-down player's combat action of ``kind``
    (on a card of ``rank``) plays as no card against the opponent's ``other_kind``
    (``other_move``): a dodge always (KD-4); a block when the opponent's attack mixes it up
    (KD-5, :func:`is_mixup`). Asked only for a knocked-down player with a combat card."""
    if kind == DODGE:
        return True
    return (kind == BLOCK and other_kind == ATTACK and other_move is not None
            and rank is not None and is_mixup(rank, other_move, ruleset))

def follow_violation(prev: Move, nxt: Move, ruleset: Ruleset) -> RuleViolation | None:
    """CB-4 / CT table: may ``nxt`` be played right after ``prev`` in a combo?"""
    pt, nt = prev.follow_type, nxt.follow_type
    if pt is ComboType.ENDER:
        return RuleViolation("CB-5", f"{prev.label} is an Ender: the combo is over (CT-ENDER)")
    if pt is ComboType.CANT_COMBO:
        return RuleViolation("CB-6", f"{prev.label} is Can't Combo: nothing may follow it")
    if nt is ComboType.STARTER:
        return RuleViolation("CT-FIRST", f"{nxt.label} is a Starter: it may only be first")
    if nt is ComboType.CANT_COMBO:
        return RuleViolation("CB-6", f"{nxt.label} is Can't Combo: it cannot follow a move")
    if pt is ComboType.NORMAL:
        if nt is ComboType.NORMAL:
            if int(nxt.rank) != int(prev.rank) + 1:
                return RuleViolation(
                    "CT-NORMAL",
                    f"after a normal {prev.rank.code} only a normal {int(prev.rank) + 1} may "
                    f"follow, not a {nxt.rank.code}",
                )
            return None
        if ruleset.afterNormalAttackOnly and nxt.type is not MoveType.ATTACK:
            return RuleViolation("CF-14", "only an attack Linker/Ender may follow a normal attack")
        return None
    return None  # Starter or Linker: any normal attack, Linker or Ender (CT-STARTER, CT-LINKER)


# The members the predicates below compare, read from their enums once: in CPython 3.11 a read
# of an enum member from its class goes through ``EnumType.__getattr__``'s hook, about as costly
# as a function call, and follow_allowed is asked of every end of every card in hand (C10),
# search_allowed of every count of a search, rewind_allowed and chain_lengths at every combo.
_NORMAL, _STARTER, _LINKER, _ENDER, _CANT_COMBO = (
    ComboType.NORMAL, ComboType.STARTER, ComboType.LINKER, ComboType.ENDER, ComboType.CANT_COMBO)
_DISCARD_FIRST = AceSource.DISCARD_FIRST


def follow_allowed(prev: Move, nxt: Move, ruleset: Ruleset) -> bool:
    """Whether :func:`follow_violation` is None (CB-4 / CT table), without building the
    violation: whether a combo move is left at C10 (CB-11) asks it of every end of every card
    in hand, and most ends do not follow."""
    pt, nt = prev.follow_type, nxt.follow_type
    if pt is _ENDER or pt is _CANT_COMBO:
        return False
    if nt is _STARTER or nt is _CANT_COMBO:
        return False
    if pt is _NORMAL:
        if nt is _NORMAL:
            return int(nxt.rank) == int(prev.rank) + 1
        return not (ruleset.afterNormalAttackOnly and nxt.type is not MoveType.ATTACK)
    return True


def rewind_allowed(winner_kind: str, winner_move: Move | None) -> tuple[bool, str]:
    """RW-CAN / RW-CANNOT (RW-4): judged only from the winner's locked-in move category."""
    if winner_kind == DODGE:
        return True, "RW-CAN-1"
    if winner_kind == BLOCK:
        return False, "RW-CANNOT-1"
    if winner_kind == JOKER:
        return False, "RW-CANNOT-2"
    if winner_move is None:
        return False, "RW-CANNOT-4"
    ft = winner_move.follow_type
    if ft is _NORMAL:
        return True, "RW-CAN-2"
    if ft is _STARTER or ft is _LINKER:
        return True, "RW-CAN-3"
    if winner_move.pump is not None:
        return True, "RW-CAN-4"
    return False, "RW-CANNOT-3"


def chain_lengths(moves: Sequence[Move], any_order: bool = False) -> list[int]:
    """CH-1/CH-2: lengths of the maximal runs of back-to-back normal attacks, each one rank
    higher (any order for Valerie, CH-6). Pumps are not moves and are not passed in (PM-7)."""
    runs: list[int] = []
    length = 0
    prev: Move | None = None
    for m in moves:
        if m.combo_type is _NORMAL:
            if prev is not None and (any_order or int(m.rank) == int(prev.rank) + 1):
                length += 1
            else:
                if length:
                    runs.append(length)
                length = 1
            prev = m
        else:
            if length:
                runs.append(length)
            length, prev = 0, None
    if length:
        runs.append(length)
    return runs


def chain_reward(lengths: Iterable[int], ruleset: Ruleset) -> int:
    """CH-4 / CH-7: reward = min(length, 6) - 2 for chains of 3+; LONGEST or SUM over a turn."""
    # (a loop, not a list of the rewards: asked at every Power Up, mostly of no chain)
    longest = total = 0
    for n in lengths:
        if n >= 3:
            reward = min(n, 6) - 2
            total += reward
            if reward > longest:
                longest = reward
    return longest if ruleset.chainReward is ChainReward.LONGEST else total


def set_key(c: Card) -> object:
    """PU-2: cards pair by rank; the two Jokers pair with each other and are never wild."""
    return "joker" if c.is_joker else c.rank


def set_entitlement(cards: Sequence[Card]) -> int:
    """PU-2 / PU-3: Aces owed for discarded sets: k cards of one rank give k - 1.

    Raises RuleViolation (PU-2) if a rank appears once (not a set, e.g. Joker + 9, TV-PU-02).
    """
    groups: dict[object, int] = {}
    for c in cards:
        k = "joker" if c.is_joker else c.rank  # set_key, inline: asked of every candidate set
        groups[k] = groups.get(k, 0) + 1
    if 1 in groups.values():
        names = ", ".join("Joker" if k == "joker" else k.code  # type: ignore[attr-defined]
                          for k, n in groups.items() if n < 2)
        raise RuleViolation("PU-2", f"a set needs two or more cards of one rank ({names} alone)")
    return len(cards) - len(groups)  # the sum of k - 1 over the groups


def search_allowed(
    owed: int, took_discard: int, took_deck: int, aces_in_discard: int, ruleset: Ruleset,
    free_up_to: bool = False,
) -> bool:
    """PU-5 ACE-SEARCH(N): d + k <= N, and fewer than N only if no Ace is left in the discard
    pile (d = D). CF-18 DISCARD_FIRST: d = min(N, D). CF-09 FREE_UP_TO_2: any d + k <= N.

    :func:`search_violation` says why a search is not allowed; this predicate exists because
    listing the searches tries every count, and most are rejected (no message is built)."""
    total = took_discard + took_deck
    if total > owed:
        return False
    if free_up_to:
        return True
    if ruleset.aceSource is _DISCARD_FIRST and took_discard != min(owed, aces_in_discard):
        return False
    return not (total < owed and took_discard < aces_in_discard)


def search_violation(
    owed: int, took_discard: int, took_deck: int, aces_in_discard: int, ruleset: Ruleset,
    free_up_to: bool = False,
) -> RuleViolation | None:
    """Why a search breaks :func:`search_allowed`'s rule (PU-5, CF-18, CF-09), or None."""
    total = took_discard + took_deck
    if total > owed:
        return RuleViolation("PU-5", f"took {total} Aces but only {owed} are owed")
    if free_up_to:
        return None
    if ruleset.aceSource is AceSource.DISCARD_FIRST and took_discard != min(owed, aces_in_discard):
        return RuleViolation(
            "CF-18", f"must take {min(owed, aces_in_discard)} Aces from the discard pile first",
        )
    if total < owed and took_discard < aces_in_discard:
        return RuleViolation(
            "PU-5",
            f"took {total} of {owed} owed Aces while {aces_in_discard - took_discard} remain "
            "in the discard pile: fewer is allowed only once the discard pile has none left",
        )
    return None
