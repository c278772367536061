"""Issue 12: the abilities of DeGrey, Argagarg and Gwen are legal choices exactly as listed: at
every decision of seeded games (random and greedy bots, every ruleset variant's options of these
characters), each listed choice passes the game's own check, listing never moves a card, and
the ability choices do appear."""

from __future__ import annotations

import pytest

from rules_engine.actions import UseAbility
from rules_engine.bots import make_bot
from rules_engine.cards import character
from rules_engine.game import Game
from rules_engine.ruleset import ArgagargLife, MoralHighGround, ProtectiveWard, Ruleset
from rules_engine.types import Actor, PlayerId

OPPONENTS = ("grave", "jaina", "degrey", "argagarg", "gwen", "midori", "rook")
RULESETS = (Ruleset(), Ruleset(moralHighGround=MoralHighGround.DIFFERENCE_PLUS_ONE,
                               protectiveWard=ProtectiveWard.DRAW_PHASE,
                               argagargLife=ArgagargLife.LIFE_90))


@pytest.mark.parametrize("cid", ["degrey", "argagarg", "gwen"])
def test_every_listed_choice_is_legal_and_listing_moves_nothing__GEN_2(cid: str) -> None:
    seen: set[str] = set()
    for n, opp in enumerate(OPPONENTS):
        for ruleset in RULESETS:
            p1, p2 = (cid, opp) if n % 2 else (opp, cid)
            g = Game(character(p1), character(p2), ruleset=ruleset, seed=100 + n)
            bots = (make_bot("random", n), make_bot("greedy", n))
            while not g.is_over:
                before = g.fingerprint(), [list(ps.hand) for ps in g.players]
                for p in g.acting_players:
                    for action in g.legal_actions(p):
                        g.check(p, action)  # raises IllegalActionError if listed wrongly
                        if isinstance(action, UseAbility):
                            seen.add(action.ability)
                assert (g.fingerprint(), [list(ps.hand) for ps in g.players]) == before
                actor = g.actor
                p = g.acting_players[0] if actor is Actor.SIMULTANEOUS else actor
                assert isinstance(p, PlayerId)
                g.apply(p, bots[p].choose(g, p, g.legal_actions(p)))
    names = {a.name for a in character(cid).abilities} | {i.name for i in character(cid).innates}
    assert seen & names, seen  # the character's abilities were offered
