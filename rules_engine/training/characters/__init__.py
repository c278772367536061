"""The per-character changes to the generic bot (RULES.md §12.2, the BOT table).

One module per character (``<id>.py``) holding its :class:`BotRules` subclass; this package's
:data:`BOT_RULES` is the table the bot reads. Why not a hook on each character's
:class:`~rules_engine.characters.CharacterRules`: see :mod:`rules_engine.training.characters.base`.
"""

from __future__ import annotations

from rules_engine.training.characters.argagarg import ArgagargBot
from rules_engine.training.characters.base import BotRules
from rules_engine.training.characters.gloria import GloriaBot
from rules_engine.training.characters.gwen import GwenBot
from rules_engine.training.characters.menelker import MenelkerBot
from rules_engine.training.characters.persephone import PersephoneBot
from rules_engine.training.characters.troq import TroqBot
from rules_engine.training.characters.vendetta import VendettaBot
from rules_engine.training.characters.zane import ZaneBot

#: The BOT rules the bot plays, by character id (one line each). Every other character plays
#: the generic procedure, and a verdict says so.
BOT_RULES: dict[str, BotRules] = {
    "argagarg": ArgagargBot("BOT-ARGAGARG"),  # "No changes" (TR-11 only)
    "gloria": GloriaBot("BOT-GLORIA"),
    "gwen": GwenBot("BOT-GWEN"),
    "menelker": MenelkerBot("BOT-MENELKER"),
    "persephone": PersephoneBot("BOT-PERSEPHONE"),
    "troq": TroqBot("BOT-TROQ"),  # "No changes" (TR-11 only)
    "vendetta": VendettaBot("BOT-VENDETTA"),
    "zane": ZaneBot("BOT-ZANE"),
}

__all__ = ["BOT_RULES", "BotRules"]
