"""A Celery app for tests that slows simulation chunks down, so a test can kill a worker mid-chunk.

Start a worker with ``celery -A tests.support.slow_chunk_worker worker``; it is the project's app
with each self-play game of a chunk delayed by YOMI_TEST_GAME_DELAY seconds (default 1).
"""

from __future__ import annotations

import os
import time
from typing import Any

from rules_engine import selfplay
from yomi_site.celery import app

_real_play_game = selfplay.play_game


def _slow_play_game(*args: Any, **kwargs: Any) -> Any:
    time.sleep(float(os.environ.get("YOMI_TEST_GAME_DELAY", "1")))
    return _real_play_game(*args, **kwargs)


selfplay.play_game = _slow_play_game  # simulations.services calls it through the module

__all__ = ["app"]
