"""Issue 30: the match page's timeline says "snapback", not "knockdown", for a Tag Team combo
whose knockdown a snapback replaced (SB-2): it shows what the game journalled."""

from __future__ import annotations

import re

from django.core.paginator import Paginator
from django.template.loader import render_to_string

from rules_engine.journal import KnockdownAvoided
from rules_engine.judge import judge
from rules_engine.team import Mode
from tests.rules_engine.journal_agreement import seeded_game


def test_a_snapback_is_shown_where_the_knockdown_was_replaced() -> None:
    for seed in range(60):
        game, log = seeded_game(Mode.TAG_TEAM, seed)
        snaps = {e.turn: e for e in game.journal
                 if type(e) is KnockdownAvoided and e.rule == "SB-2"}
        turns = [t.to_dict() for t in judge(log).turns]
        shown = [t for t in turns if t["turn"] in snaps and t["combo"] is not None]
        if shown:
            break
    else:
        raise AssertionError("no snapback after a combo in these seeds")
    html = render_to_string("matches/_timeline.html",
                            {"turns": Paginator(turns, 500).page(1), "open": True})
    rows = re.findall(r"<tr[ >].*?</tr>", html, flags=re.S)
    for t in shown:
        snap = snaps[t["turn"]]
        row = next(r for r in rows if re.search(rf"<td>{t['turn']}<br>", r))
        combo_cell = row.split("pts", 1)[1].split("</td>", 1)[0]
        assert f"snapback: {snap.seat.name} out, {snap.replaced_by.name} in (SB-2)" in combo_cell
        assert "knockdown" not in combo_cell
