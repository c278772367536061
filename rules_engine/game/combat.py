"""Combat up to the winner's damage: commits (C1), reveal (C2), Ace costs (C3), the reveal
window (C4), lock-in and voids (C5), the matrix (C6), normal draws (C7), and C8's searches, block
draws and damage."""

from __future__ import annotations

from collections.abc import Generator
from itertools import combinations

from rules_engine import combat as cb
from rules_engine.actions import (
    Action,
    Combo,
    Commit,
    FaceDown,
    Keep,
    NoCard,
    PayAces,
    Pump,
)
from rules_engine.assists import Assists
from rules_engine.cards import Card, Character, Move, deck_for
from rules_engine.effects import fire
from rules_engine.errors import (
    EngineInvariantError,
    RuleViolation,
)
from rules_engine.game.combo import ComboSteps
from rules_engine.journal import (
    AcesPaid,
    Blocked,
    CombatResolved,
    Hit,
    JokerUsed,
    Thrown,
)
from rules_engine.modifiers import BLOCK_DRAW, COMBAT_DAMAGE, MOVE, MOVE_ALLOWED
from rules_engine.ruleset import (
    BlockReturn,
    IllegalAce,
    VoidTiming,
)
from rules_engine.state import (
    Combat,
    Decision,
    PlayerState,
    Step,
    Trigger,
)
from rules_engine.types import PlayerId

# The void timings every combat compares, read from VoidTiming once: in CPython 3.11 a read of an
# enum member from its class goes through ``EnumType.__getattr__``'s hook, about as costly as a
# function call.
_AFTER_REVEAL, _LOCK_IN = VoidTiming.AFTER_REVEAL, VoidTiming.LOCK_IN

# what a combat without a combo settles by itself (C9, C10): only an event of these kinds is
# offered to those checks when diagnosing (the probe's kind first: it is cheap)
_NO_COMBO_KINDS = frozenset({Combo, Pump, FaceDown})

_COMMIT_ENDS: dict[Character, dict[Card, tuple[tuple[Move, Commit], ...]]] = {}


def _commit_ends(ch: Character) -> dict[Card, tuple[tuple[Move, Commit], ...]]:
    """Per card of ``ch``'s deck (not the Jokers), each printed end with the Commit that names
    it (its name only where two ends share a type): built once per character, not at every C1
    decision, and looked up once per decision (a Character hashes in Python code)."""
    ends = _COMMIT_ENDS.get(ch)
    if ends is None:
        ends = _COMMIT_ENDS[ch] = {
            c: tuple((m, Commit(c, m.type, m.name if len(ch.moves_of_type(c, m.type)) > 1
                                else None)) for m in ch.moves_of(c))
            for c in deck_for(True) if not c.is_joker}
    return ends


class CombatSteps(ComboSteps):
    """The steps of this module, on top of :class:`ComboSteps`."""

    def _combat(self) -> Step:
        self.mode.settle(self)  # a defeated character outside combat leaves now (TG-KO)
        for ps in self.seated:
            ps.combat_card, ps.combat_move, ps.kind = None, None, cb.NONE
            ps.face_down, ps.returns_block = None, False
            ps.revealed_card, ps.hit_this_combat, ps.keep_combat_card = None, False, False
            ps.paid_this_combat = []
        self.combat = Combat()
        # C1: hidden simultaneous commits (GEN-5); an empty hand must declare no-card.
        # TG-7: the active seats; a character that came in by a hard tag plays no-card
        # (TAG-PU-2: no choice, so no event); a Training bot commits from its deck (TR-5)
        pending: list[PlayerId] = []  # (a loop: a comprehension is a function made per combat)
        for ps in self.actives:
            if (ps.hand or self.mode.commits_from_deck(self, ps)) \
                    and not self.mode.no_card_forced(self, ps):
                pending.append(ps.player)
        if self.diagnosing is not None:
            for ps in self.actives:
                if not ps.hand:  # C1: an empty hand declares no-card
                    self.skipped("C1", (ps.player,), (Commit,), self._check_commit)
        assists = self.mode.assists
        bench = [] if assists is None else assists.seats(self)  # assists hook: AS-2, DP-3
        if bench:
            assert assists is not None
            yield from self._commits_with_assists(pending, bench, assists)
        while pending:
            player, action = yield from self._ask(
                "C1", tuple(pending), "C1", self._check_commit, self._commit_options)
            pending.remove(player)
            self._place(self.players[player], action)
        hooked = self._hooked["after_commits"]
        if hooked:  # card text: a second face-down card (Patriot Mirror)
            for ps in self.order():
                if ps.player in hooked:
                    yield from self.rules[ps.player].after_commits(self, ps)
        # C2: reveal. CF-16 AFTER_REVEAL voids happen here, before C3/C4.
        self.step = "C2"
        self.controllers.clear()  # control by card text lasts until the combat reveal
        for ps in self.actives:
            ps.revealed_kind = ps.kind
            ps.revealed_card = ps.combat_card
        hooked = self._hooked["after_reveal"]
        if hooked:  # card text on the revealed cards (Patriot Mirror's choice)
            for ps in self.order():
                if ps.player in hooked:
                    yield from self.rules[ps.player].after_reveal(self, ps)
        if self.ruleset.voidTiming is _AFTER_REVEAL:
            self._apply_voids()
        # C3: mandatory Ace costs, in initiative order (OQ-30).
        yield from self._ace_costs()
        if assists is not None and assists.placed:  # assists hook: the swaps (AS-6, AS-7)
            yield from assists.swaps(self)
        # C4: combat-reveal window (the combat area is shown from here on: Game.combat_area).
        self.combat.began = True
        yield from self.window("C4", "combat_reveal")
        if self.combat.ended:  # card text cancelled the combat here (Acrobatics): no winner
            cancelled = cb.CombatResult(None, False, cb.CANCELLED)
            self.combat.cell = cancelled.cell
            if self.diagnosing is not None:
                self._skipped_no_combo(None, None, cancelled)
            yield from self._end_of_combat(None, None, cancelled)
            return
        # C5: lock-in, then voids (KD-4, KD-5, M-VOID).
        self.step = "C5"
        if self.ruleset.voidTiming is _LOCK_IN:
            self._apply_voids()
        hooked = self._hooked["on_lock_in"]
        for ps in self.actives:
            if ps.player in hooked:
                yield from self.rules[ps.player].on_lock_in(self, ps)
        self._ko_check()
        # C6: the matrix, side against side (the active seats), then card text that overrides
        # it (armour, "beats all attacks", unblockable: CharacterRules.combat_override).
        self.step = "C6"
        a, b = self.actives
        speeds = self.speed(a), self.speed(b)
        result = cb.resolve(a.kind, speeds[0], b.kind, speeds[1], self.ruleset)
        for ps in self.order():
            if ps.player in self._overriders and (ps is a or ps is b):
                result = self.rules[ps.player].combat_override(self, ps, a, b, result) or result
        for ps in self.order():
            if ps.player in self._contesters and (ps is a or ps is b):
                result = (yield from self.rules[ps.player].contest(self, ps, a, b, result)) \
                    or result
        self.combat.cell = result.cell
        winner = None if result.winner is None else (a, b)[result.winner]
        self.combat.winner = None if winner is None else winner.player
        if self._overriders or self._contesters:
            speeds = self.speed(a), self.speed(b)  # card text may have voided a card
        self.journal.record(CombatResolved(
            self.turn, "C6", self.active_seats, (a.kind, b.kind), speeds, result.cell,
            self.combat.winner, result.both_hit))
        loser = None if winner is None else self.opponent(winner)
        self._mark_hits(winner, result)
        self._record_hits(winner, loser, result)
        self.mode.after_combat_winner(self, winner, loser)  # TAG-PU-2's full combo
        yield from self.react()
        hooked = self._hooked["after_winner"]
        for ps in self.actives:
            if ps.player in hooked:
                yield from self.rules[ps.player].after_winner(self, ps, winner)
        if self.combat.ended:  # card text ended the combat at the hit (Bubble Shield)
            yield from self._end_of_combat(winner, loser, result)
            return
        # C7: normal-draw rule.
        self.step = "C7"
        for ps in self.order():
            if ps.kind == cb.ATTACK and ps.combat_move is not None \
                    and ps.combat_move.is_normal_attack:
                won = winner is ps
                blocked = loser is ps and winner is not None and winner.kind == cb.BLOCK
                if blocked and winner is not None and self.rules[winner.player] \
                        .normal_draw_prevented(self, winner, ps):
                    continue  # the blocker's card text (Defense Mastery)
                if won or blocked:
                    yield from self._draw(ps, "C7")
        # C8: (a) Gold Burst searches, (b) block draws, (c) damage, (d) KO check.
        self.step = "C8"
        for ps in self.order():
            if ps.kind == cb.JOKER and ps.hit_this_combat:
                self.journal.record(JokerUsed(self.turn, "C8", ps.player, "gold_burst"))
                yield from self._ace_search(ps, 2, "C8", gold_burst=True)
        if winner is not None and winner.kind == cb.BLOCK and loser is not None \
                and loser.kind in (cb.ATTACK, cb.JOKER, cb.NONE):
            prevented = yield from self.rules[loser.player].block_draw_prevented(
                self, loser, winner)
            n = self.modifiers.fold(BLOCK_DRAW, winner, loser.combat_move, 1)
            if not prevented and n:
                replaced = yield from self.rules[winner.player].replace_block_draw(
                    self, winner, loser)
                if not replaced:
                    yield from self._draw(winner, "C8", n)  # AR-BLK-1
            if loser.kind == cb.ATTACK:
                innates = not self.rules[loser.player].blocking_innates_prevented(
                    self, loser, winner)
                self.journal.record(Blocked(self.turn, "C8", winner.player, loser.player,
                                            innates))
                yield from self.react()
            if self.ruleset.blockReturn is BlockReturn.IMMEDIATE and winner.combat_card:
                winner.hand.append(winner.combat_card)  # CF-15 IMMEDIATE
                winner.combat_card = None
        self._combat_damage(winner, loser, result)
        self._ko_check()
        yield from self.react()
        if winner is not None and loser is not None and not self.combat.no_combo \
                and winner.kind in (cb.ATTACK, cb.THROW, cb.DODGE):
            if assists is not None and assists.placed:  # assists hook: AS-10, AS-11, AS-14
                yield from assists.hit_at_once(self, winner, loser)
            yield from self._rewind_and_combo(winner, loser)
            # TAGS: a winner a combat tag took to the bench makes no second combo (TG-7), and
            # a loser's armour hits the opposing active character
            benched = self.mode.tags is not None and winner not in self.actives
            extra = None if self.combat.ended or benched else self.rules[
                winner.player].extra_combo(self, winner, loser)
            if extra is not None:
                yield from self._extra_combo(winner, loser, extra)  # Robo Headbutt
            if loser.kind == cb.ATTACK and not self.combat.ended and (
                    yield from self.rules[loser.player].armor_combo(self, loser, winner)):
                yield from self._armoured_combo(loser, self.opponent(loser))  # Rock Armor
        elif winner is not None and loser is not None:
            # CB-1: card text may let the loser start a combo all the same (Time Stop).
            rules = self.rules[loser.player]
            opener = rules.combo_opener(self, loser, winner)
            if opener is not None:
                opened = yield from self._rewind_and_combo(loser, winner, opener)
                yield from rules.after_card_combo(self, loser, winner, opened)
            elif self.diagnosing is not None \
                    and type(self.diagnosing.action) in _NO_COMBO_KINDS:
                self._skipped_no_combo(winner, loser, result)
        elif self.diagnosing is not None and type(self.diagnosing.action) in _NO_COMBO_KINDS:
            self._skipped_no_combo(winner, loser, result)
        yield from self._end_of_combat(winner, loser, result)

    def _commits_with_assists(self, pending: list[PlayerId], bench: list[PlayerId],
                              assists: Assists) -> Step:
        """C1 with assists (AS-2, AS-3, DP-2, DP-3): the active seats commit and the benched
        seats in ``bench`` place an assist or pass, all hidden and at the same time (GEN-5);
        then the assists are locked and paid for (AS-4). Empties ``pending``."""
        def check(player: PlayerId, action: Action) -> None:
            if player in bench:
                assists.check(self, player, action)
            else:
                self._check_commit(player, action)

        def options(player: PlayerId) -> list[Action]:
            return assists.options(self, player) if player in bench \
                else self._commit_options(player)

        waiting = [*pending, *bench]
        while waiting:
            player, action = yield from self._ask("C1", tuple(waiting), "C1", check, options)
            waiting.remove(player)
            if player in bench:
                assists.place(self, player, action)
            else:
                self._place(self.players[player], action)
        pending.clear()
        assists.lock(self)

    def _skipped_no_combo(self, winner: PlayerState | None, loser: PlayerState | None,
                          result: cb.CombatResult) -> None:
        """For a diagnosis: nobody combos after this combat, and no Rewind window opens."""
        a = self.actives[0]
        seats = tuple(ps.player for ps in self.actives)
        self.skipped("C10", seats, (Combo, Pump), self._no_combo(result.cell))
        rule = "RW-CANNOT-4" if winner is None else cb.rewind_allowed(
            winner.kind, winner.combat_move)[1]
        self.skipped("C9", seats, (FaceDown,), self._no_rewind(winner or a, loser, rule))

    def _speed(self, ps: PlayerState) -> int | None:
        """AR-SPD-1: the locked-in speed, after ability modifiers, never below 0.0."""
        return self.speed(ps)

    def _commit_options(self, player: PlayerId, also: Card | None = None) -> list[Action]:
        """The legal C1 commits from hand (and ``also``, a card being taken back, CF-08)."""
        ps = self.players[player]
        out: list[Action] = [NoCard()]
        seen: set[Card] = set()
        plain = not (self.modifiers.any_for(MOVE, player)
                     or self.modifiers.any_for(MOVE_ALLOWED, player))
        ends = _commit_ends(ps.character)
        for c in (ps.hand if also is None else [*ps.hand, also]):
            if c in seen:
                continue
            seen.add(c)
            if c.is_joker:
                out.append(Commit(c))
                continue
            for m, commit in ends[c]:
                # the checks of _check_commit for a card known to be held and an end known to
                # be its own: no Commit built, resolved and rejected by exception per end. An
                # end that needs no state and no extra Ace, on a seat no MOVE or MOVE_ALLOWED
                # modifier applies to, is legal as printed (what the checks would conclude).
                as_printed = plain and m.requires is None and not m.extra_aces
                if as_printed or self._commit_violation(
                        ps, c, self.played_move(ps, c, m), also) is None:
                    out.append(commit)
        return out

    def _commit_violation(self, ps: PlayerState, played: Card, m: Move,
                          also: Card | None) -> RuleViolation | None:
        """Why committing ``played`` with its move ``m`` (as played now) is illegal, or None:
        the move is allowed now, and its Ace cost can be paid (CF-08 under PREVENT)."""
        violation = self.move_violation(ps, m, "C1")
        if violation is not None:
            return violation
        if m.extra_aces and self.ruleset.illegalAce is IllegalAce.PREVENT:
            aces = sum(1 for c in (*ps.hand, *([also] if also else [])) if c.is_ace
                       and c is not played)
            if aces < m.extra_aces:
                return RuleViolation(
                    "CF-08", f"{m.label} costs {m.ace_cost} Aces and only {aces + 1} are in hand")
        return None

    def _check_commit(self, player: PlayerId, action: Action, also: Card | None = None) -> None:
        """C1: a card from hand (or ``also``, a card being taken back) with one of its ends."""
        ps = self.players[player]
        if isinstance(action, NoCard):
            return
        if not isinstance(action, Commit):
            raise RuleViolation("C1", "combat begins: commit a card face down or declare no-card")
        if action.card not in ps.hand and action.card is not also:
            raise RuleViolation("C1", f"{action.card} is not in {player.name}'s hand")
        if action.card.is_joker:
            if action.move is not None:
                raise RuleViolation("GL-JOKER", "a Joker has no move ends; commit it without one")
            return
        m = self.resolve_move(ps, action.card, action.move, action.name, "C1")
        violation = self._commit_violation(ps, action.card, m, also)
        if violation is not None:
            raise violation

    def _place(self, ps: PlayerState, action: Action) -> None:
        if isinstance(action, Commit):
            ps.hand.remove(action.card)
            ps.combat_card = action.card
            if action.card.is_joker:
                ps.combat_move, ps.kind = None, cb.JOKER
            else:
                m = self.resolve_move(ps, action.card, action.move, action.name, "C1")
                ps.combat_move, ps.kind = m, cb.KIND_OF_MOVE[m.type]
        else:
            ps.combat_card, ps.combat_move, ps.kind = None, None, cb.NONE

    def commit_second(self, ps: PlayerState) -> Generator[Decision, tuple[PlayerId, Action],
                                                          Commit | None]:
        """C1, card text (Patriot Mirror): ``ps`` commits a second face-down card, with the same
        legal choices as C1 (no-card = none); it lies face down (``face_down``) until C2."""
        if not (ps.hand or self.mode.commits_from_deck(self, ps)) \
                or ps.face_down is not None or ps.combat_card is None:
            return None  # a Training bot turns its second card over from its deck (TR-5)
        _, action = yield from self._ask(
            "C1", (ps.player,), "C1", self._check_commit, self._commit_options)
        if not isinstance(action, Commit):
            return None
        ps.hand.remove(action.card)
        ps.face_down = action.card
        self.combat.second_commits[ps.player] = action
        return action

    def use_second(self, ps: PlayerState, keep_second: bool) -> None:
        """After C2, card text: of ``ps``'s two revealed combat cards one is discarded and the
        other used; with ``keep_second`` the second (with its committed end) becomes the combat
        card and the combat-revealed card."""
        action = self.combat.second_commits.pop(ps.player, None)
        second, ps.face_down = ps.face_down, None
        if action is None or second is None:
            raise EngineInvariantError(f"{ps.player.name} has no second combat card")
        if not keep_second:
            self.discard(ps, second)
            return
        if ps.combat_card is not None:
            self.discard(ps, ps.combat_card)
        ps.hand.append(second)
        self._place(ps, action)
        ps.revealed_kind, ps.revealed_card = ps.kind, ps.combat_card

    def _ace_costs(self) -> Step:
        """C3 / CF-08: pay mandatory Ace costs at once; the penalty for an unpayable Ace."""
        self.step = "C3"
        queue = list(self.order())
        while queue:
            ps = queue.pop(0)
            m = ps.combat_move
            if m is None or not m.extra_aces or ps.kind == cb.NONE:
                continue
            aces: list[Card] = []  # (a loop: no comprehension made per Ace cost)
            for c in ps.hand:
                if c.is_ace:
                    aces.append(c)
            if len(aces) >= m.extra_aces:
                paid = yield from self.pay_aces(ps, m, "C3")
                del paid
                continue
            # Cannot pay (only reachable under FAQ_PENALTY and DE_VOID).
            assert ps.combat_card is not None
            self.void(ps, "CF-08", "its Ace cost was not paid")
            if self.ruleset.illegalAce is not IllegalAce.FAQ_PENALTY:
                continue
            opp = self.opponent(ps)
            if opp.kind == cb.NONE and opp.combat_card is None and not opp.hand:
                continue
            # NC-2 / CF-08: the opponent may take its card back and choose again.
            _, action = yield from self._ask(
                "C3", (opp.player,), "CF-08", self._check_rechoose, self._rechoose_options)
            if not isinstance(action, Keep):
                if opp.combat_card is not None:
                    opp.hand.append(opp.combat_card)
                self._place(opp, action)
                opp.revealed_kind, opp.revealed_card = opp.kind, opp.combat_card
                if opp not in queue:
                    queue.append(opp)

    def _check_rechoose(self, player: PlayerId, action: Action) -> None:
        if isinstance(action, Keep):
            return
        # The committed card is taken back first, so it may be chosen again (maybe turned).
        self._check_commit(player, action, also=self.players[player].combat_card)

    def _rechoose_options(self, player: PlayerId) -> list[Action]:
        # Looking never moves a card: the committed card is offered as if back in hand.
        return [Keep(), *self._commit_options(player, also=self.players[player].combat_card)]

    def pay_aces(self, ps: PlayerState, m: Move, step: str) -> Generator[
            Decision, tuple[PlayerId, Action], tuple[Card, ...]]:
        """DP-4: the Ace player chooses which Aces pay (automatic when there is no choice)."""
        aces: list[Card] = []  # (a loop: no comprehension made per payment)
        for c in ps.hand:
            if c.is_ace:
                aces.append(c)
        if len(aces) == m.extra_aces:
            paid = tuple(aces)
        else:
            def check(player: PlayerId, action: Action) -> None:
                if not isinstance(action, PayAces):
                    raise RuleViolation("C3", f"{m.label} was revealed: pay its Ace cost first")
                self._check_aces(ps, action.cards, m, None)

            _, action = yield from self._ask(
                step, (ps.player,), "C3", check,
                lambda p: [PayAces(t) for t in combinations(aces, m.extra_aces)])
            assert isinstance(action, PayAces)
            paid = action.cards
        for c in paid:
            ps.hand.remove(c)
            self.discard(ps, c)
        ps.paid_this_combat.extend(paid)
        self.journal.record(AcesPaid(self.turn, step, ps.player, tuple(paid)))
        return paid

    def _apply_voids(self) -> None:
        """KD-4 / KD-5 / M-VOID: a knocked-down player's dodge, a mixed-up block."""
        for ps in self.actives:
            opp = self.opponent(ps)
            if not ps.knocked_down or ps.combat_card is None:
                continue
            if cb.knockdown_voids(ps.kind, ps.combat_card.rank, opp.kind, opp.combat_move,
                                  self.ruleset):
                # a revealed attack turned at C4 into its dodge or block end (Unstable Power)
                turned = ps.revealed_kind != ps.kind
                if ps.kind == cb.DODGE:
                    self.void(ps, "KD-4", "knocked down (turned into a dodge)" if turned
                              else "knocked down")
                else:
                    self.void(ps, "KD-5", "mixup (turned into a block)" if turned else "mixup")

    def _mark_hits(self, winner: PlayerState | None, result: cb.CombatResult) -> None:
        """GL-HIT: which combat cards hit (winning attacks, throws and Gold Bursts; both
        attacks in a speed tie; both Gold Bursts in a mirror)."""
        if winner is not None:
            winner.hit_this_combat = winner.kind in (cb.ATTACK, cb.THROW, cb.JOKER)
            if result.also_hits:  # the loser's attack hits all the same (Lockhorn Skewer)
                self.opponent(winner).hit_this_combat = True
        elif result.both_hit:
            for ps in self.actives:
                ps.hit_this_combat = True

    def _record_hits(self, winner: PlayerState | None, loser: PlayerState | None,
                     result: cb.CombatResult) -> None:
        """C6: the journal's hits and throws by combat cards, and the ongoing effects that end
        when their owner is hit or thrown (AR-THR-2), in initiative order (INI-6). Hit-backs
        are hits at C10 (:meth:`_play_combo_action`)."""
        hit: list[tuple[PlayerState, PlayerState, bool]] = []  # (hit, by, thrown)
        if winner is not None and loser is not None:
            if winner.kind in (cb.ATTACK, cb.THROW):
                hit.append((loser, winner, winner.kind == cb.THROW))
            if result.also_hits and loser.kind == cb.ATTACK:
                hit.append((winner, loser, False))
        elif result.both_hit:
            for ps in self.order():
                if self.opponent(ps).kind == cb.ATTACK:
                    hit.append((ps, self.opponent(ps), False))
        for ps, by, thrown in hit:
            self.journal.record(Hit(self.turn, "C6", ps.player, by.player))
            if thrown:
                self.journal.record(Thrown(self.turn, "C6", ps.player, by.player))
                self.combat.thrown.append(ps.player)
            if ps.ongoing:
                fire(self, ps, Trigger.HIT)
                if thrown:
                    fire(self, ps, Trigger.THROWN)

    def _combat_damage(self, winner: PlayerState | None, loser: PlayerState | None,
                       result: cb.CombatResult) -> None:
        """C8c: base damage of hitting combat cards and block damage, all at the same moment."""
        a, b = self.actives
        if winner is None:
            if result.both_hit and a.kind == cb.ATTACK:  # M-ATTACK-ATTACK-TIE
                assert a.combat_move is not None and b.combat_move is not None
                da = self.modifiers.fold(COMBAT_DAMAGE, a, a.combat_move, a.combat_move.damage)
                db = self.modifiers.fold(COMBAT_DAMAGE, b, b.combat_move, b.combat_move.damage)
                self._damage(b, da, a, "combat")
                self._damage(a, db, b, "combat")
            return
        assert loser is not None
        if winner.kind in (cb.ATTACK, cb.THROW):
            assert winner.combat_move is not None
            dmg = self.modifiers.fold(COMBAT_DAMAGE, winner, winner.combat_move,
                                      winner.combat_move.damage)
            self._damage(loser, dmg, winner, "combat")
            self.combat.combat_card_damage = max(dmg, 0)
            if result.also_hits and loser.kind == cb.ATTACK:  # at the same moment (C8c)
                assert loser.combat_move is not None
                back = self.modifiers.fold(COMBAT_DAMAGE, loser, loser.combat_move,
                                           loser.combat_move.damage)
                self._damage(winner, back, loser, "combat")
        elif winner.kind == cb.BLOCK and loser.kind == cb.ATTACK:
            self._damage(winner, self.block_damage(winner, loser), loser, "block")  # AR-BLK-3
