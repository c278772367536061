"""Training and Survival: modes as strategies beside Versus (RULES.md §12).

Glossary: in *Training* one person (side A, seat P1) plays against the rulebook's bot (side B,
seat P2), whose choices the engine derives (:mod:`rules_engine.training.bot`); *Survival*
(TR-14) chains bots: each defeated bot is replaced by the next one, the human heals 30 (capped
at maximum life, GEN-8) and carries on; the score is the number of bots beaten.

Responsibility: the mode's own steps (TR-1 Jokers removed, TR-2 the bot's public hand, TR-4 no
bot draw in T2, TR-13 the four-Aces rule, TR-14 the chain of bots) over the game's operations;
everything else is Versus. The bot's seat is a *derived* seat: the game asks
:meth:`Training.derive` for each of its decisions and never logs them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules_engine.actions import Action, BotTie
from rules_engine.errors import RuleViolation
from rules_engine.modes import Bout, BoutOver, ModeRules
from rules_engine.modifiers import DRAW_COUNT, Modifier
from rules_engine.ruleset import BotTieChoice, Jokers
from rules_engine.state import Decision, PlayerState, Zone
from rules_engine.team import Mode
from rules_engine.training import bot
from rules_engine.training.characters import BOT_RULES
from rules_engine.types import PlayerId, Termination

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore
    from rules_engine.state import Step

#: TR-14: the heal between two Survival fights.
SURVIVAL_HEAL = 30

BOT_SIDE = 1  # side B: the bot; side A (P1) is the human


def _no_draw_phase_draw(ps: PlayerState, step: object, n: int) -> int:
    """TR-4: the bot does not draw in T2."""
    return 0 if step == "T2" else n


class Training(ModeRules):
    """Training (TR-1..TR-13, TR-15): the human (P1) against the generic bot (P2)."""

    mode = Mode.TRAINING

    def before_setup(self, game: GameCore) -> Step:
        """TR-1: Jokers removed from both decks (whatever ``opt.jokers`` says: it is this mode's
        rule); both characters enter; TR-4 on the bot's seat."""
        game.ruleset = replace(game.ruleset, jokers=Jokers.REMOVED)
        for side in (0, 1):
            team = game.teams[side]
            if not team.in_play:
                team.enter(game.actives[side].character.id)
        self._bot_rules(game)
        game.bouts.append(Bout(1, game.active_characters(), 1))
        return
        yield

    def _bot_rules(self, game: GameCore) -> None:
        """As a bot comes in: the rules its BOT rule plays its abilities by (§12.2, on this
        seat only), then TR-4."""
        seat = game.table.active(BOT_SIDE)
        rules = BOT_RULES.get(game.players[seat].character.id)
        if rules is not None:
            played = rules.seat_rules(game.rules[seat])
            if played is not game.rules[seat]:
                game.replace_rules(seat, played)
        game.add_modifier(Modifier(DRAW_COUNT, seat, _no_draw_phase_draw, "TR-4"))

    def derived_seats(self, game: GameCore) -> frozenset[PlayerId]:
        if game.rng is None:
            raise ValueError(f"a {self.mode.label} game is seeded (TR-5)")
        return frozenset({game.table.active(BOT_SIDE)})

    def derive(self, game: GameCore, decision: Decision, seat: PlayerId) -> Action:
        return bot.choose(game, seat, decision)

    def derived_rule(self, step: str) -> str:
        return bot.RULE_OF_STEP.get(step, "TR-11")

    def ask_for(self, game: GameCore, decision: Decision, seat: PlayerId) -> Decision | None:
        """TR-8 / OQ-26 under ``opt.botTieChoice=HUMAN``: when the bot's most damaging combos
        tie on their next step, the human chooses it (a ``bot_tie`` event naming one of the
        tied steps; anything else is refused, TR-8). DETERMINISTIC: the engine breaks ties."""
        if game.ruleset.botTieChoice is not BotTieChoice.HUMAN:
            return None
        steps = bot.tied_steps(game, seat, decision)
        if not steps:
            return None
        human = game.table.active(1 - BOT_SIDE)
        listed = [BotTie(s) for s in steps]

        def check(player: PlayerId, action: Action) -> None:
            if not isinstance(action, BotTie):
                raise RuleViolation("TR-8", "the bot's most damaging combos tie: choose its "
                                            "next step among them (a bot_tie event: "
                                            + "; ".join(str(s) for s in steps) + ")")
            if action not in listed:
                raise RuleViolation("TR-8", f"{action.choice} is not the next step of one of "
                                            "the bot's tied most damaging combos (" + "; ".join(
                                                str(s) for s in steps) + ")")

        return Decision(decision.step, (human,), "TR-8", check, lambda p: list(listed))

    def answered(self, game: GameCore, decision: Decision, seat: PlayerId,
                 action: Action) -> Action:
        """The bot plays the tied step the human chose."""
        assert isinstance(action, BotTie)
        return action.choice

    def commits_from_deck(self, game: GameCore, ps: PlayerState) -> bool:
        """TR-5: the bot's combat card comes from its deck, so it commits with an empty hand."""
        return ps.player is game.table.active(BOT_SIDE) and bool(ps.deck)

    def facts(self, game: GameCore) -> dict[str, object]:
        """The bot's account: which characters played their BOT rule (§12.2) and which the
        generic procedure only, how many choices the engine derived, Survival's score."""
        bots = game.teams[BOT_SIDE].characters
        out: dict[str, object] = {
            "training": {
                "bot_rules": {c: bot.bot_rule_id(c) if c in bot.BOT_RULES_IMPLEMENTED
                              else "generic procedure (TR-1..TR-15): its BOT rule is not "
                                   "implemented yet" for c in bots},
                "bot_choices": len(game.derived),
                "hard_bot": game.ruleset.hardBot.value,
            }}
        if self.mode is Mode.SURVIVAL:
            out["survival"] = {"score": survival_score(game),
                               "beaten": list(game.teams[BOT_SIDE].defeated)}
        return out

    def end_of_turn(self, game: GameCore) -> Step:
        """The bot's BOT rule's end of the turn (:meth:`BotRules.end_of_turn`), then TR-13: a
        bot holding all four Aces draws 2, then one of its Aces (seeded) is shuffled into its
        deck."""
        ps = game.players[game.table.active(BOT_SIDE)]
        rules = BOT_RULES.get(ps.character.id)
        if rules is not None:  # a BOT rule's own end of the turn (BOT-ONIMARU's shuffle)
            yield from rules.end_of_turn(game, ps)
        aces = [c for c in ps.hand if c.is_ace]
        if len(aces) < 4 or game.rng is None:
            return
        yield from game.draw(ps, "K1", 2)
        aces = [c for c in ps.hand if c.is_ace]
        ace = aces[game.rng.below(len(aces))]
        game.move(ps, ace, Zone.HAND, Zone.DECK)
        game.shuffle_deck(ps)


class Survival(Training):
    """Survival (TR-14): the human against the bots of side B one after another."""

    mode = Mode.SURVIVAL

    def knockout(self, game: GameCore, out: tuple[bool, bool]) -> None:
        """The human at 0 ends the run (a double KO too: the bot is not beaten); a beaten bot
        ends the fight, and the run when it was the last one."""
        human = out[0]
        if human:
            last = game.bouts[-1]
            game.bouts[-1] = Bout(last.number, last.characters, last.first_turn, game.turn)
            game.versus_knockout(out)
        beaten = game.actives[BOT_SIDE].character.id
        game.teams[BOT_SIDE].defeat(beaten)
        last = game.bouts[-1]
        game.bouts[-1] = Bout(last.number, last.characters, last.first_turn, game.turn,
                              (beaten,), (BOT_SIDE,))
        if game.teams[BOT_SIDE].is_out:
            game.end(Termination.KO, game.table.active(0))
        raise BoutOver((BOT_SIDE,))

    def between_bouts(self, game: GameCore, defeated_sides: tuple[int, ...]) -> Step:
        """TR-14: heal 30 up to maximum life (GEN-8; written to life, like TT-5's heal, so no
        card text reacts to it), then the next bot comes in with a fresh deck and an opening 7
        laid face up (TR-2)."""
        game.end_bout()
        human = game.actives[0]
        human.life = min(human.life + SURVIVAL_HEAL, human.character.life)
        incoming = game.teams[BOT_SIDE].in_reserve[0]
        yield from game.bring_in(BOT_SIDE, incoming, fresh_deal=True)
        self._bot_rules(game)
        game.bouts.append(Bout(len(game.bouts) + 1, game.active_characters(), game.turn + 1))

    def side_score(self, game: GameCore, side: int) -> int:
        """A time-out ends the run; life decides the fight as in Versus (END-7)."""
        return game.side_life(side)


def survival_score(game: GameCore) -> int:
    """TR-14: the number of bots beaten."""
    return len(game.teams[BOT_SIDE].defeated)
