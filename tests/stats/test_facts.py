"""A game's facts: the verdict's counters plus option mix, Aces and deficits from the timeline."""

from __future__ import annotations

import pytest

from rules_engine.cards import characters
from rules_engine.replay import replay
from rules_engine.timeline import timeline
from stats.facts import game_facts_extract
from tests.stats.helpers import log_text

GAMES = [("setsuki", "rook", 1), ("setsuki", "rook", 2), ("grave", "jaina", 3),
         ("midori", "valerie", 4), ("lum", "geiger", 5)]


@pytest.mark.parametrize(("p1", "p2", "seed"), GAMES)
def test_facts_agree_with_the_engine_and_the_timeline(p1: str, p2: str, seed: int) -> None:
    text = log_text(p1, p2, seed)
    verdict = replay(text).to_dict()
    facts = game_facts_extract(log_text=text, verdict=verdict)
    turns = timeline(text)
    engine_facts = verdict["facts"]
    assert facts.turns == verdict["final"]["turns"]
    assert facts.winner_seat == {"P1": 1, "P2": 2}[verdict["final"]["winner"]]
    for seat, name in ((1, "P1"), (2, "P2")):
        side = facts.sides[seat]
        p = engine_facts["players"][name]
        assert side.character == p["character"]
        assert side.counters["damage_dealt"] == sum(p["damage_dealt"].values())
        assert side.counters["combos"] == p["combos"]
        assert side.counters["gold_bursts"] == p["jokers"]["gold_burst"]
        # every turn with a combat card counts once in the option mix
        played = sum(1 for t in turns if t.players[seat - 1].combat_card is not None)
        options = sum(side.counters[f"option_{o}"] for o in
                      ("attack", "throw", "block", "dodge", "joker", "no_card"))
        assert options == played
        assert side.counters["option_joker"] == sum(
            1 for t in turns if t.players[seat - 1].combat_card is not None
            and t.players[seat - 1].combat_card.played == "gold_burst")
    # the deficit, recomputed from life totals (not life lost): start life minus life left
    start = {seat: characters()[facts.sides[seat].character].life for seat in (1, 2)}
    worst = {1: 0, 2: 0}
    for t in turns:
        down = {seat: start[seat] - t.players[seat - 1].life for seat in (1, 2)}
        for seat in (1, 2):
            worst[seat] = max(worst[seat], down[seat] - down[3 - seat])
    assert {s: facts.sides[s].largest_deficit for s in (1, 2)} == worst
    winner = facts.sides[facts.winner_seat]
    loser = facts.sides[3 - facts.winner_seat]
    assert winner.counters["deficit_overcome"] == worst[facts.winner_seat]
    assert winner.counters["comebacks"] == (1 if worst[facts.winner_seat] > 0 else 0)
    assert loser.counters["deficit_overcome"] == 0 and loser.counters["comebacks"] == 0


def test_aces_spent_count_every_ace_played_and_nothing_else() -> None:
    seen_aces = seen_none = False
    for p1, p2, seed in [*GAMES, *(("setsuki", "rook", s) for s in range(6, 16))]:
        text = log_text(p1, p2, seed)
        facts = game_facts_extract(log_text=text, verdict=replay(text).to_dict())
        for seat in (1, 2):
            aces_played = 0
            for t in timeline(text):
                card = t.players[seat - 1].combat_card
                if card is not None and card.played == "card" and (card.card or "")[:1] == "A":
                    aces_played += 1
                if t.combo is not None and t.combo.player.value == seat - 1:
                    aces_played += sum(1 for m in t.combo.moves
                                       if not m.combat_card and m.card.startswith("A"))
            spent = facts.sides[seat].counters["aces_spent"]
            assert spent >= aces_played  # supers may cost more than their own card
            assert (spent == 0) == (aces_played == 0)
            seen_aces |= spent > 0
            seen_none |= spent == 0
    assert seen_aces and seen_none  # the sample has both kinds of game


def test_aces_spent_add_the_extra_aces_the_game_journalled_as_paid() -> None:
    """Issue 30: the extra Aces a super's cost took are the journal's (``AcesPaid``), not
    worked out from the card data: Vendetta's Maximum Ven paid at C3 and then voided by
    Acrobatics at C4 still spent its extra Ace."""
    from rules_engine.journal import AcesPaid
    from rules_engine.replay import replay as replay_log
    from rules_engine.team import Mode
    from tests.rules_engine.journal_agreement import seeded_game

    game, log = seeded_game(Mode.VERSUS, 10)  # Vendetta against BBB
    text = log.dumps()
    facts = game_facts_extract(log_text=text, verdict=replay_log(text).to_dict())
    paid = {0: 0, 1: 0}
    for e in game.journal:
        if type(e) is AcesPaid:
            paid[e.seat.value] += len(e.cards)
    turns = timeline(text)
    paid_then_void = any(
        type(e) is AcesPaid and turns[e.turn - 1].players[e.seat].combat_card is not None
        and turns[e.turn - 1].players[e.seat].combat_card.played == "void"
        for e in game.journal)
    assert paid_then_void and paid[0] > 0
    for seat in (1, 2):
        played = 0
        for t in turns:
            card = t.players[seat - 1].combat_card
            if card is not None and card.played == "card" and (card.card or "")[:1] == "A":
                played += 1
            if t.combo is not None and t.combo.player.value == seat - 1:
                played += sum(1 for m in t.combo.moves
                              if not m.combat_card and m.card.startswith("A"))
        assert facts.sides[seat].counters["aces_spent"] == played + paid[seat - 1]
