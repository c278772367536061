"""After the winner is known: the Rewind window (C9), combos and pumps (C10), the face-down
reveal (C11), combo damage (C12) and the end of combat (C13)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from itertools import combinations

from rules_engine import combat as cb
from rules_engine.actions import (
    Accept,
    Action,
    Combo,
    FaceDown,
    Pass,
    Pump,
    Stop,
    Tag,
    UseAbility,
)
from rules_engine.cards import Card, ComboType, Move, MoveType
from rules_engine.effects import fire
from rules_engine.errors import (
    RuleViolation,
)
from rules_engine.game.power_up import PowerUpSteps
from rules_engine.journal import (
    AcesPaid,
    Bluffed,
    ComboEnded,
    DamageDealt,
    Hit,
    JokerUsed,
    Knockdown,
    KnockdownAvoided,
    Thrown,
)
from rules_engine.modifiers import (
    COMBAT_DAMAGE,
    COMBO_DAMAGE,
    COMBO_MOVE,
    FOLLOW,
    MOVE,
    PUMP_ALLOWED,
    REWIND_IMMUNE,
    Expiry,
)
from rules_engine.ruleset import (
    OnOff,
    PumpTiming,
    RewindDraw,
    RewindScope,
)
from rules_engine.state import (
    ComboEntry,
    ComboRecord,
    ComboRun,
    Decision,
    PlayerState,
    Step,
    Trigger,
)
from rules_engine.tags import segment_chains
from rules_engine.types import PlayerId, Termination

# Members every combat's end (C13) compares, read from their enums once: in CPython 3.11 a read
# of an enum member from its class goes through ``EnumType.__getattr__``'s hook, about as costly
# as a function call.
_ON, _END_OF_COMBAT = OnOff.ON, Expiry.END_OF_COMBAT
_ENDER, _CANT_COMBO = ComboType.ENDER, ComboType.CANT_COMBO  # and C10's first move


class ComboSteps(PowerUpSteps):
    """The steps of this module, on top of :class:`PowerUpSteps`."""

    def _rewind_and_combo(self, winner: PlayerState, loser: PlayerState,
                          opener: Callable[[Move], bool] | None = None,
                          ) -> Generator[Decision, tuple[PlayerId, Action], bool]:
        """C9..C12 for ``winner``'s combo against ``loser``. With ``opener`` the combo is one
        card text starts after combat (Time Stop, CB-1): ``loser`` may place its card first
        (RW-14), then ``winner`` may open it with a move from hand that ``opener`` allows;
        returns whether a combo was played."""
        # C9: the loser's Rewind/bluff window (RW-1..RW-4), judged on the move as it plays.
        if opener is not None:
            allowed = True  # RW-14: decided before the move, never from the hand (RW-4)
        else:
            played = None if winner.combat_move is None else self.as_played(
                winner, winner.combat_move)
            allowed, why = cb.rewind_allowed(winner.kind, played)
            if not (allowed and loser.hand) and self.diagnosing is not None:
                self.skipped("C9", (loser.player,), (FaceDown,),
                             self._no_rewind(winner, loser, why))
        if allowed and loser.hand and loser.face_down is None:
            _, action = yield from self._ask(
                "C9", (loser.player,), "RW-1", self._check_face_down,
                lambda p: [Pass(), *(FaceDown(c) for c in dict.fromkeys(self.players[p].hand))])
            if isinstance(action, FaceDown):
                loser.hand.remove(action.card)
                loser.face_down = action.card
        # C10: the winner's combo or hit-back.
        self.step = "C10"
        run = self.combat.run
        opened = True
        if opener is not None:
            opened = yield from self._open_combo(winner, opener)
        elif winner.kind == cb.DODGE:
            run.hit_back = True
        else:
            assert winner.combat_card is not None and played is not None
            m = played
            run.add(winner.player, ComboEntry(winner.combat_card, m, played_in_c10=False),
                    m.combo_points or 0)
            winner.combo_points_spent += m.combo_points or 0
            if m.follow_type is _ENDER or m.follow_type is _CANT_COMBO:
                run.closed = True
            yield from self._full_combo_window(winner, m)
        assists = self.mode.assists
        if assists is not None and assists.placed and opener is None:
            # assists hook: the assist in the combo (AS-11), a segment of the benched seat's
            assists.into_combo(self, winner)
        # the seat playing the combo now: ``winner``, until a combat tag switches it (TAGS)
        acting = winner
        tags = self.mode.tags  # TAGS hook: Tag Team's combat tags (None in other modes)
        rules = self.rules[acting.player]
        extra = rules.offers_combo_cards  # card text offered at combo decisions (Shenanigans)
        while opened:
            if extra and rules.combo_card_options(self, acting):
                _, action = yield from self._ask(
                    "C10", (acting.player,), "C10", self._check_combo_card,
                    lambda p: [*self._combo_options(p),
                               *self.rules[p].combo_card_options(self, self.players[p])])
                if isinstance(action, UseAbility):
                    yield from rules.play(self, acting, "combo_card", action)
                    if self.combat.ended:
                        break
                    continue
            else:
                if not self._combo_has_options(acting) and (
                        tags is None or not tags.options(self, acting)):
                    if self.diagnosing is not None:
                        self.skipped("C10", (acting.player,), (Combo, Pump, Tag),
                                     self._check_c10)
                    break  # CB-11: no legal, affordable move or pump is left
                _, action = yield from self._ask(
                    "C10", (acting.player,), "C10", self._check_c10, self._combo_options)
            if isinstance(action, Stop):
                break
            if isinstance(action, Tag):  # TAGS hook: a combat tag switches the active seat
                assert tags is not None
                acting, tagged_move = tags.play(self, acting, action)
                rules = self.rules[acting.player]
                extra = rules.offers_combo_cards
                if tagged_move is None:
                    continue
                action = tagged_move  # TAG-SUPER: the incoming super is played now
            yield from self._play_combo_action(acting, action)
            if self.combat.ended:
                break
        if self.combat.ended:  # card text ended the combat at a hit-back (Bubble Shield)
            if loser.face_down is not None:
                self.discard(loser, loser.face_down)  # placed, never revealed: no effect
                loser.face_down = None
            return opened
        if self._tagged(winner):  # TAGS hook: each character's own chains (OQ-15)
            chains = segment_chains(self, run)
        else:
            moves: list[Move] = []  # (a loop: no comprehension made per combo)
            for e in self.combo:
                moves.append(e.move)
            chains = [] if run.hit_back and not run.full_combo else cb.chain_lengths(
                moves, self.rules[winner.player].chains_any_order)
            winner.chains.extend(chains)
        # C11: reveal the face-down card.
        prevented = 0
        if loser.face_down is not None:
            self.step = "C11"
            card = loser.face_down
            loser.face_down = None
            self.discard(loser, card)
            if card.is_joker:
                by_seat = self._by_seat(winner)
                immune = [e for by, e in by_seat
                          if self.modifiers.fold(REWIND_IMMUNE, by, e, False)]
                prevented = sum(self._entry_damage(by, e) for by, e in by_seat
                                if e not in immune)
                if self.ruleset.rewindScope is RewindScope.ALL_COMBO_DAMAGE and not (
                        self.combo and not self.combo[0].played_in_c10
                        and self.combo[0] in immune):
                    # CF-06 alternative ([CL]): the combat card's base damage, dealt at C8c
                    # before the Joker went down, is undone as well.
                    refund = self.combat.combat_card_damage
                    loser.life += refund
                    if refund:
                        self.journal.record(DamageDealt(self.turn, "C11", loser.player,
                                                        winner.player, -refund, "combat"))
                    prevented += refund
                self.journal.record(JokerUsed(self.turn, "C11", loser.player, "rewind", prevented))
                for by, e in by_seat:  # card text: these moves deal their damage all the same
                    if e not in immune:
                        continue
                    dmg = self._entry_damage(by, e)
                    if dmg:
                        self._damage(loser, dmg, by, "combat")
                        self._ko_check()
                draw = self.ruleset.rewindDraw
                if draw is RewindDraw.ALWAYS or (draw is RewindDraw.IF_PREVENTED_MUST
                                                 and prevented > 0):
                    yield from self._draw(loser, "C11", 2)
                elif draw is RewindDraw.IF_PREVENTED_MAY and prevented > 0:
                    _, action = yield from self._ask(
                        "C11", (loser.player,), "RW-8", self._check_accept,
                        lambda p: [Accept(), Pass()])
                    if isinstance(action, Accept):
                        yield from self._draw(loser, "C11", 2)
                rewound = tuple(i for i, (_, e) in enumerate(by_seat) if e not in immune
                                and (e.played_in_c10 or e.pumps)) if prevented > 0 else ()
                self._record_combo(winner, chains, prevented, rewound)
                return opened  # RW-10: skip C12
            self.journal.record(Bluffed(self.turn, "C11", loser.player))
        # C12: combo damage one card at a time, KO check after each (END-2).
        self.step = "C12"
        self._record_combo(winner, chains, 0)
        for by, e in self._by_seat(winner):
            dmg = self._entry_damage(by, e)
            if dmg:
                self._damage(loser, dmg, by, "combat")
                self._ko_check()
        return opened

    def _discard_combo(self) -> None:
        """The combo's cards still in the combat area go to the discard pile of the seat that
        played each (a tag or an assist makes segments of several seats, each of its own
        deck's cards)."""
        for seg in self.combat.run.segments:
            ps = self.players[seg.seat]
            for e in seg.entries:
                if e.played_in_c10 and not e.returned:
                    self.discard(ps, e.card)

    def _by_seat(self, ps: PlayerState) -> list[tuple[PlayerState, ComboEntry]]:
        """Each move of this combat's combo with the seat that played it (its damage is that
        seat's, after that seat's modifiers): ``ps`` for every move of a one-seat combo; a tag
        makes several seats' segments (TAG-CONT, TAG-SUPER)."""
        run = self.combat.run
        if not self._tagged(ps):
            pairs: list[tuple[PlayerState, ComboEntry]] = []  # (a loop: no comprehension)
            for e in run.entries:
                pairs.append((ps, e))
            return pairs
        return [(self.players[seg.seat], e) for seg in run.segments for e in seg.entries]

    def _tagged(self, ps: PlayerState) -> bool:
        """Whether a seat other than ``ps`` played moves of this combat's combo (TAGS: a
        combat tag)."""
        segments = self.combat.run.segments
        return len(segments) > 1 or (bool(segments) and segments[0].seat is not ps.player)

    def _armoured_combo(self, ps: PlayerState, opp: PlayerState) -> Step:
        """RW-13 / OQ-12 (Rock Armor): after ``opp``'s combo is over (its C11 and C12 done),
        ``ps``'s beaten combat attack is not interrupted: it hits ``opp`` now (its base damage,
        as at C8c), then ``opp`` may place a Rewind card and ``ps`` makes its combo from that
        attack (C9..C12, a second run; C13 follows for it)."""
        self._discard_combo()  # the first combo is over and journalled: its cards go now
        self.combat.run = ComboRun()
        m = ps.combat_move
        assert m is not None
        ps.hit_this_combat = True
        self.journal.record(Hit(self.turn, self.step, opp.player, ps.player))
        if opp.ongoing:
            fire(self, opp, Trigger.HIT)
        dmg = self.modifiers.fold(COMBAT_DAMAGE, ps, m, m.damage)
        self._damage(opp, dmg, ps, "combat")
        self.combat.combat_card_damage = max(dmg, 0)
        self._ko_check()
        yield from self.react()
        if not self.combat.ended:  # a hit may end the combat (Bubble Shield)
            yield from self._rewind_and_combo(ps, opp)

    def _extra_combo(self, ps: PlayerState, opp: PlayerState,
                     opener: Callable[[Move], bool]) -> Step:
        """Card text lets the winner ``ps`` play another full combo after its first (Robo
        Headbutt): the first run's cards go now, a new ``ComboRun`` with fresh combo points;
        ``opp`` may place a Rewind card (RW-14), then ``ps`` may open it from hand with a move
        ``opener`` allows (or stop); C11, C12 and C13 follow for it."""
        self._discard_combo()  # the first combo is over and journalled: its cards go now
        self.combat.run = ComboRun()
        ps.combo_points_spent = 0
        yield from self._rewind_and_combo(ps, opp, opener)

    def _open_combo(self, ps: PlayerState, opener: Callable[[Move], bool]) -> Generator[
            Decision, tuple[PlayerId, Action], bool]:
        """CB-1: the first move of a combo card text starts (CT-FIRST, CB-3, CB-9), or stop;
        no decision when no move in hand qualifies. The opponent is hit (and thrown) now."""
        options: list[Action] = [*self._combo_moves(ps, opener), Stop()]
        if len(options) == 1:
            return False

        def check(player: PlayerId, action: Action) -> None:
            if isinstance(action, Stop):
                return
            self._check_combo(player, action)
            assert isinstance(action, Combo)
            m = self.resolve_move(ps, action.card, action.move, action.name, "CB-1")
            if not opener(m):
                raise RuleViolation("CB-1", f"{m.label} cannot start this combo (card text)")

        _, action = yield from self._ask("C10", (ps.player,), "CB-1", check,
                                         lambda p: [*self._combo_moves(ps, opener), Stop()])
        if isinstance(action, Stop):
            return False
        yield from self._play_combo_action(ps, action, opening=True)
        return True

    def _no_rewind(self, winner: PlayerState, loser: PlayerState | None,
                   rule: str) -> Callable[[PlayerId, Action], None]:
        """Why no Rewind or bluff card may go down now (RW-CANNOT, RW-3), for a diagnosis."""
        def check(player: PlayerId, action: Action) -> None:
            if loser is not None and not loser.hand:
                raise RuleViolation("RW-3", f"{player.name} has no card in hand to place face "
                                            "down")
            what = {cb.BLOCK: "a block", cb.JOKER: "a Gold Burst"}.get(winner.kind)
            if what is None and winner.combat_move is not None:
                what = f"{winner.combat_move.label} ({winner.combat_move.follow_type.value})"
            raise RuleViolation(
                rule, f"{player.name} cannot place a Rewind or bluff card: "
                      + (f"{winner.player.name} won with {what}, after which no further combat "
                         "damage is possible" if loser is not None else
                         "there is no loser of this combat"))
        return check

    def _no_combo(self, cell: str) -> Callable[[PlayerId, Action], None]:
        """Why nobody may combo after this combat (CB-8, CB-1), for a diagnosis."""
        def check(player: PlayerId, action: Action) -> None:
            if cell == "M-ATTACK-ATTACK-TIE":
                raise RuleViolation("CB-8", "after a speed tie between two attacks there is no "
                                            "combo and no pump")
            raise RuleViolation("CB-1", f"{player.name} cannot combo: a combo starts only when "
                                        "a player hits with an attack or throw as the combat "
                                        f"card, or hits back after a dodge (the combat was "
                                        f"{cell})")
        return check

    def _entry_damage(self, ps: PlayerState, e: ComboEntry) -> int:
        """C12 damage of one combo entry, after card text that changes damage."""
        return self.modifiers.fold(COMBO_DAMAGE, ps, e, e.damage_at_c12())

    def _check_accept(self, player: PlayerId, action: Action) -> None:
        if not isinstance(action, Accept | Pass):
            raise RuleViolation("RW-8", "accept or pass the Rewind Time draw")

    def _record_combo(self, winner: PlayerState, chains: list[int], prevented: int,
                      rewound: tuple[int, ...] = ()) -> None:
        if not self.combo:
            return
        combo = self.combo
        total = 0  # (loops: no comprehension or generator made per combo)
        tagged = self._tagged(winner)
        if tagged:
            for by, e in self._by_seat(winner):
                total += self._entry_damage(by, e)
        else:  # one seat's combo (most): every move is the winner's
            for e in combo:
                total += self._entry_damage(winner, e)
        cards: list[str] = []
        pumps = 0
        for e in combo:
            cards.append(e.card.code)
            pumps += len(e.pumps)
        first = combo[0]
        if not first.played_in_c10:
            total += first.move.damage
        player, points = winner.player, winner.combo_points_spent
        if tagged:  # a tag: the team's combo, under the seat that began it
            segments = self.combat.run.segments
            player, points = segments[0].seat, sum(seg.points for seg in segments)
        self.journal.record(ComboEnded(self.turn, self.step, ComboRecord(
            turn=self.turn, player=player, cards=cards, moves=len(combo), points=points,
            pumps=pumps,
            damage=total - prevented, prevented=prevented, chains=chains,
            hit_back=self.combat.run.hit_back, rewound=rewound,
            chain_reward=cb.chain_reward(chains, self.ruleset) if chains else 0)))

    def _check_face_down(self, player: PlayerId, action: Action) -> None:
        if isinstance(action, Pass):
            return
        if not isinstance(action, FaceDown):
            raise RuleViolation("C9", "the loser may place one card face down or pass")
        if action.card not in self.players[player].hand:
            raise RuleViolation("RW-3", f"{action.card} is not in {player.name}'s hand")

    def _combo_moves(self, ps: PlayerState,
                     opener: Callable[[Move], bool] | None = None) -> Iterable[Combo]:
        """Legal combo moves from hand (CB-2..CB-9), one per way to pay the Ace cost (only
        those ``opener`` allows, for the first move of a combo card text starts)."""
        if self.combat.run.closed:
            return
        seen: set[Card] = set()
        for c in ps.hand:
            if c in seen or c.is_joker:
                continue
            seen.add(c)
            moves = ps.character.moves_of(c)
            for printed in moves:
                m = self.as_played(ps, self.played_move(ps, c, printed))
                if not m.is_attack_or_throw or self._combo_move_violation(ps, c, m) is not None:
                    continue
                if opener is not None and not opener(m):
                    continue
                name = m.name if sum(1 for o in moves if o.type is m.type) > 1 else None
                aces = [a for a in dict.fromkeys(ps.hand) if a.is_ace and a is not c]
                for paid in combinations(aces, m.extra_aces):
                    yield Combo(c, m.type, name, paid)

    def _pumps(self, ps: PlayerState) -> Iterable[Pump]:
        """Legal pumps (PM-1): 1 up to the remaining room of qualifying cards from hand."""
        for i, e in enumerate(self.combo):
            if not self._pump_target_ok(ps, i):
                continue
            assert e.move.pump is not None
            room = e.move.pump.max_cards - len(e.pumps)
            fits = [c for c in dict.fromkeys(ps.hand) if e.move.pump.kind.accepts(c)]
            for k in range(1, min(room, len(fits)) + 1):
                for cards in combinations(fits, k):
                    yield Pump(i, cards)

    def _combo_has_options(self, ps: PlayerState) -> bool:
        """Whether C10 lists a combo move or a pump for ``ps`` (CB-11: with neither the combo
        ends without a decision)."""
        return self._combo_move_exists(ps) or next(iter(self._pumps(ps)), None) is not None

    def _combo_move_exists(self, ps: PlayerState) -> bool:
        """Whether :meth:`_combo_moves` lists a move: some end of a card in hand passes
        :meth:`_combo_move_violation` and its extra Aces are in hand (CB-2..CB-9).

        Asked before every C10 decision, also in a replay, where no list is built; the answer
        is a yes or no, so it is found without the violations (and their messages) of the ends
        rejected, most of them by the follow table or the combo points, and without the
        ``Combo`` values. The checks are :meth:`_combo_move_violation`'s, the follow table by
        :func:`rules_engine.combat.follow_allowed` unless card text changes it (``FOLLOW``);
        tested equal to the plain computation."""
        run = self.combat.run
        if run.closed:
            return False
        prev = run.entries[-1].move if run.entries else None
        follow_text = prev is not None and self.modifiers.any_for(FOLLOW, ps.player)
        room = ps.character.combo_limit - ps.combo_points_spent
        # the moves as printed when no card text changes them (MOVE, COMBO_MOVE): no fold per end
        as_printed = not (self.modifiers.any_for(MOVE, ps.player)
                          or self.modifiers.any_for(COMBO_MOVE, ps.player))
        seen: set[Card] = set()
        for c in ps.hand:
            if c in seen or c.is_joker:
                continue
            seen.add(c)
            for printed in ps.character.moves_of(c):
                m = printed if as_printed else self.as_played(ps, self.played_move(ps, c, printed))
                if not m.is_attack_or_throw:
                    continue
                if prev is None:
                    if run.hit_back and self.ruleset.dodgeVsNoCardAttackOnly \
                            and m.type is not MoveType.ATTACK \
                            and self.opponent(ps).kind == cb.NONE:
                        continue  # OQ-06
                elif follow_text:
                    if self.modifiers.fold(FOLLOW, ps, (prev, m), cb.follow_violation(
                            prev, m, self.ruleset)) is not None:
                        continue
                elif not cb.follow_allowed(prev, m, self.ruleset):
                    continue
                cost = m.combo_points or 0
                if cost and cost > room:
                    continue  # CB-3
                if m.extra_aces and sum(1 for a in dict.fromkeys(ps.hand)
                                        if a.is_ace and a is not c) < m.extra_aces:
                    continue  # CB-9: the Aces to pay with
                if self.move_violation(ps, m, "C10") is None:  # last: rarely a reason
                    return True
        return False

    def _combo_options(self, player: PlayerId) -> list[Action]:
        """The legal C10 actions: combo moves, pumps, a team's combat tags, and stop."""
        ps = self.players[player]
        tags = self.mode.tags  # TAGS hook
        if tags is not None:
            return [*self._combo_moves(ps), *self._pumps(ps), *tags.options(self, ps), Stop()]
        return [*self._combo_moves(ps), *self._pumps(ps), Stop()]

    def _pump_target_ok(self, ps: PlayerState, i: int) -> bool:
        e = self.combo[i]
        if e.move.pump is None or len(e.pumps) >= e.move.pump.max_cards:
            return False
        if self.ruleset.pumpTiming is PumpTiming.IMMEDIATE and i != len(self.combo) - 1:
            return False
        return self.modifiers.fold(PUMP_ALLOWED, ps, e, True)

    def _combo_move_violation(self, ps: PlayerState, c: Card, m: Move) -> RuleViolation | None:
        if self.combat.run.closed:
            if self.combat.run.hit_back and not self.combat.run.full_combo and self.combo:
                return RuleViolation("CB-7", "nothing may follow a hit-back: it is an Ender")
            last = self.combo[-1].move if self.combo else None
            if last is not None and last.follow_type is ComboType.CANT_COMBO:
                return RuleViolation("CB-6", f"{last.label} is Can't Combo: nothing may follow")
            return RuleViolation("CB-5", "the combo ended with an Ender (CT-ENDER)")
        if not m.is_attack_or_throw:
            return RuleViolation("CB-2", f"{m.label} is not an attack or throw")
        violation = self.move_violation(ps, m, "C10")
        if violation is not None:
            return violation
        if self.combat.run.hit_back and not self.combo:
            if self.ruleset.dodgeVsNoCardAttackOnly and m.type is not MoveType.ATTACK \
                    and self.opponent(ps).kind == cb.NONE:
                return RuleViolation("OQ-06", "after dodging no-card only an attack may hit")
        elif self.combo:
            prev = self.combo[-1].move
            v = self.modifiers.fold(FOLLOW, ps, (prev, m),
                                    cb.follow_violation(prev, m, self.ruleset))
            if v is not None:
                return v
        cost = m.combo_points or 0
        limit = ps.character.combo_limit
        if cost and ps.combo_points_spent + cost > limit:
            return RuleViolation(
                "CB-3", f"{ps.player.name} cannot play {c}: the combo would cost "
                        f"{ps.combo_points_spent + cost} combo points, {ps.character.name}'s "
                        f"limit is {limit}")
        return None

    def _check_combo_card(self, player: PlayerId, action: Action) -> None:
        """C10 with card text offered besides the combo moves (``combo_card_options``)."""
        if isinstance(action, UseAbility):
            self.rules[player].check(self, self.players[player], "combo_card", action)
            return
        self._check_c10(player, action)

    def _check_c10(self, player: PlayerId, action: Action) -> None:
        """C10: a combo move, pump or stop (:meth:`_check_combo`), or a team's combat tag
        (TAGS hook: rules_engine.tags)."""
        if isinstance(action, Tag):
            if self.mode.tags is None:
                raise RuleViolation("C10", "tags belong to Tag Team and Dramatic Battle")
            self.mode.tags.check(self, self.players[player], action)
            return
        self._check_combo(player, action)

    def combo_choices(self, ps: PlayerState) -> list[Combo]:
        """The combo moves ``ps`` may play now from hand (CB-2..CB-9), as C10 lists them."""
        return list(self._combo_moves(ps))

    def play_combo(self, ps: PlayerState, action: Combo) -> Step:
        """Card text plays ``action`` as ``ps``'s next combo move now, as if chosen at C10
        (Shenanigans: a revealed card); checked like a C10 choice."""
        self._check_combo(ps.player, action)
        yield from self._play_combo_action(ps, action)

    def _check_combo(self, player: PlayerId, action: Action) -> None:
        ps = self.players[player]
        if isinstance(action, Stop):
            return
        if isinstance(action, Combo):
            if action.card not in ps.hand:
                raise RuleViolation("CB-2", f"{action.card} is not in {player.name}'s hand")
            if action.card.is_joker:
                raise RuleViolation("CB-2", "a Joker is never a combo move")
            m = self.as_played(ps, self.resolve_move(ps, action.card, action.move, action.name,
                                                     "CB-2"))
            v = self._combo_move_violation(ps, action.card, m)
            if v is not None:
                raise v
            self._check_aces(ps, action.aces, m, action.card)
            return
        if isinstance(action, Pump):
            self._check_pump(ps, action)
            return
        raise RuleViolation("C10", "the winner may add a combo move, pump, or stop")

    def _check_pump(self, ps: PlayerState, action: Pump) -> None:
        if not 0 <= action.target < len(self.combo):
            raise RuleViolation("PM-1", f"there is no combo move {action.target} to pump")
        e = self.combo[action.target]
        if e.move.pump is None:
            raise RuleViolation("PM-1", f"{e.move.label} cannot be pumped")
        if self.ruleset.pumpTiming is PumpTiming.IMMEDIATE and action.target != len(self.combo) - 1:
            raise RuleViolation("PM-5", "opt.pumpTiming=IMMEDIATE: pump only the last move")
        if not self.modifiers.fold(PUMP_ALLOWED, ps, e, True):
            raise RuleViolation("PM-1", f"{e.move.label} cannot be pumped this turn (card text)")
        if not action.cards:
            raise RuleViolation("PM-1", "a pump discards at least one card")
        if len(set(action.cards)) != len(action.cards):
            raise RuleViolation("PM-1", "the same card is named twice")
        room = e.move.pump.max_cards - len(e.pumps)
        if len(action.cards) > room:
            raise RuleViolation(
                "PM-1", f"{e.move.label} takes at most {e.move.pump.max_cards} pump card(s); "
                        f"{len(e.pumps)} already paid")
        for c in action.cards:
            if c not in ps.hand:
                raise RuleViolation("PM-1", f"{c} is not in {ps.player.name}'s hand")
            if not e.move.pump.kind.accepts(c):
                raise RuleViolation(
                    "PM-1", f"{c} cannot pump {e.move.label} (needs {e.move.pump.kind.value})")

    def _play_combo_action(self, ps: PlayerState, action: Action,
                           opening: bool = False) -> Step:
        if isinstance(action, Pump):
            e = self.combo[action.target]
            for c in action.cards:
                ps.hand.remove(c)
                self.discard(ps, c)  # PM-4: discarded as soon as paid
                if c.is_joker:
                    self.journal.record(JokerUsed(self.turn, "C10", ps.player, "pump"))
            e.pumps.extend(action.cards)
            return
        assert isinstance(action, Combo)
        m = self.as_played(ps, self.resolve_move(ps, action.card, action.move, action.name,
                                                 "CB-2"))
        ps.hand.remove(action.card)
        for c in action.aces:  # CB-9: the mandatory cost is paid when the move is played
            ps.hand.remove(c)
            self.discard(ps, c)
        ps.paid_this_combat.extend(action.aces)
        if action.aces:
            self.journal.record(AcesPaid(self.turn, "C10", ps.player, tuple(action.aces)))
        ps.hit_this_combat = True  # GL-HIT: every combo move hits at once
        run = self.combat.run
        run.add(ps.player, ComboEntry(action.card, m), m.combo_points or 0)
        ps.combo_points_spent += m.combo_points or 0
        if (run.hit_back and not run.full_combo) or m.follow_type in (ComboType.ENDER,
                                                                      ComboType.CANT_COMBO):
            run.closed = True  # CB-5, CB-6, CB-7 (CB-13: a full combo after a dodge goes on)
        opp = self.opponent(ps)
        self.journal.record(Hit(self.turn, "C10", opp.player, ps.player, combo=True))
        if m.type is MoveType.THROW:
            self.journal.record(Thrown(self.turn, "C10", opp.player, ps.player))
        if m.type is MoveType.THROW:
            self.combat.thrown.append(opp.player)
        if run.hit_back or opening:  # the opponent is hit now (and thrown by a throw, AR-THR-2)
            fire(self, opp, Trigger.HIT)
            if m.type is MoveType.THROW:
                fire(self, opp, Trigger.THROWN)
        yield from self.react()
        if not self.combat.ended:
            yield from self._full_combo_window(ps, m)

    def _full_combo_window(self, ps: PlayerState, m: Move) -> Step:
        """WIN-FULLCOMBO: opens when a move brings the spent points to exactly the limit."""
        if m.combo_points and ps.combo_points_spent == ps.character.combo_limit:
            yield from self.window("C10", "full_combo")

    def _end_of_combat(self, winner: PlayerState | None, loser: PlayerState | None,
                       result: cb.CombatResult) -> Step:
        self.step = "C13"
        kd = self.ruleset.knockdowns is _ON
        # (a) knockdowns: the last move of the finished combo decides (KD-1, CB-14); none when
        # card text ended the combat before its damage (Bubble Shield).
        hits: list[PlayerState] = []
        # this combat's (a snapback at (a) changes the active seats)
        fighters: tuple[PlayerState, ...] = self.actives
        if self.mode.tags is not None:  # TAGS hook: and who fought before a tag (C6) or after
            fighters = self.mode.tags.fighters(self, fighters)
        seat = self.combo_seat
        comboer = None if seat is None else self.players[seat]
        if kd and not self.combat.ended:
            if comboer is not None and self.combo:
                if self.combo[-1].move.knockdown:
                    hits.append(self.opponent(comboer))
            elif result.both_hit and winner is None:
                for ps in self.actives:  # OQ-10: each tied attack is a one-card combo
                    if ps.kind == cb.ATTACK and ps.combat_move is not None \
                            and ps.combat_move.knockdown:
                        hits.append(self.opponent(ps))
            # KD-7: both knocked down = neither; a team mode's snapback may switch the target
            # out instead (SB-1, SB-2)
            if len(hits) == 1:
                target, by = hits[0], self.opponent(hits[0])
                snapback = yield from self.mode.snapback(self, target)
                if snapback is None:
                    target.knockdown_next = True
                    self.journal.record(Knockdown(self.turn, "C13", target.player, by.player,
                                                  True))
                    yield from self.react()
                else:
                    self.journal.record(KnockdownAvoided(
                        self.turn, "C13", target.player, by.player, "SB-2",
                        self.table.active(self.table.side_of(target.player)), snapback))
            else:
                for ps in hits:
                    self.journal.record(KnockdownAvoided(self.turn, "C13", ps.player,
                                                         self.opponent(ps).player, "KD-7"))
        if self.mode.assists is not None:  # assists hook: assists discarded (AS-13)
            self.mode.assists.clear(self)
        # (b) end-of-combat window, the combat and its combo in place: what views show of them
        self.show_combat_area()
        yield from self.window("C13", "end_of_combat")
        hooked = self._hooked["end_of_combat"]
        for ps in fighters:
            if ps.player in hooked:
                yield from self.rules[ps.player].end_of_combat(self, ps, winner)
        # (c) discard the combat areas; a block returns unless thrown or voided (AR-BLK-2).
        for ps in self.order():
            c = ps.combat_card
            if c is not None:
                thrown = ps.player in self.combat.thrown  # AR-BLK-2, AR-THR-2
                if (ps.kind == cb.BLOCK and not thrown) or ps.keep_combat_card:
                    ps.hand.append(c)
                else:
                    self.discard(ps, c)
            for seg in self.combat.run.segments:  # each seat's own moves (a tag: several)
                if seg.seat is ps.player:
                    for e in seg.entries:
                        if e.played_in_c10 and not e.returned:
                            self.discard(ps, e.card)
            ps.combat_card = None
        self.combat.run = ComboRun()  # the combat area is empty now; the record is journalled
        self.expire_modifiers(_END_OF_COMBAT)
        # (d) time-out during combat ends the game now (END-5).
        if self.timeout_triggered:
            self._score_by_life(Termination.TIMEOUT)
        # (e) a defeated character leaves (TG-KO; nothing in Versus)
        self.mode.settle(self)
