"""Tag Team's tags during combat (C10) and the Ace tag in Power Up (RULES.md §11.2).

Glossary: a *tag* switches a side's active character with its benched partner (the table's
active seat changes: :meth:`GameCore.swap_active`); the *outgoing* character goes to the bench,
the *incoming* one is active from then on. The combat tags happen in C10, during the side's
combo: the *dodge tag* (TAG-DODGE) instead of a dodge's hit-back, the *combo-continue tag*
(TAG-CONT) in the middle of a combo, the *super cancel tag* (TAG-SUPER) right after a super
hit. The *Ace tag* (TAG-PU-1) replaces the active player's Power Up search. The hard tag
(TAG-PU-2..4) is the mode's own step (:meth:`rules_engine.modes.TagTeam.power_up_tags`).

Responsibility: which tags a side may make now (listed among the active player's choices),
why a tag is illegal (:class:`RuleViolation` with its rule), and what a tag does. The game
calls :class:`CombatTags` through ``ModeRules.tags`` from hook points marked ``TAGS hook`` in
``game/combo.py`` and ``game/power_up.py``; ``tags`` is None in Versus, Triple Threat and
Training, so those modes pay one attribute read.

Decisions where RULES.md leaves room (docs/rules-engine.md, "Tag Team and Dramatic Battle as
built"): the combat tags are options of the active player's C10 decision (the team's decision,
DP-7), logged as its ``tag`` event; a dodge tag is made before the hit-back (it replaces it);
the super cancel tag's 50% is applied last, after card text that changes the super's damage.
TAG-LIMIT-2 and TAG-DODGE's "did not assist this combat" ask the mode's assists
(:meth:`rules_engine.assists.Assists.assisted`); an assist in the combo is a segment of the
benched seat, so a chain run stops at it as at a tag (OQ-15, :func:`segment_chains`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Combo, Tag
from rules_engine.cards import Card, ComboType, Move, MoveType
from rules_engine.errors import RuleViolation
from rules_engine.journal import Tagged
from rules_engine.modifiers import COMBO_DAMAGE, FOLLOW, POWER_UP_WITH, Expiry, Modifier
from rules_engine.state import ComboEntry, ComboRun, PlayerState
from rules_engine.types import PlayerId

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore

DODGE, CONTINUE, SUPER, ACE = "dodge", "continue", "super", "ace"
COMBAT_TAGS = (DODGE, CONTINUE, SUPER)
_RULE = {DODGE: "TAG-DODGE", CONTINUE: "TAG-CONT", SUPER: "TAG-SUPER", ACE: "TAG-PU-1"}
_CLOSING = (ComboType.ENDER, ComboType.CANT_COMBO)


def is_super(e: ComboEntry) -> bool:
    """TAG-SUPER: a super is an Ace's attack or throw."""
    return e.card.is_ace and e.move.type in (MoveType.ATTACK, MoveType.THROW)


def segment_chains(game: GameCore, run: ComboRun) -> list[int]:
    """OQ-15 / CH-1: a chain belongs to the character that played it; a tag or an assist (a
    move by another character) ends the run. Each segment of the combo is counted on its own
    and its chains go to its seat (CH-4: claimed in that seat's Power Up); returns them all, in
    order. A lone hit-back (an assist after a dodge, AS-14) makes no chain, as in Versus."""
    if run.hit_back and not run.full_combo:
        return []
    out: list[int] = []
    for seg in run.segments:
        found = cb.chain_lengths([e.move for e in seg.entries],
                                 game.rules[seg.seat].chains_any_order)
        game.players[seg.seat].chains.extend(found)
        out.extend(found)
    return out


class CombatTags:
    """The tags of one Tag Team (or Dramatic Battle) game. ``down`` is the mode's list of
    defeated seats (a defeated character never tags); ``banned`` answers TAG-PU-3 for a seat's
    side (snapped back or knocked down this turn); ``ace_tagged`` records each side's Ace tag
    (the mode then offers it no hard tag that Power Up)."""

    def __init__(self, down: list[PlayerId],
                 banned: Callable[[GameCore, PlayerState], bool],
                 ace_tagged: dict[int, int]) -> None:
        self._down = down
        self._banned = banned
        self._ace_tagged = ace_tagged  # side -> the turn of its Ace tag (one tag a Power Up)
        self._run: ComboRun | None = None  # the combo TAG-LIMIT-1 counts for
        self._limited = False  # TAG-LIMIT-1: a dodge or combo-continue tag in that combo
        self.tagged_in: list[PlayerId] = []  # this combat's incoming seats (C13b's fighters)
        self._combat: object = None

    # ------------------------------------------------------------------ combat (C10)

    def partner(self, game: GameCore, ps: PlayerState) -> PlayerState | None:
        """``ps``'s partner, when both stand (a defeated character never tags: TG-KO)."""
        seat = game.table.partner(ps.player)
        if seat is None or seat in self._down or ps.player in self._down:
            return None
        return game.players[seat]

    def _fresh(self, game: GameCore) -> None:
        """TAG-LIMIT-1 counts per combo (a second combo of the same combat, card text, is a
        new run); the incoming seats per combat."""
        if game.combat is not self._combat:
            self._combat = game.combat
            self.tagged_in = []
        if game.combat.run is not self._run:
            self._run, self._limited = game.combat.run, False

    def options(self, game: GameCore, ps: PlayerState) -> list[Tag]:
        """The combat tags ``ps``'s side may make now (C10), as the active player's choices:
        each dodge or combo-continue tag by the two cards paid, each super cancel tag by the
        partner's super and its Ace payment."""
        partner = self.partner(game, ps)
        if partner is None or ps is not game.actives[game.table.side_of(ps.player)]:
            return []
        self._fresh(game)
        out: list[Tag] = []
        for which in (DODGE, CONTINUE):
            if self._violation(game, ps, which) is None:
                out.extend(Tag(which, card=a, partner_card=b)
                           for a in dict.fromkeys(ps.hand) for b in dict.fromkeys(partner.hand))
        if self._violation(game, ps, SUPER) is None:
            out.extend(self._supers(game, partner))
        return out

    def _violation(self, game: GameCore, ps: PlayerState, which: str) -> RuleViolation | None:
        """Why ``ps``'s side may not make a ``which`` tag now (its costs and the super aside).
        TAG-DODGE / TAG-LIMIT-2: a team that assisted this combat (``Assists.assisted``, from
        C1 to C13, swapped or not) makes no dodge tag and no combo-continue tag; it may still
        super cancel tag."""
        run = game.combat.run
        combo = run.entries
        if which == SUPER:
            if not combo or run.segments[-1].seat is not ps.player or not is_super(combo[-1]):
                return RuleViolation("TAG-SUPER", "a super cancel tag follows a super (an Ace "
                                                  f"attack or throw) that {ps.player.name} "
                                                  "just hit with")
            return None
        assists = game.mode.assists
        if assists is not None and assists.assisted(game.table.side_of(ps.player)):
            if which == DODGE:  # TAG-DODGE's own condition: the team did not assist
                return RuleViolation("TAG-DODGE", "a dodge tag needs a team that did not "
                                                  "assist this combat (TAG-LIMIT-2)")
            return RuleViolation("TAG-LIMIT-2", "the team assisted this combat: no dodge or "
                                                "combo-continue tag, only super cancel tags")
        if self._limited:
            return RuleViolation("TAG-LIMIT-1", "after a dodge tag or a combo-continue tag only "
                                                "super cancel tags are allowed in this combo")
        winner = game.combat.winner
        if which == DODGE:
            if winner is not ps.player or ps.kind != cb.DODGE or not run.hit_back or combo:
                return RuleViolation("TAG-DODGE", "a dodge tag is made when the team won combat "
                                                  "with a dodge, before the hit-back")
            return None
        if winner is None or game.table.side_of(winner) != game.table.side_of(ps.player) \
                or game.players[winner].kind not in (cb.ATTACK, cb.THROW) or run.hit_back \
                or not combo:
            return RuleViolation("TAG-CONT", "a combo-continue tag is made during a combo the "
                                             "team makes after winning with an attack or throw")
        closing = next((e for e in combo if e.move.follow_type in _CLOSING), None)
        if closing is not None:
            return RuleViolation("TAG-CONT", f"the combo holds {closing.move.label} "
                                             f"({closing.move.follow_type.value}): no "
                                             "combo-continue tag")
        if ps.combo_points_spent >= ps.character.combo_limit:
            return RuleViolation("TAG-CONT", f"{ps.character.name} has no combo point left "
                                             f"({ps.combo_points_spent} of "
                                             f"{ps.character.combo_limit} spent)")
        return None

    def _supers(self, game: GameCore, partner: PlayerState) -> Iterator[Tag]:
        """The partner's supers it may tag in with: an Ace's attack or throw from hand that
        it may play now (GEN-1, card text), each way to pay its mandatory Aces (CB-9)."""
        for c in dict.fromkeys(partner.hand):
            if not c.is_ace:
                continue
            moves = partner.character.moves_of(c)
            for printed in moves:
                m = game.as_played(partner, game.played_move(partner, c, printed))
                if m.type not in (MoveType.ATTACK, MoveType.THROW) \
                        or game.move_violation(partner, m, "C10") is not None:
                    continue
                name = m.name if sum(1 for o in moves if o.type is m.type) > 1 else None
                aces = [a for a in dict.fromkeys(partner.hand) if a.is_ace and a is not c]
                for paid in combinations(aces, m.extra_aces):
                    yield Tag(SUPER, card=c, move=m.type, name=name, aces=paid)

    def check(self, game: GameCore, ps: PlayerState, action: Tag) -> None:
        """Why ``action`` is not a legal combat tag for ``ps`` now (RuleViolation), else
        nothing."""
        if action.tag not in COMBAT_TAGS:
            raise RuleViolation("TAG-PU-2" if action.tag is None else "C10",
                                "a hard tag is declared in Power Up, not during a combo"
                                if action.tag is None else
                                f"a {action.tag} tag is not made during a combo")
        partner = self.partner(game, ps)
        if partner is None:
            raise RuleViolation("DB-7" if game.table.partner(ps.player) is None else "TG-KO",
                                f"{ps.character.name} has no partner standing to tag")
        self._fresh(game)
        v = self._violation(game, ps, action.tag)
        if v is not None:
            raise v
        rule = _RULE[action.tag]
        if action.tag == SUPER:
            self._check_super(game, partner, action)
            return
        for who, c in ((ps, action.card), (partner, action.partner_card)):
            if c is None or c not in who.hand:
                raise RuleViolation(rule, f"the tag costs a card from each player's hand: {c} "
                                          f"is not in {who.player.name}'s hand")

    def _check_super(self, game: GameCore, partner: PlayerState, action: Tag) -> None:
        c = action.card
        if c is None or c not in partner.hand:
            raise RuleViolation("TAG-SUPER", f"{c} is not in {partner.player.name}'s hand")
        m = self._super_move(game, partner, action)
        if not c.is_ace or m.type not in (MoveType.ATTACK, MoveType.THROW):
            raise RuleViolation("TAG-SUPER", f"the partner tags in with its own super (an Ace "
                                             f"attack or throw), not {c} {m.label}")
        v = game.move_violation(partner, m, "C10")
        if v is not None:
            raise v
        game._check_aces(partner, action.aces, m, c)  # CB-9: its mandatory Aces

    @staticmethod
    def _super_move(game: GameCore, partner: PlayerState, action: Tag) -> Move:
        assert action.card is not None
        return game.as_played(partner, game.resolve_move(partner, action.card, action.move,
                                                         action.name, "TAG-SUPER"))

    def play(self, game: GameCore, ps: PlayerState, action: Tag,
             ) -> tuple[PlayerState, Combo | None]:
        """The tag (checked): the costs are paid, the sides' seats switch and the incoming
        character's spent combo points reset to 0 (TG-11). Returns the incoming seat and, for
        a super cancel tag, its super as the combo move the game plays for it now."""
        partner = self.partner(game, ps)
        assert partner is not None
        self._fresh(game)
        run = game.combat.run
        if action.tag in (DODGE, CONTINUE):
            assert action.card is not None and action.partner_card is not None
            for who, c in ((ps, action.card), (partner, action.partner_card)):
                who.hand.remove(c)
                game.discard(who, c)
            self._limited = True  # TAG-LIMIT-1
        assert action.tag is not None
        game.journal.record(Tagged(game.turn, game.step, ps.player, partner.player, action.tag))
        game.swap_active(game.table.side_of(ps.player))
        partner.combo_points_spent = 0  # TG-11
        self.tagged_in.append(partner.player)
        if action.tag == DODGE:
            run.full_combo = True  # OQ-21: a fresh segment, CT-FIRST, never an Ender
            return partner, None
        if action.tag == CONTINUE:
            self._continue_follow(game, partner, run.entries[-1])
            return partner, None
        # OQ-22: the super reopens the combo; normal follow rules from its type after it
        run.closed = False
        if run.hit_back:
            run.full_combo = True
        self._halve(game, partner, run, len(run.entries))
        assert action.card is not None and action.move is not None
        return partner, Combo(action.card, action.move, action.name, action.aces)

    @staticmethod
    def _continue_follow(game: GameCore, incoming: PlayerState, anchor: ComboEntry) -> None:
        """TAG-CONT: the incoming player may not play a Starter or a Can't Combo move, and the
        outgoing player's last move, when a normal attack, is a Linker for its next move."""
        ruleset = game.ruleset

        def follow(ps: PlayerState, pair: tuple[Move, Move],
                   v: RuleViolation | None) -> RuleViolation | None:
            prev, nxt = pair
            if nxt.follow_type in (ComboType.STARTER, ComboType.CANT_COMBO):
                return RuleViolation("TAG-CONT", f"after a combo-continue tag {nxt.label} "
                                                 f"({nxt.follow_type.value}) may not be played")
            if game.combo and game.combo[-1] is anchor and prev.follow_type is ComboType.NORMAL:
                return cb.follow_violation(replace(prev, combo_type=ComboType.LINKER), nxt,
                                           ruleset)
            return v

        game.add_modifier(Modifier(FOLLOW, incoming.player, follow, "TAG-CONT",
                                   Expiry.END_OF_COMBAT))

    @staticmethod
    def _halve(game: GameCore, incoming: PlayerState, run: ComboRun, index: int) -> None:
        """OQ-22: the incoming super (the run's move at ``index``) deals 50% of its base damage
        plus its pumps, halved once and rounded down (after card text that changes it)."""
        def halve(ps: PlayerState, e: ComboEntry, dmg: int) -> int:
            return dmg // 2 if len(run.entries) > index and e is run.entries[index] else dmg

        game.add_modifier(Modifier(COMBO_DAMAGE, incoming.player, halve, "TAG-SUPER",
                                   Expiry.END_OF_COMBAT))

    def fighters(self, game: GameCore, actives: tuple[PlayerState, ...],
                 ) -> tuple[PlayerState, ...]:
        """C13b: the characters that fought this combat: the active ones, then the C6 pair
        and those that tagged in, when a tag moved them (their end-of-combat text acts)."""
        self._fresh(game)
        out = list(actives)
        winner = game.combat.winner
        others = [] if winner is None else [winner, game.table.opponent(winner)]
        for seat in (*others, *self.tagged_in):
            ps = game.players[seat]
            if ps not in out and seat in game.table.seats:
                out.append(ps)
        return tuple(out)

    # ------------------------------------------------------------------ Power Up (TAG-PU-1)

    def ace_options(self, game: GameCore, ps: PlayerState, chain: int) -> list[Tag]:
        """TAG-PU-1: the Ace tags of ``ps`` (its side's active player) this Power Up: each
        choice of sets that, with the chain reward (OQ-15), owes at least 1 Ace, with each way
        the partner may take that many Aces from its own piles."""
        partner = self._ace_partner(game, ps)
        if partner is None:
            return []
        groups: dict[object, list[Card]] = {}
        for c in game.modifiers.allowed(POWER_UP_WITH, ps, ps.hand):
            groups.setdefault(cb.set_key(c), []).append(c)
        set_choices: list[tuple[Card, ...]] = [()]
        for cs in groups.values():
            if len(cs) >= 2:
                set_choices = [s + tuple(cs[:k]) for s in set_choices
                               for k in (0, *range(2, len(cs) + 1))]
        out: list[Tag] = []
        for sets in set_choices:
            owed = chain + (cb.set_entitlement(sets) if sets else 0)
            if owed < 1:
                continue
            for d, k in game._search_choices(partner, owed, False):
                out.append(Tag(ACE, sets=sets, from_discard=d, from_deck=k))
        return out

    def _ace_partner(self, game: GameCore, ps: PlayerState) -> PlayerState | None:
        side = game.table.side_of(ps.player)
        if ps is not game.actives[side] or self._banned(game, ps) \
                or self._ace_tagged.get(side) == game.turn:  # one tag a Power Up: the
            return None  # character an Ace tag brought in does not tag straight back
        return self.partner(game, ps)

    def check_ace(self, game: GameCore, ps: PlayerState, action: Tag, chain: int) -> None:
        """Why ``action`` is not a legal Ace tag for ``ps`` now (RuleViolation)."""
        if action.tag != ACE:
            raise RuleViolation("TAG-PU-1", "in Power Up a team tags by the Ace tag (or later "
                                            "by a hard tag)")
        mate = game.table.partner(ps.player)
        if mate is None:
            raise RuleViolation("DB-7", f"{ps.character.name} has no partner to tag")
        if mate in self._down or ps.player in self._down:
            raise RuleViolation("TG-KO", f"{ps.character.name} has no partner standing to tag")
        if self._banned(game, ps):
            raise RuleViolation("TAG-PU-3", "a team whose active character was snapped back "
                                            "or knocked down this turn cannot tag in this "
                                            "Power Up")
        if self._ace_tagged.get(game.table.side_of(ps.player)) == game.turn:
            raise RuleViolation("TAG-PU-1", "this team already tagged with its Aces this "
                                            "Power Up: one tag a Power Up")
        partner = self._ace_partner(game, ps)
        if partner is None:
            raise RuleViolation("TAG-PU-1", f"{ps.character.name}'s partner cannot tag in")
        game.check_power_up_sets(ps, action.sets)
        owed = chain + (cb.set_entitlement(action.sets) if action.sets else 0)
        if owed < 1:
            raise RuleViolation("TAG-PU-1", "an Ace tag needs at least 1 Ace owed this Power "
                                            "Up (from sets and/or chains)")
        game._check_search(partner, action.from_discard, action.from_deck, owed)

    def play_ace(self, game: GameCore, ps: PlayerState, action: Tag, chain: int) -> None:
        """TAG-PU-1: ``ps`` discards its sets and switches out instead of searching; the
        partner becomes active and takes the owed Aces from its own piles (PU-5, PU-6)."""
        partner = self._ace_partner(game, ps)
        assert partner is not None
        game.discard_power_up_sets(ps, action.sets)
        owed = chain + (cb.set_entitlement(action.sets) if action.sets else 0)
        side = game.table.side_of(ps.player)
        self._ace_tagged[side] = game.turn
        game.journal.record(Tagged(game.turn, game.step, ps.player, partner.player, ACE))
        game.swap_active(side)
        game.step = "P5"
        game._take_aces(partner, action.from_discard, action.from_deck, owed)
