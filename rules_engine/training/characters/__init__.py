"""The per-character changes to the generic bot (RULES.md §12.2, the BOT table).

One module per character (``<id>.py``) holding its :class:`BotRules` subclass; this package's
:data:`BOT_RULES` is the table the bot reads. Why not a hook on each character's
:class:`~rules_engine.characters.CharacterRules`: see :mod:`rules_engine.training.characters.base`.
"""

from __future__ import annotations

from rules_engine.training.characters.argagarg import ArgagargBot
from rules_engine.training.characters.base import BotRules
from rules_engine.training.characters.bbb import BBBBot
from rules_engine.training.characters.degrey import DeGreyBot
from rules_engine.training.characters.geiger import GeigerBot
from rules_engine.training.characters.gloria import GloriaBot
from rules_engine.training.characters.grave import GraveBot
from rules_engine.training.characters.gwen import GwenBot
from rules_engine.training.characters.jaina import JainaBot
from rules_engine.training.characters.lum import LumBot
from rules_engine.training.characters.menelker import MenelkerBot
from rules_engine.training.characters.midori import MidoriBot
from rules_engine.training.characters.onimaru import OnimaruBot
from rules_engine.training.characters.persephone import PersephoneBot
from rules_engine.training.characters.quince import QuinceBot
from rules_engine.training.characters.rook import RookBot
from rules_engine.training.characters.setsuki import SetsukiBot
from rules_engine.training.characters.troq import TroqBot
from rules_engine.training.characters.valerie import ValerieBot
from rules_engine.training.characters.vendetta import VendettaBot
from rules_engine.training.characters.zane import ZaneBot

#: The BOT rules the bot plays, by character id (one line each). Every other character plays
#: the generic procedure, and a verdict says so.
BOT_RULES: dict[str, BotRules] = {
    "argagarg": ArgagargBot("BOT-ARGAGARG"),  # "No changes" (TR-11 only)
    "bbb": BBBBot("BOT-BALBASBETA"),
    "degrey": DeGreyBot("BOT-DEGREY"),
    "geiger": GeigerBot("BOT-GEIGER"),
    "gloria": GloriaBot("BOT-GLORIA"),
    "grave": GraveBot("BOT-GRAVE"),
    "gwen": GwenBot("BOT-GWEN"),
    "jaina": JainaBot("BOT-JAINA"),
    "lum": LumBot("BOT-LUM"),
    "menelker": MenelkerBot("BOT-MENELKER"),
    "midori": MidoriBot("BOT-MIDORI"),
    "onimaru": OnimaruBot("BOT-ONIMARU"),
    "persephone": PersephoneBot("BOT-PERSEPHONE"),
    "quince": QuinceBot("BOT-QUINCE"),
    "rook": RookBot("BOT-ROOK"),
    "setsuki": SetsukiBot("BOT-SETSUKI"),
    "troq": TroqBot("BOT-TROQ"),  # "No changes" (TR-11 only)
    "valerie": ValerieBot("BOT-VALERIE"),
    "vendetta": VendettaBot("BOT-VENDETTA"),
    "zane": ZaneBot("BOT-ZANE"),
}

__all__ = ["BOT_RULES", "BotRules"]
