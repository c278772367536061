"""What may be seen of a game: the public view (GEN-9), the position fingerprint, and the
per-game facts statistics read."""

from __future__ import annotations

import hashlib
from operator import attrgetter

from rules_engine.choices import Choices
from rules_engine.game.combat import CombatSteps
from rules_engine.journal import Totals
from rules_engine.table import Table
from rules_engine.team import Mode
from rules_engine.types import PlayerId

_CODE = attrgetter("code")  # a card's code


class Views(CombatSteps):
    """Read-only views of the game state (the last layer below :class:`Game`: one chain of
    single inheritance, which mypyc can compile, ``make bench-compiled``)."""

    def choices(self, player: PlayerId) -> Choices:
        """``player``'s legal choices now, each described for a person (label and plain-data
        description, :mod:`rules_engine.choices`), described as they are read."""
        return Choices(self, player, self.legal_actions(player))

    def public_view(self, viewer: PlayerId | None = None) -> dict[str, object]:
        """GEN-9: what a player may know now: life, hand and deck sizes, discard piles,
        knockdowns, revealed combat cards, that a face-down card exists (not which), combo
        points spent, cards in play (``ongoing``: name, card, attached; ``attached``: cards on
        the character card; ``banished``: cards removed from the game; keys present only when
        not empty), ``frozen`` for a seat whose
        decisions are skipped this turn, ``face_up`` (Bare Your Soul's cards, public) and
        ``controlled_by`` (Mistress's Command). ``viewer`` also sees their own hand (GEN-6),
        the hand of a seat they control (Mistress's Command: "look at their hand") and the
        top cards of their deck that card text showed them (``deck_top``, Research and
        Development). ``shown``: cards card text showed to everyone that are still in a hidden
        zone (``CharacterRules.public_info``: a card revealed from hand, face-up piles)."""
        players: dict[str, object] = {}
        for ps in self.players:
            entry: dict[str, object] = {
                "character": ps.character.id,
                "life": ps.life,
                "hand_size": len(ps.hand),
                "deck_size": len(ps.deck),
                "discard": [c.code for c in ps.discard],
                "knocked_down": ps.knocked_down,
                "face_down": ps.face_down is not None,
                "combo_points_spent": ps.combo_points_spent,
            }
            if self.step not in ("C1", "S-5", "S-6") and ps.combat_card is not None:
                entry["combat_card"] = ps.combat_card.code  # revealed at C2
            if self.mode.assists is not None and self.step not in ("C1", "S-5", "S-6"):
                assist = self.mode.assists.placed_by(ps.player)  # assists hook (AS-2, AS-5)
                if assist is not None:
                    entry["assist"] = assist.code  # face down at C1, revealed at C2
            if ps.ongoing:
                entry["ongoing"] = [e.to_json() for e in ps.ongoing]
            if ps.attached:
                entry["attached"] = [c.code for c in ps.attached]
            if ps.banished:  # removed from the game (Into Oblivion): public
                entry["banished"] = [c.code for c in ps.banished]
            shown = self.rules[ps.player].public_info(self, ps)
            if shown:  # card text showed these to everyone (a card revealed from hand)
                entry["shown"] = shown
            if ps.player in self.frozen:
                entry["frozen"] = True  # Chillbane: its decisions are skipped this turn
            if ps.face_up:  # Bare Your Soul: face up on the table, seen by both
                entry["face_up"] = [c.code for c in ps.face_up]
            if ps.player in self.controllers:  # Mistress's Command: who decides for it
                entry["controlled_by"] = self.controllers[ps.player].name
            if viewer is not None and viewer is not ps.player \
                    and self.controllers.get(ps.player) is viewer:
                entry["hand"] = [c.code for c in ps.hand]  # the controller looks at it
            if ps.player in self._derived:  # the mode's bot: its hand is public (TR-2)
                entry["hand"] = [c.code for c in ps.hand]
                entry["bot"] = True
            if viewer is not None and viewer is not ps.player \
                    and self.table.partner(viewer) is ps.player:
                entry["hand"] = [c.code for c in ps.hand]  # TG-6: teammates share hands
            if viewer is ps.player:
                entry["hand"] = [c.code for c in ps.hand]
                if self._known_top[ps.player]:  # seen by card text (R&D): its owner only
                    entry["deck_top"] = [c.code for c in self._known_top[ps.player]]
                bottom = self._known_bottom.get(ps.player)
                if bottom is not None and ps.deck and ps.deck[-1] is bottom:
                    entry["deck_bottom"] = bottom.code  # peeked by card text: its owner only
            if self.mode.mode is not Mode.VERSUS:  # the side's team (declared: public)
                team = self.teams[self.table.side_of(ps.player)]
                entry["team"] = {"characters": list(team.characters),
                                 "defeated": list(team.defeated)}
                if not team.in_play:  # picking (TT-2): nobody of the side is in play yet
                    entry["character"] = None
            players[ps.player.name] = entry
        return {"turn": self.turn, "step": self.step, "initiative": self.initiative.name,
                "players": players}

    def fingerprint(self) -> str:
        """A short hash of the whole position (life, zones in order, statuses, turn, step, and
        what card text keeps in mind: ``CharacterRules.position_key``, frozen seats).

        Two replays that end in the same fingerprint reached the same position.
        """
        parts = [str(self.turn), self.step]
        for ps in self.players:
            # (the codes by map: no generator run per card of a zone)
            parts += [str(ps.life), ",".join(map(_CODE, ps.hand)),
                      ",".join(map(_CODE, ps.deck)), ",".join(map(_CODE, ps.discard)),
                      f"{ps.knocked_down}{ps.knockdown_next}"]
            if ps.face_up:  # only then: older positions keep their hashes
                parts.append("face_up:" + ",".join(c.code for c in ps.face_up))
            if ps.ongoing or ps.attached:  # only then: older positions keep their hashes
                parts.append(";".join(
                    [",".join(c.code for c in ps.attached),
                     *(f"{e.name}:{e.card.code}:{','.join(c.code for c in e.attached)}"
                       for e in ps.ongoing)]))
            if ps.banished:  # only then: older positions keep their hashes
                parts.append("banished:" + ",".join(c.code for c in ps.banished))
            kept = self.rules[ps.player].position_key()
            if kept:  # card text's memory (named options, pending triggers): only when any
                parts.append(kept)
        if self.frozen:
            parts.append("frozen:" + ",".join(sorted(p.name for p in self.frozen)))
        if self.controllers:
            parts.append("controlled:" + ",".join(
                f"{s.name}>{c.name}" for s, c in sorted(self.controllers.items())))
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]

    def totals(self, seat: PlayerId) -> Totals:
        """``seat``'s counts so far (draws, damage dealt by kind, knockdowns, Jokers, bluffs),
        from the journal."""
        return Totals.of(self.journal, seat)

    def facts(self) -> dict[str, object]:
        """The per-game facts statistics need (characters, damage, combos, knockdowns, ...),
        counted from the journal (:mod:`rules_engine.journal`)."""
        combos = self.combos
        players: dict[str, object] = {}
        by_seat = Totals.by_seat(self.journal)
        for ps in self.players:
            totals = by_seat[ps.player]
            players[ps.player.name] = {
                "character": ps.character.id,
                "life": ps.life,
                "damage_dealt": totals.damage_dealt,
                "cards_drawn": totals.cards_drawn,
                "knockdowns_inflicted": totals.knockdowns_inflicted,
                "jokers": totals.jokers,
                "combos": sum(1 for c in combos if c.player is ps.player),
                "bluffs": totals.bluffs,
            }
        team: dict[str, object] = {} if self.mode.mode is Mode.VERSUS else {  # team modes
            "mode": self.mode.mode.value,
            "teams": {PlayerId(side).name: list(self.teams[side].characters)
                      for side in (0, 1)},
            "bouts": [b.to_json() for b in self.bouts],  # Triple Threat's
        }
        if len(self.players) > 2:
            # Tag Team / Dramatic Battle: each side's seats as seated at the start (the first
            # declared character's first: TG-2), and who fell
            seating = Table.for_sizes(len(self.teams[0].members), len(self.teams[1].members))
            team["seats"] = {PlayerId(side).name: [s.name for s in seating.sides[side]]
                             for side in (0, 1)}
            team["defeated"] = {PlayerId(side).name: list(self.teams[side].defeated)
                                for side in (0, 1)}
        return {
            **team,
            **self.mode.facts(self),
            "characters": {ps.player.name: ps.character.id for ps in self.players},
            "turns": self.turn,
            "initiative_turn_1": self.first_initiative.name,
            "players": players,
            "combos": [
                {"turn": c.turn, "player": c.player.name, "cards": c.cards, "moves": c.moves,
                 "points": c.points,
                 "pumps": c.pumps, "damage": c.damage, "prevented": c.prevented,
                 "chains": c.chains, "hit_back": c.hit_back}
                for c in combos
            ],
        }
