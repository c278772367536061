"""Every choice described for a person (issue 30, part 4): each legal action has a label in the
game's words that names its cards and option, and a plain-data description pages can render.

The property: at every decision of seeded games for all 20 characters and every mode, the
labels of the offered choices are distinct (a player can tell every button apart). Before,
``UseAbility.__str__`` printed neither cards nor option: one Quince decision offered 2,180
buttons all reading "Ability 'Two Truths'", and Lum's Blackjack "deal" and "stop" looked the
same."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest

from rules_engine.actions import Action, Commit, Pass, UseAbility
from rules_engine.bots import make_bot
from rules_engine.cards import card, characters
from rules_engine.characters.quince import TruthChoices
from rules_engine.choices import Choices, describe
from rules_engine.game import Game
from rules_engine.team import Mode
from rules_engine.types import PlayerId

IDS = sorted(characters())
MODES = [(Mode.VERSUS, (1, 1)), (Mode.TRIPLE_THREAT, (3, 3)), (Mode.TAG_TEAM, (2, 2)),
         (Mode.DRAMATIC_BATTLE, (1, 2)), (Mode.DRAMATIC_BATTLE, (2, 1)),
         (Mode.TRAINING, (1, 1)), (Mode.SURVIVAL, (1, 3))]


def _sides(i: int, sizes: tuple[int, int]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Character ``i`` (of the 20) leads side A; the rest rotate."""
    a = tuple(IDS[(i + 7 * k) % 20] for k in range(sizes[0]))
    rest = [c for c in IDS if c not in a]
    return a, tuple(rest[(i * 3 + 4 * k) % len(rest)] for k in range(sizes[1]))


def _decisions(mode: Mode, sides: tuple[tuple[str, ...], tuple[str, ...]], seed: int,
               ) -> Iterator[tuple[Game, PlayerId]]:
    game = Game.new(mode, sides, seed=seed)
    bots = (make_bot("greedy", seed), make_bot("random", seed + 1))
    while not game.is_over:
        for player in game.acting_players:
            yield game, player
        player = game.acting_players[0]
        bot = bots[game.table.side_of(game.controller(player))]
        game.apply(player, bot.choose(game, player, game.legal_actions(player)))


@pytest.mark.parametrize(("mode", "sizes"), MODES,
                         ids=[f"{m.value}-{a}v{b}" for m, (a, b) in MODES])
def test_the_offered_choices_have_distinct_labels_at_every_decision(
        mode: Mode, sizes: tuple[int, int]) -> None:
    # given seeded games where each of the 20 characters leads side A once
    duplicates: list[tuple[str, str, int]] = []
    decisions = choices = 0
    for i in range(20):
        for game, player in _decisions(mode, _sides(i, sizes), 6000 + i):
            # when every choice offered is described
            labels = Counter(c.label for c in game.choices(player))
            decisions += 1
            choices += sum(labels.values())
            # then no two share a label
            duplicates += [(game.step, label, n) for label, n in labels.items() if n > 1]
    print(f"{mode.value} {sizes}: 20 games, {decisions} decisions, {choices} choices, "
          f"{len(duplicates)} duplicate labels")
    assert duplicates == []
    assert decisions > 20 * 10


def test_a_description_is_plain_data_with_the_move_printed_on_the_owners_card() -> None:
    game = Game.new(Mode.VERSUS, ("grave", "jaina"), seed=7)
    for choice in game.choices(PlayerId.P1):
        data = choice.to_json()
        assert json.loads(json.dumps(data)) == data  # JSON-serialisable as it is
        assert data["action"] == choice.action.to_json()
    # every commit offered names the move printed on Grave's card: name, speed, damage
    grave, commits = characters()["grave"], 0
    for choice in game.choices(PlayerId.P1):
        action = choice.action
        if not isinstance(action, Commit) or action.move is None:
            continue
        printed = grave.find_move(action.card, action.move, action.name)
        assert printed is not None
        assert (choice.move, choice.move_name, choice.damage) == (
            action.move.value, printed.name, printed.damage)
        assert choice.speed == (None if printed.speed is None else printed.speed / 10)
        assert choice.cards == (action.card.code,)
        named = f"{printed.name}, " if printed.name else ""
        assert choice.label.endswith(f" ({named}{action.move.value})"), choice.label
        commits += 1
    assert commits > 7


def test_an_ability_choice_names_its_option_and_its_cards() -> None:
    deal, stop = (describe(None, None, UseAbility("Blackjack", option=o)) for o in ("deal", "stop"))
    assert (deal.label, stop.label) == ("Blackjack: deal", "Blackjack: stop")
    assert (deal.option, deal.ability, deal.kind) == ("deal", "Blackjack", "ability")
    truth = describe(None, None, UseAbility("Two Truths", cards=(card("5D"), card("QH")),
                                            option="choose"))
    assert truth.label == "Two Truths: choose 5♦, Queen♥"
    assert truth.cards == ("5D", "QH")
    assert describe(None, None, Pass()).label == "Pass"


def test_the_two_jokers_are_told_apart() -> None:
    one, two = (describe(None, None, Commit(card(c))).label for c in ("X1", "X2"))
    assert one != two and one.startswith("Commit Joker") and two.startswith("Commit Joker")


class _Listed(Sequence[Action]):
    """A decision listed on demand that refuses to be listed whole."""

    def __init__(self, inner: Sequence[Action]) -> None:
        self.inner, self.read = inner, 0

    def __len__(self) -> int:
        return len(self.inner)

    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        self.read += 1
        return self.inner[i]

    def __iter__(self) -> Iterator[Action]:
        raise AssertionError("listed whole")


def test_two_truths_choices_are_described_one_at_a_time() -> None:
    # given Quince's Two Truths over a late-game discard pile: thousands of choices
    by_rank = [tuple(card(f"{r}{s}") for s in "CDHS") for r in "3456789TJQ"]
    truths = TruthChoices(by_rank)
    assert len(truths) > 8000
    listed = _Listed(truths)
    game = Game.new(Mode.VERSUS, ("quince", "grave"), seed=1)
    described = Choices(game, PlayerId.P1, listed)
    # when a page reads its length and one choice
    assert len(described) == len(truths)
    last = described[len(described) - 1]
    # then only that choice was made and described, and it names its three cards
    assert listed.read == 1
    assert last.label.startswith("Two Truths: choose ") and len(last.cards) == 3
    # and labelling all of them stays distinct
    labels = {describe(game, PlayerId.P1, a).label for a in truths}
    assert len(labels) == len(truths)
