"""What may be seen of a game: the public view (GEN-9), the position fingerprint, and the
per-game facts statistics read."""

from __future__ import annotations

import hashlib

from rules_engine.game.core import GameCore
from rules_engine.journal import Totals
from rules_engine.types import PlayerId


class Views(GameCore):
    """Read-only views of the game state."""

    def public_view(self, viewer: PlayerId | None = None) -> dict[str, object]:
        """GEN-9: what a player may know now: life, hand and deck sizes, discard piles,
        knockdowns, revealed combat cards, that a face-down card exists (not which), combo
        points spent, cards in play (``ongoing``: name, card, attached; ``attached``: cards on
        the character card; keys present only when not empty), ``frozen`` for a seat whose
        decisions are skipped this turn. ``viewer`` also sees their own hand (GEN-6) and the
        top cards of their deck that card text showed them (``deck_top``, Research and
        Development)."""
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
            if ps.ongoing:
                entry["ongoing"] = [e.to_json() for e in ps.ongoing]
            if ps.attached:
                entry["attached"] = [c.code for c in ps.attached]
            if ps.player in self.frozen:
                entry["frozen"] = True  # Chillbane: its decisions are skipped this turn
            if viewer is ps.player:
                entry["hand"] = [c.code for c in ps.hand]
                if self._known_top[ps.player]:  # seen by card text (R&D): its owner only
                    entry["deck_top"] = [c.code for c in self._known_top[ps.player]]
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
            parts += [str(ps.life), ",".join(c.code for c in ps.hand),
                      ",".join(c.code for c in ps.deck), ",".join(c.code for c in ps.discard),
                      f"{ps.knocked_down}{ps.knockdown_next}"]
            if ps.ongoing or ps.attached:  # only then: older positions keep their hashes
                parts.append(";".join(
                    [",".join(c.code for c in ps.attached),
                     *(f"{e.name}:{e.card.code}:{','.join(c.code for c in e.attached)}"
                       for e in ps.ongoing)]))
            kept = self.rules[ps.player].position_key()
            if kept:  # card text's memory (named options, pending triggers): only when any
                parts.append(kept)
        if self.frozen:
            parts.append("frozen:" + ",".join(sorted(p.name for p in self.frozen)))
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
        return {
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
