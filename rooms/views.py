"""Room pages: thin. The page is a shell; the websocket carries the game."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from matches.models import Match
from matches.owners import owner_room_decision_seconds, owner_room_links, owner_room_picks
from rooms import games, presentation, services
from rooms.errors import RoomError, RoomErrorCode
from rooms.replay import replay_frames
from rooms.selectors import (
    room_for_match,
    room_get,
    room_is_device,
    room_seat_of,
    room_seats,
    room_seats_of,
)
from rules_engine.errors import LogSyntaxError, RulesError


def room_page(request: HttpRequest, pk: int) -> HttpResponse:
    room = room_get(pk)
    if room is None:
        raise Http404("no such room")
    seats = room_seats(room)
    return render(request, "rooms/room.html", {
        "room": room, "seats": seats, "seat": room_seat_of(seats, request.user),
        "my_seats": " ".join(room_seats_of(seats, request.user)),
        "device": room_is_device(room, request.user),
        # where the match belongs (an event's set and the event), as its owner says
        "links": [{"label": label, "url": url} for label, url in
                  (owner_room_links(room.match) if room.match is not None else [])],
    })


@require_http_methods(["GET"])
def character_card(request: HttpRequest, cid: str) -> JsonResponse:
    """A character's card and its cards' faces (public: the printed cards), for the room's
    page to draw cards as cards; cached by browsers for a day."""
    card = presentation.character_card(cid)
    if card is None:
        raise Http404(f"there is no character {cid!r}")
    response = JsonResponse(card)
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_http_methods(["GET", "POST"])
def match_room(request: HttpRequest, pk: int) -> HttpResponse:
    """The match's room: go there if it is open; its players may open it."""
    match = get_object_or_404(Match, pk=pk)
    room = room_for_match(match.pk)
    if room is not None:
        return redirect("rooms:room", pk=room.pk)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        raw = request.POST.get("decision_seconds", "").strip()
        if raw and not raw.isdigit():
            messages.error(request, f"seconds per decision: {raw!r} is not a whole number")
            return render(request, "rooms/open.html", _open_context(match), status=400)
        try:
            room = services.room_open_for_match(
                match=match, user=request.user, tabletop=request.POST.get("tabletop") == "1",
                one_device=request.POST.get("one_device") == "1",
                decision_seconds=int(raw) if raw else None,
            )
        except RoomError as error:
            messages.error(request, error.message)
            return redirect("matches:match-detail", pk=match.pk)
        return redirect("rooms:room", pk=room.pk)
    return render(request, "rooms/open.html", _open_context(match))


def _open_context(match: Match) -> dict[str, object]:
    # An event's match: the event sets the clock (0: none); None: the opener may choose one.
    # A set's character picks still hidden or missing: the room waits for them.
    picked = owner_room_picks(match)
    return {"match": match, "event_clock": owner_room_decision_seconds(match),
            "picks_pending": picked.pending if picked is not None else ""}


@login_required
@require_http_methods(["GET", "POST"])
def practice_new(request: HttpRequest) -> HttpResponse:
    """Practice: against a bot (Versus), a Tag Team against two bots, the rulebook's Training
    bot, or a Survival run."""
    characters = games.playable_characters()
    status = 200
    if request.method == "POST":
        raw = request.POST.get("run_length", "3").strip() or "3"
        try:
            if not raw.isdigit():
                raise RoomError(RoomErrorCode.BAD_REQUEST,
                                f"opponents in the run: {raw!r} is not a whole number")
            room = services.room_open_practice(
                user=request.user, name=request.user.get_username(),
                mode=request.POST.get("mode", "versus"),
                bot=request.POST.get("bot", "greedy"),
                # Tag Team: the player's two characters, the first and its partner
                character=",".join(filter(None, (request.POST.get("character", ""),
                                                 request.POST.get("partner", "")))),
                bot_character=request.POST.get("bot_character", ""),
                run_length=int(raw),
            )
        except RoomError as error:
            messages.error(request, error.message)
            status = 400
        else:
            return redirect("rooms:room", pk=room.pk)
    return render(request, "rooms/practice.html",
                  {"characters": characters, "bots": games.bots_available()}, status=status)


def _replay(request: HttpRequest, text: str, title: str, back: str | None) -> HttpResponse:
    try:
        replay = replay_frames(text)
    except (LogSyntaxError, RulesError, ValueError) as exc:
        # A log the engine cannot even set up (a refused lineup): say why, never a 500; the
        # page still leads back to the match.
        replay = {"frames": [], "characters": [], "names": [], "seed": None, "outcome": None,
                  "problem": f"This log cannot be replayed: {exc}"}
    return render(request, "rooms/replay.html",
                  {"replay": replay, "title": title, "back": back,
                   # the room's turn-by-turn log, the same lines (rooms.presentation)
                   "turns": presentation.log_turns(text) if replay["frames"] else []})


def room_replay(request: HttpRequest, pk: int) -> HttpResponse:
    room = room_get(pk)
    if room is None or not room.log_text:
        raise Http404("the room's game is not over")
    return _replay(request, room.log_text, f"Room {room.pk}", reverse("rooms:room", args=[room.pk]))


def match_replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The match's result log (room-recorded or uploaded), once verified; without one, its
    latest log as far as it is legal (a refused log: where and why replaying stopped)."""
    match = get_object_or_404(Match.objects.select_related("result_log"), pk=pk)
    log = match.result_log if match.result_source == Match.ResultSource.LOG else None
    if log is None:
        log = match.logs.order_by("-created_at", "-id").first()
    back = reverse("matches:match-detail", args=[match.pk])
    if log is None:
        room = room_for_match(match.pk)  # a room's log refused before it was stored
        if room is None or not room.log_text:
            raise Http404("this match has no log")
        return _replay(request, room.log_text, f"Match #{match.pk} (not its result)", back)
    title = f"Match #{match.pk}" + ("" if log == match.result_log else " (not its result)")
    return _replay(request, log.text, title, back)
