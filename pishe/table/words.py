"""The table's page sentences: one place to word them, one place to translate them.

The JavaScript of the page never words a sentence. What a game's view says comes
from its ``view.py``; what the table's page itself says (the friend panel's
status line, the copy buttons, the notes on who deals, the lines of a table
waiting for a friend) is here.

:data:`PAGE` holds the page's sentences by key; the worker hands them to the
page once Python is ready (:func:`pishe.web.page_words`) and the page shows
them by key. A sentence with ``{name}`` in it has a value put there by the
page, the value itself never a sentence the page worded: ``{reason}`` is
Python's words for an error, or one of these sentences naming a cause (the
``why_…`` keys: never the browser's own text), ``{game}`` a game id.

The sentences that depend on the table's state are made here too, from that
state: :func:`clock_label`, :func:`dealing_lines`, :func:`fairness`, :func:`check_line`, and the
live region's news of a deal: :func:`dealt`, :func:`match_score`.

What the page says when Python itself could not run is worded here too and
written into the page by build.py (:data:`LOADING`, :data:`START_FAILED`); only
the frame of those lines ("No answer from the game.", "The game could not
start: {reason}") is the page's JavaScript's, through the same catalog.
"""

from __future__ import annotations

from typing import Optional

from .lang import N_, TABLE, _, named, ngettext
from .said import data_of, nsay

__all__ = ["PAGE", "WAITING", "clock", "clock_label", "level_line", "CLOCK_WARNINGS", "dealing_lines", "fairness",
           "check_line",
           "presence", "waiting_for", "sides", "dealt", "match_score", "LOADING", "START_FAILED", "MANIFEST", "page",
           "waiting"]

#: The page's sentences, by key.
PAGE = {
    # The friend panel's status line.
    "preparing": N_("Making the invite…"),
    "answering": N_("Connecting to the host's table…"),
    "waiting": N_("Waiting for your friend…"),
    "connecting": N_("Connecting…"),
    "connected": N_("Connected"),
    "host_lost": N_("Connection lost — invite again"),
    "guest_lost": N_("Connection lost — ask for a new invite link"),
    "link_used": N_("This invite link was used already — ask your friend for a new one"),
    "failed": N_("Could not reach your friend's page — invite again"),
    "invite_failed": N_("The invite could not be made: {reason}"),
    "link_broken": N_("This invite link does not work: {reason}"),
    # The Copy buttons.
    "copied": N_("Copied."),
    "copy_by_hand": N_("Select it and copy it by hand."),
    # The host's reply code box and Connect.
    "paste_reply": N_("Paste the reply code your friend's page shows."),
    "not_a_code": N_("This is not a connection code from this game."),
    "code_damaged": N_("The connection code is damaged (check it was copied whole)."),
    "connect_failed": N_("Could not connect with this reply code: {reason}"),
    # Why a link or a connection failed, by its cause (web/core/rtc.js names it; relay.js for a
    # link's key): the {reason} of "invite_failed", "link_broken" and "connect_failed". The
    # browser's own words go only into the collapsed details, for a bug report.
    "why_not_a_code": N_("it is not an invite of this game. Ask your friend for a new one."),
    "why_damaged": N_("it is damaged, perhaps not copied whole. Ask your friend for a new one."),
    "why_no_webrtc": N_("this browser cannot connect to another page (WebRTC is missing or turned off). "
                        "Try another browser."),
    "why_refused": N_("this browser could not use its connection code. Ask for a new one."),
    "why_browser": N_("the browser could not set up a connection. Reload the page and try again."),
    "why_older": N_("it is from an older version of the page. Ask your friend for a new one."),
    # Who deals, once connected.
    "host_deals": N_("Your page deals the cards and keeps the match; your friend's page checks each deal."),
    "friend_deals": N_("Your friend's page deals; this page checks each deal when it ends."),
    # The friend's table's status and error lines.
    "paused": N_("Paused until you are connected again."),
    "friend_away": N_("Your friend is away: their turn waits for them."),
    "refused": N_("Your friend's page sent something this page cannot accept: {reason}"),
    "not_brought_back": N_("The table could not be brought back: {reason}"),
    # A table with several friends: the host's status line, and each invited seat's state.
    "waiting_friends": N_("Waiting for your friends: {here} of {all} here…"),
    "seat_waiting": N_("waiting"),
    "seat_connected": N_("here"),
    "seat_lost": N_("connection lost"),
    "seat_away": N_("away: a computer plays"),
    "seat_left": N_("left: a computer plays"),
    "seat_unfair": N_("not fair: a computer plays"),
    "seat_reconnecting": N_("reconnecting…"),
    # Beside a seat's name, the name its player chose (player text), and the field to choose one.
    "chosen_name": N_("Name chosen by this player"),
    "name_saved": N_("Saved: the others see it beside your seat."),
    # The host's Share button (the Web Share API), beside Copy link.
    "share_title": N_("Come and play at my table"),
    "shared": N_("Shared."),
    # The host's status line while a friend's page is coming back ({name}: the seat's name, Python's).
    "reconnecting": N_("{name} is reconnecting…"),
    # While its seat is held mid-deal ({seconds}: the hold left). The host need not wait: "Deal
    # again now" (index.html) stops the deal in play, dealt again with a computer in that seat.
    "hold_countdown": N_("{name} is reconnecting: a computer takes the seat in {seconds} s."),
    # At a friends' match end: the host's Play again is on the result panel; a friend's says this.
    "waiting_next_match": N_("Waiting for the host to start another match."),
    "leave_table": N_("Leave the table"),
    # Any table.
    "unknown_game": N_("This page cannot show the game {game}."),
    # A friends' table's part of the page, fetched when one opens, did not come (offline).
    "friends_unreachable": N_("Playing with friends needs the network, and this page could not download "
                              "its part. Check the connection and try again."),
    # Asked before a match in progress is thrown away (the keys are what asks: new_match, invite, game).
    "leave_title": N_("Leave the match you are playing?"),
    "leave_new_match": N_("A new match starts from nothing: this one is lost."),
    "leave_invite": N_("Inviting a friend ends this match against the computer: it is lost."),
    "leave_game": N_("Another game starts a new match: this one is lost."),
    "leave_ok_new_match": N_("Start a new match"),
    "leave_ok_invite": N_("Invite a friend"),
    "leave_ok_game": N_("Change the game"),
    "leave_cancel": N_("Keep playing"),
    # A match setting (level, length, target, clock) changed while a match is played.
    "from_next_match": N_("Changed settings apply from the next match."),
    # What a connection to another page is (web/tables/friend/route.js): its path and round trip.
    "path_direct": N_("Direct connection"),
    "path_turn": N_("Through a TURN server"),
    "path_relays": N_("Through relays (slower)"),
    "path_line": N_("{path} · {ms} ms round trip"),
    # No connection could be made, though both pages had each other's codes.
    "no_path_host": N_("No connection could be made between your two networks. Press Invite again; "
                       "if it fails again, try both on the same Wi-Fi, or one of you on mobile data, "
                       "or ask whoever hosts this page to add a TURN server."),
    # A friend whose link finds no host: most often the host's page was closed, so that comes first.
    "no_path_guest": N_("Your friend's page may be closed: ask them to open the table and send you the link "
                        "again. If it is open, this network could not reach it: try another network "
                        "(Wi-Fi or mobile data)."),
    "seat_no_path": N_("could not connect"),
    # The relays of signaling.json that did not answer ({list}: their addresses, from that file).
    "relays_failed": N_("Relays not reached: {list}"),
    # A message the relays brought that the host's page ignored (web/tables/friend/relay.js).
    "relay_unreadable": N_("A message that was not from your friend came through the relay; it was ignored."),
    "relay_other_offer": N_("An answer to another invite came through the relay; it was ignored."),
    "relay_stale": N_("An out-of-date message came through the relay; it was ignored."),
}

#: The loading line while the page starts, by the worker's start-up milestone
#: (web/core/worker.js). Python is not running yet then, so build.py writes these
#: into the page (``start`` is index.html's first line) and into its worker.
LOADING = {"start": N_("Opening a new deck"), "runtime": N_("Starting Python, the game's engine"),
           "python": N_("Dealing the cards"), "wheels": N_("Laying out the table")}

#: Why the game could not start, by the cause the worker (web/core/worker.js) or the page
#: (web/core/boot.js) names: the {reason} of "The game could not start: {reason}". Python is
#: not running then, so build.py writes these into the page (index.html's
#: data-start-failures template); the error's own text goes only into the collapsed details.
START_FAILED = {
    "download": N_("a file of the game could not be downloaded. Check the connection and reload the page."),
    "browser": N_("this browser cannot run the game's engine (it needs WebAssembly). Try an up-to-date browser."),
    "memory": N_("the browser ran out of memory. Close other tabs and reload the page."),
    "engine": N_("the game's engine failed while starting. Reload the page; if it fails again, "
                 "report it with the details below."),
}

#: The installed app's words (web/manifest.webmanifest): build.py writes the English into the
#: manifest and each other language's into its "translations" member (the W3C's manifest
#: localization; a browser that does not know it shows the English). One manifest for every
#: language: the page itself follows its player's.
# The app's words name no game: a new game is an addition, never an edit of the table.
MANIFEST = {"name": N_("Card table"), "short_name": N_("Card table"),
            "description": N_("Card games against the computer or with friends, page to page. "
                              "Free, no account, works offline.")}

#: What a friend's table says before its cards are dealt, by the page's role.
WAITING = {"host": N_("The cards are dealt when your friend joins."),
           "guest": N_("The cards are dealt once you are connected.")}


def page() -> dict:
    """:data:`PAGE` in the page's language, by key."""
    return {key: _(sentence) for key, sentence in PAGE.items()}


def deal_word() -> str:
    """The table's word for a deal, "Deal", in the page's language (a game has its own:
    :meth:`~pishe.table.game.Game.deal_word`)."""
    return _("Deal")


def waiting(role: str) -> str:
    """What a friend's table says before its cards are dealt, for ``role`` (a key of :data:`WAITING`)."""
    return _(WAITING[role])


#: The seconds left at which the page says how many are left (politely, in its live region).
CLOCK_WARNINGS = (10, 5)
#: The clock shows its whole seconds over the last so many.
CLOCK_COUNTDOWN = 10


def clock(seat: int, seconds: int, yours: bool = True) -> dict:
    """The clock of ``seat`` to move, for the page: ``{"seat", "seconds", "label"}`` (its
    accessible name), ``"left"`` (the words for n seconds left, ``left[n - 1]``, over the last
    :data:`CLOCK_COUNTDOWN`: the page shows n and names the clock so; ``"left_said"``, their
    data, for the live region to say them again in another language) and ``"warnings"`` (the
    seconds left at which the page says so, :data:`CLOCK_WARNINGS`, when the clock is
    ``yours``: the page's own seat's)."""
    left = [nsay(TABLE, "{seconds} second left", "{seconds} seconds left", n, seconds=n)
            for n in range(1, min(CLOCK_COUNTDOWN, seconds) + 1)]
    return {"seat": seat, "seconds": seconds, "label": clock_label(seconds), "left": left,
            "left_said": data_of(left), "warnings": [n for n in CLOCK_WARNINGS if n < seconds] if yours else []}


def level_line(level_name: str) -> str:
    """The table's line naming the computer's level ("Level: Hard"), ``level_name`` in the page's language."""
    return _("Level: {level}").format(level=level_name)


def clock_label(seconds: int) -> str:
    """The running clock's accessible name: "Clock: 15 seconds a card"."""
    return ngettext("Clock: {seconds} second a card", "Clock: {seconds} seconds a card", seconds).format(
        seconds=seconds)


def dealing_lines(deal: Optional[int]) -> dict:
    """A friend's table's status line while deal ``deal`` is being dealt: ``"dealing"``
    ("Dealing deal 2…"), and the host's ``"when_back"`` while its friend is away."""
    if deal is None:
        return {"dealing": _("Dealing the cards…"), "when_back": _("The cards are dealt when your friend is back.")}
    return {"dealing": _("Dealing deal {deal}…").format(deal=deal),
            "when_back": _("Deal {deal} is dealt when your friend is back.").format(deal=deal)}


def fairness(verification: Optional[str], deal: Optional[int], verified: str,
             deal_name: str = "Deal", aborts: int = 0) -> Optional[dict]:
    """The guest's check of its last finished deal, for its page: ``{"ok", "line"}``
    ("Deal 1 verified", or the warning in the check's own words), or ``None`` before
    any deal was checked. ``verified`` is the value ``verification`` has for a deal
    that passed; ``deal_name`` is the game's word for a deal, in the page's language
    (Pişti's "Deck 1 verified"). ``aborts``: shuffles this page showed its part to that were
    never dealt, at this table; a verified deal's line says how many, so that they never go unseen."""
    if not verification:
        return None
    if verification == verified:
        line = _("{deal_name} {deal} verified").format(deal_name=deal_name, deal=deal)
        if aborts:
            line += " " + _("(stopped and dealt again at this table: {aborts})").format(aborts=aborts)
        return {"ok": not aborts, "line": line}
    return {"ok": False, "line": verification}


def check_line(code: Optional[str], deal: Optional[int], deal_name: str = "Deal") -> Optional[list]:
    """The line beside the fairness line with the table check code of the deal in play (its
    four pictures, the same on every honest page), for friends to compare on a call; ``None``
    before every page's keys have come. ``deal_name`` is the game's word for a deal. It comes
    as ``[before, code, after]``, the sentence's words around the code, so that a page shows
    the pictures large and together."""
    if not code or deal is None:
        return None
    line = _("{deal_name} {deal} check code: {code} (the same on every page at this table; "
             "a different one on a friend's page means the host swapped their keys)")
    before, after = line.split("{code}", 1)
    return [before.format(deal_name=deal_name, deal=deal), code, after.format(deal_name=deal_name, deal=deal)]


def presence(seats: list, seat: Optional[int]) -> list:
    """Who plays each seat, as ``seat``'s page flags it beside the seat's name ("" for
    none): "Computer", "Friend", "Host", and who is away, has left, or was found not fair twice
    (a computer plays it for the rest of the match). ``seats`` is a table's list of
    ``{"seat", "role", "connected", "autopilot", "away", "left", "unfair"}``."""
    flags = []
    for s in seats:
        if s.get("role") == "computer":
            flags.append(_("Computer"))
        elif s.get("left"):
            flags.append(_("Left: computer"))
        elif s.get("unfair"):
            flags.append(_("Not fair: computer"))
        elif s.get("away"):
            flags.append(_("Away: computer"))
        elif s.get("autopilot"):
            flags.append(_("Computer for now"))
        elif s.get("seat") == seat:
            flags.append("")
        elif not s.get("connected"):
            flags.append(_("Not here"))
        else:
            flags.append(_("Host") if s.get("role") == "host" else _("Friend"))
    return flags


def waiting_for(names: list) -> Optional[str]:
    """The status line naming the seats a table waits on ("Waiting for Right…", "Waiting
    for Right and Left…"), by the seats' names from the reader's side; ``None`` for none."""
    if not names:
        return None
    if len(names) == 1:
        return _("Waiting for {name}…").format(name=names[0])
    return _("Waiting for {names} and {last}…").format(
        names=", ".join([names[0]] + [named(name) for name in names[1:-1]]), last=named(names[-1]))


def sides(teams: tuple, seat: int) -> list:
    """Each seat's side from ``seat``'s: "your partner" (same team), "other team", or ""
    (this seat, or a game where every seat plays for itself)."""
    team_of = {s: n for n, members in enumerate(teams) for s in members}
    if all(len(members) == 1 for members in teams):
        return ["" for s in team_of]
    return ["" if s == seat else _("your partner") if team_of[s] == team_of[seat] else _("other team")
            for s in sorted(team_of)]


def dealt(deal_name: str, number: int, dealer: str) -> str:
    """What the live region says when a deal is dealt: "Deal 2 is dealt. Dealer: You."
    (``deal_name`` in the page's language)."""
    return _("{deal_name} {number} is dealt. Dealer: {dealer}.").format(
        deal_name=deal_name, number=number, dealer=dealer)


def match_score(names: list, scores: list, over: bool) -> str:
    """The match score as the live region says it after a deal, each side by its name
    ("Match score: You 12, Computer 0."; "Match over. Final score: …" once it is over)."""
    line = ", ".join(f"{named(name)} {points}" for name, points in zip(names, scores))
    return (_("Match over. Final score: {scores}.") if over else _("Match score: {scores}.")).format(scores=line)
