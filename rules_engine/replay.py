"""The verifier: replay a match log through the game and return a :class:`Verdict`.

Glossary: *legal* = every event was a legal choice at its decision point and the game ended
with the claimed result; *illegal* = the first illegal event (or a log that stops before the
game ends, or continues after it); *result_mismatch* = every event legal but the claimed result
differs; *unverifiable* = the log shows a problem, but it has a character whose abilities the
engine does not play yet (or a mode it does not play), so the problem may be the engine's, not
the player's: "not verifiable yet", never final; *unreadable* = the input is not a readable
version-1 log; *engine_error* = the engine contradicted itself (our bug, never the player's).

An illegal event is explained by :mod:`rules_engine.diagnosis` (what the player was trying to
do and the rule that forbids it), and every cited rule comes with its words (``rule_text``).

Responsibility: only replay. Verification is replay through the same state machine that bots
and self-play use (:mod:`rules_engine.game`); there is no second set of rules here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from rules_engine import __version__
from rules_engine.actions import Pass, Pick
from rules_engine.cards import character
from rules_engine.characters import abilities_implemented
from rules_engine.diagnosis import explain
from rules_engine.errors import EngineInvariantError, IllegalActionError, LogSyntaxError
from rules_engine.game import Game
from rules_engine.log import ClaimedResult, LogEvent, MatchLog, parse_log
from rules_engine.state import Probe
from rules_engine.types import PlayerId

# Modes a log may name that the engine reads but does not play yet (RULES.md §11).
UNPLAYED_MODES: dict[str, str] = {}  # every mode is played now (Tag Team, Dramatic Battle)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the verifier says about one log; ``to_dict()`` is the stable JSON form."""

    status: str  # legal | illegal | result_mismatch | unverifiable | unreadable | engine_error
    first_error: dict[str, Any] | None = None
    final: dict[str, Any] | None = None
    facts: dict[str, Any] | None = None
    abilities_complete: bool = True
    claimed: dict[str, Any] | None = None
    events: int = 0
    engine_version: str = __version__
    notes: tuple[str, ...] = field(default=())
    # unverifiable only: {"characters": [ids], "mode": str | None, "reason": words}
    unverifiable: dict[str, Any] | None = None

    @property
    def is_legal(self) -> bool:
        return self.status == "legal"

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "first_error": self.first_error,
            "final": self.final,
            "facts": self.facts,
            "abilities_complete": self.abilities_complete,
            "claimed": self.claimed,
            "events": self.events,
            "engine_version": self.engine_version,
            "notes": list(self.notes),
            **({"unverifiable": self.unverifiable} if self.unverifiable is not None else {}),
        }

    def summary(self) -> str:
        """One line for humans (the CLI prints it)."""
        if self.status == "unreadable" and self.first_error:
            return f"unreadable: {self.first_error['json_path']}: {self.first_error['reason']}"
        if self.status == "illegal" and self.first_error:
            e = self.first_error
            return (f"illegal: event {e['index']}, turn {e['turn']}, step {e['step']}, "
                    f"{e['player']}: {e['reason']} [{e['rule_id']}]")
        if self.status == "unverifiable" and self.unverifiable is not None:
            return f"not verifiable yet: {self.unverifiable['reason']}"
        if self.status == "engine_error" and self.first_error:
            return f"engine error (not the player's fault): {self.first_error['reason']}"
        assert self.final is not None
        f = self.final
        who = "draw" if f["winner"] is None else f"{f['winner']} wins"
        life = ", ".join(f"{seat} {v}" for seat, v in f["life"].items())  # P3, P4: a bench
        text = f"{who} by {f['how']} after {f['turns']} turns (life {life})"
        if self.status == "result_mismatch":
            return f"result mismatch: the log claims {self.claimed}, the game gives {text}"
        if not self.abilities_complete:
            text += "; abilities of a character in this log are not implemented yet"
        return f"legal: {text}"


def _final(game: Game) -> dict[str, Any]:
    assert game.outcome is not None
    final: dict[str, Any] = {
        "life": {ps.player.name: ps.life for ps in game.players},
        "winner": None if game.outcome.winner is None else game.outcome.winner.name,
        "how": game.outcome.termination.value,
        "turns": game.turn,
        "position": game.fingerprint(),
    }
    if game.bouts:  # team modes: who played whom, and who fell
        final["bouts"] = [b.to_json() for b in game.bouts]
    return final


def _where(game: Game, seat: PlayerId) -> dict[str, Any]:
    """A team match's bout and the seat's character in play, for a verdict's first error."""
    if not game.bouts:
        return {}
    return {"bout": game.bouts[-1].number, "character": game.state(seat).character.id}


def _wrong_character(game: Game, i: int, event: LogEvent) -> dict[str, Any] | None:
    """TT-3: a version-2 event names the character acting; it must be the one in play."""
    if event.character is None or game.is_over or isinstance(event.action, Pick):
        return None
    in_play = game.state(event.player).character.id
    if event.character == in_play:
        return None
    pos = game.position()
    return {"index": i, "turn": pos.turn, "step": pos.step, "player": event.player.name,
            "action": str(event.action), "rule_id": "TT-3",
            "reason": f"{event.player.name}'s character in play is {in_play}, not "
                      f"{event.character}: only the current characters play a bout",
            "json_path": f"$.events[{i}].character", **_where(game, event.player)}


def _matches(claim: ClaimedResult, final: dict[str, Any]) -> bool:
    winner = None if claim.winner is None else claim.winner.name
    if winner != final["winner"] or claim.how.value != final["how"]:
        return False
    if claim.turns is not None and claim.turns != final["turns"]:
        return False
    return claim.life is None or (
        claim.life == tuple(final["life"][name] for name in final["life"]))


def new_game_for(log: MatchLog) -> Game:
    """The game a log describes, before its first event."""
    return Game.for_log(log)


def _not_verifiable(verdict: Verdict, log: MatchLog) -> Verdict:
    """A problem in a log with a character the engine plays with card stats only is no
    verdict on the player: it may be an ability the engine does not know (Rook's Stone Wall
    reflecting damage, say). Not verifiable yet, instead of illegal."""
    missing = [c for c in dict.fromkeys(log.all_characters) if not abilities_implemented(c)]
    if not missing or verdict.status not in ("illegal", "result_mismatch"):
        return verdict
    names = ", ".join(character(c).name for c in missing)
    reason = (f"the abilities of {names} are not implemented yet, so the engine cannot tell "
              "whether the problem it found is the player's; the log will be verified again "
              "when they are")
    return replace(verdict, status="unverifiable",
                   unverifiable={"characters": missing, "mode": None, "reason": reason})


def _unplayed_mode(text: Any) -> str | None:
    """The mode of a log the engine reads but does not play (a team mode), if that is why it
    could not be read."""
    try:
        doc = text if isinstance(text, dict) else json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return None
    mode = doc.get("mode") if isinstance(doc, dict) else None
    return mode if mode in UNPLAYED_MODES else None


def _explain(log: MatchLog, game: Game, probe: Probe | None, error: dict[str, Any],
             in_place: bool) -> dict[str, Any]:
    """``error`` diagnosed: from ``game`` as it stands (just before the illegal event, with the
    probe of that event), or by replaying the log again up to it."""
    if not in_place:
        return explain(log, error)
    game.diagnosing = None
    return explain(log, error, (game, probe))


# Called after each event the replay applied: (the game, the event's index, the event, the
# turn before it). What the timeline records in the same pass (``timeline.replay_observed``).
Observer = Callable[[Game, int, LogEvent, int], None]


def replay(log: MatchLog | str | bytes | dict[str, Any], *,
           game_for: Callable[[MatchLog], Game] = new_game_for,
           observe: Observer | None = None, in_place: bool = False) -> Verdict:
    """Replay a log; never raises for bad input (the verdict says what is wrong).

    ``game_for`` builds the game (:func:`new_game_for`; the timeline's is the same game, only
    kept for reading its journal afterwards);
    ``observe`` is told of every event applied. With ``in_place`` (:func:`rules_engine.judge.
    judge`) each event is applied with the next one offered to the decisions the game settles
    by itself (a :class:`Probe`), so that an illegal event is diagnosed from the game as it
    stands, without replaying the log again; the game is left just before the first illegal
    event.

    >>> replay('{"format": "yomi-match-log"}').status
    'unreadable'
    """
    if not isinstance(log, MatchLog):
        try:
            log = parse_log(log)
        except LogSyntaxError as unread:
            mode = _unplayed_mode(log) if unread.json_path == "$.mode" else None
            if mode is not None:
                return Verdict("unverifiable", first_error=unread.data, abilities_complete=False,
                               unverifiable={"characters": [], "mode": mode, "reason":
                                             f"{UNPLAYED_MODES[mode]} games are not played by "
                                             "the engine yet; the log will be verified again "
                                             "when they are"})
            return Verdict("unreadable", first_error=unread.data, abilities_complete=False)
    complete = all(abilities_implemented(c) for c in log.all_characters)
    notes = () if complete else tuple(
        f"abilities of {c} are not implemented yet: played with card stats only"
        for c in dict.fromkeys(log.all_characters) if not abilities_implemented(c))
    claimed = None if log.result is None else log.result.to_json()
    game: Game | None = None
    probe: Probe | None = None  # in place: the probe of event i (filled while i - 1 applied)
    events = log.events
    last = len(events) - 1
    # in place: two probes, reused in turn (event i's, filled while i - 1 was applied, and
    # event i + 1's, offered while i is applied): not one made per event
    probes = (Probe(PlayerId.P1, Pass()), Probe(PlayerId.P1, Pass())) if in_place else ()
    try:
        game = game_for(log)
        for i, event in enumerate(events):
            if in_place:
                probe = game.diagnosing
                if i < last:
                    offered = probes[i & 1]
                    following = events[i + 1]
                    offered.player, offered.action = following.player, following.action
                    if offered.found:
                        offered.found = []
                    game.diagnosing = offered
                else:
                    game.diagnosing = None
            if game.outcome is not None:  # game.is_over, read without the property's call
                pos = game.position()
                over = {"index": i, "turn": pos.turn, "step": pos.step,
                        "player": event.player.name, "action": str(event.action),
                        "rule_id": "END-2",
                        "reason": "the game is already over; no event may follow",
                        "json_path": f"$.events[{i}]"}
                return _not_verifiable(Verdict(
                    "illegal", first_error=_explain(log, game, probe, over, in_place),
                    abilities_complete=complete, claimed=claimed, events=i, notes=notes), log)
            # TT-3, checked only for an event that names its character (version 2)
            wrong = None if event.character is None else _wrong_character(game, i, event)
            if wrong is not None:
                return _not_verifiable(Verdict("illegal", first_error=_explain(
                                                   log, game, probe, wrong, in_place),
                                               abilities_complete=complete, claimed=claimed,
                                               events=i, notes=notes), log)
            turn = game.turn
            game.apply(event.player, event.action)
            if observe is not None:
                observe(game, i, event, turn)
        if not game.is_over:
            pos = game.position()
            who = " and ".join(p.name for p in game.acting_players)
            return _not_verifiable(Verdict("illegal", first_error=_explain(log, game, None, {
                "index": len(log.events), "turn": pos.turn, "step": pos.step,
                "player": game.acting_players[0].name if game.acting_players else None,
                "action": None, "rule_id": "END-1",
                "reason": f"the log ends before the game does ({who} must still act)",
                "json_path": "$.events",
            }, in_place), abilities_complete=complete, claimed=claimed, events=len(log.events),
                notes=notes), log)
    # each except clause has its own name: compiled by mypyc (make bench-compiled), one name
    # has one type in a whole function
    except IllegalActionError as illegal:
        data = illegal.data
        data["json_path"] = f"$.events[{data['index']}]"
        assert game is not None
        if illegal.player is not None:
            data.update(_where(game, illegal.player))
        return _not_verifiable(Verdict("illegal", first_error=_explain(log, game, probe, data,
                                                                       in_place),
                                       abilities_complete=complete, claimed=claimed,
                                       events=len(log.events), notes=notes), log)
    except EngineInvariantError as broken:
        return Verdict("engine_error", first_error={"reason": str(broken)},
                       abilities_complete=complete, claimed=claimed, events=len(log.events),
                       notes=notes)
    final = _final(game)
    facts = game.facts()
    if log.result is None or not _matches(log.result, final):
        return _not_verifiable(Verdict(
            "result_mismatch", final=final, facts=facts, abilities_complete=complete,
            claimed=claimed, events=len(log.events),
            notes=(*notes, "the log claims no result") if log.result is None else notes), log)
    return Verdict("legal", final=final, facts=facts, abilities_complete=complete,
                   claimed=claimed, events=len(log.events), notes=notes)
