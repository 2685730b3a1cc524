"""The guest's side of a friends' table: its own seat of the no-peek deal, and its page's lines.

A :class:`Guest` holds its seat of each deal's try (a
:class:`~pishe.table.nopeek_seat.NoPeekSeat`): it shuffles and locks the deck with the other
pages, opens only the cards its seat may see (every page's key for them), makes its moves
on its own engine with their keys, and makes its own view from what it knows. At the end of
the deal every page's secret is revealed and the page checks the whole deal: "Deal N
verified", or "Deal N is not fair: …" naming who broke it, which stays for the match. A
try that a page leaves with its keys is aborted, named, counted and dealt again; the count
(:meth:`Guest.ledger`, kept by the page in its tab after every call) carries across reloads
and matches. Every sentence it shows is its own: steps and views are worded from its own
engine and the host's refusals by their code, never with the host's text.
"""

from __future__ import annotations

import json
import random
from typing import Optional

from ...errors import PisheError
from ..lang import N_, TABLE, _
from .. import said, said_again
from ..said import deal_word, lowered, say
from ..game import get_game, is_game
from . import wire
from .common import computers_note, friend_names
from .guest_deal import GuestDeal
from .wire import (CONNECTING, DEAL_OVER, DEALING, MATCH_OVER, MAX_HOST_MESSAGE, PLAYING, CorruptSaveError,
                   MalformedMessageError, NotConnectedError, Outcome, UnknownTokenError, VERSION, WrongPhaseError)

__all__ = ["Guest", "REFUSALS"]

#: The guest's own sentence for each refusal the host may answer, by the error's code
#: (the host's own words are never shown: a host could print anything in them).
REFUSALS = {
    "not-your-turn": N_("It is not your turn."),
    "unknown-action": N_("The host does not know that move."),
    "illegal-action": N_("That move is not allowed now."),
    "deal-over": N_("The deal is over."),
    "deal-not-over": N_("The deal is still being played."),
    "match-over": N_("The match is over."),
    "wrong-phase": N_("The table is not ready for that yet."),
    "log-full": N_("The host refused a message of yours: this deal's record is full."),
    "removed-deal": N_("The host's page refused a message of the old way to deal: this page deals no-peek only."),
    "replayed-message": N_("The host had that message already."),
    "out-of-order-message": N_("A message of yours reached the host out of order."),
    "not-connected": N_("The host does not count this page as connected: say hello again."),
    "seat-taken": N_("Every seat for a friend is taken."),
    "unknown-token": N_("The host does not know this page's seat: joining the table afresh."),
    "message-too-long": N_("A message of yours was too long for the host."),
    "message-too-deep": N_("A message of yours was too deeply nested for the host."),
    "malformed-message": N_("The host could not read a message of yours."),
    "unsupported-version": N_("The host's page runs another version of the game: both pages need the same."),
    "wrong-game": N_("The host's table plays another game."),
    "unknown-message-type": N_("The host does not know a message of yours."),
}
_REFUSED = N_("The host refused a message of yours.")


class Guest(GuestDeal):
    """The guest's side of a table: its own seat of every deal, its moves out, the others' in.

    ``token`` is the seat token of an earlier connection (kept by the page in
    sessionStorage) to resume that seat; ``rng`` draws this page's secrets (the
    system's cryptographic source unless given); ``ledger`` is :meth:`ledger`'s text
    as the page kept it, so that a page that joins afresh still counts the aborts,
    keeps its warning, and rebuilds the try in play from its secret. Send
    :meth:`hello` when the data channel opens, then pass every message received to
    :meth:`receive` and send what it returns. The game is the one the host's welcome names.

    At the end of each deal the page checks it: :attr:`verification` is then
    :data:`~.wire.VERIFIED` or a warning in plain words, for deal
    :attr:`verification_deal`. A warning that the deal was not fair ("Deal N is not
    fair: …") stays for the rest of the match.

    Its jobs live in its bases: the page's state, ledger and check of each deal
    (:class:`~.guest_table.GuestTable`), its seat of the no-peek deal
    (:class:`~.guest_deal.GuestDeal`); here what the page shows, the connection (hello,
    welcome, sequence numbers, the host's messages and refusals) and the saves.
    """

    # -- what the page shows ----------------------------------------------------------

    def view(self) -> Optional[dict]:
        """This seat's view from this page's own engine (``None`` before the first deal).
        While this page sits the deal in play out (:meth:`sits_out`): its seat's place at
        the table, saying that it plays from the next deal."""
        if self._refusing is not None:
            return self._game.blank_view(self._seat, friend_names(self._game, self._seat), self.verification or "")
        if self.sits_out():
            deal = said.lowered(self._deal_word())
            why = say(TABLE, "A computer plays your seat for the rest of the match: the host's page found this "
                             "page not fair twice.") if self._seat_flag("unfair") else say(
                TABLE, "A computer plays your seat for now: you play when the next {deal} is dealt.", deal=deal)
            return self._game.blank_view(self._seat, friend_names(self._game, self._seat), why)
        self._reworded()
        return self._view

    def sits_out(self) -> bool:
        """Whether a computer run by the host's page plays this seat in the deal in play, dealt
        without this page: it came mid-deal to a seat the host shows as the computer's, or
        the try it dealt in was aborted and no new one has come to it. No page can show it
        that deal's board: only the host's page knows the seat's cards."""
        from ..nopeek import DealAbortedError

        if self.game is None or self.seat is None or self._seq is None:
            return False
        if self._seat_flag("unfair"):
            return True         # the host's page found this page not fair twice: its computer plays
        if self._np is not None:
            return isinstance(self._np.outcome, DealAbortedError)
        # A page that never dealt with this host (no key) and has no board sits out.
        return self._seat_flag("away") and (self._np_key is not None or self._view is None)

    @property
    def phase(self) -> str:
        """``connecting``, ``dealing``, ``playing``, ``deal-over`` or ``match-over``."""
        if self._seq is None:
            return CONNECTING
        if self.sits_out() or self._refusing is not None:
            return PLAYING              # the others play the deal: this page's seat is the computer's
        if self._np is not None and (not self._np.dealt or self._view is None
                                     or self._view_deal() != self._key[0]):
            return DEALING
        if self._view is None:
            return DEALING
        match = self._view["match"]
        if match.get("over"):
            return MATCH_OVER
        return DEAL_OVER if self._view.get("turn") is None else PLAYING

    def status(self) -> dict:
        """The table for the guest's page: game, seat, phase, deal, match length, the deal
        check, the aborts counted, whether computers sit with friends, and ``check_code``, the
        table check code of the try this page holds (``None`` before every page's keys came)."""
        return {"game": self.game.id if self.game else None, "seat": self.seat, "phase": self.phase,
                "deal": self._np_key[0] if self._np_key else None, **(self.table or {}),
                "verification": said_again.now(self.verification), "verification_deal": self.verification_deal,
                "aborts": len(self._aborts),
                "awaiting_reveal": bool(self._np is not None and self._np.unrevealed()),
                "computers_note": self._computers_note() if self._np is not None else None,
                "check_code": self._np.check_code if self._np is not None else None}

    def _computers_note(self) -> Optional[str]:
        """The table's sentence when computers sit with friends (their cards are the host
        page's: the deal's try says which seats' page is the host's), or ``None``."""
        seats = (self.table or {}).get("seats") or []
        computers = any(s.get("role") == "computer" or s.get("away") or s.get("left") or s.get("unfair")
                        for s in seats)
        computers = computers or any(s != page for s, page in self._seat_np.pages.items() if page == 0)
        return computers_note() if computers else None


    # -- messages to the host ---------------------------------------------------------

    def hello(self) -> str:
        """The message that opens (or reopens) the connection, with the seat token if any.
        Before a welcome the game is not known yet; the hello names the game of the table
        this page last sat at."""
        self._resuming = True
        return self._hello()

    def _hello(self) -> str:
        game_id = self.game.id if self.game else None
        return json.dumps({"v": VERSION, "game": game_id, "type": "hello", "token": self.token},
                          separators=(",", ":"))

    def next_deal(self) -> str:
        """The message asking the host to deal the next deal (once this one is over)."""
        if self._view is None:
            raise WrongPhaseError(_("No deal has been played yet."))
        return self._numbered("next-deal", deal=self._view_deal())

    def take_over(self) -> str:
        """The message saying this person plays their seat again (a computer was playing it)."""
        return self._numbered("take-over")

    def name(self, name: Optional[str]) -> str:
        """The message giving this seat the name ``name`` (``None``: none), checked as
        :func:`~.wire.player_name`: raises :class:`~.wire.MalformedMessageError` for one
        that is not."""
        return self._numbered("name", name=wire.optional(wire.player_name)(name, "name"))

    def leave(self) -> str:
        """The message leaving the table: a computer plays this seat for good."""
        message = self._numbered("leave")
        self._left = True
        return message


    # -- the host's messages ----------------------------------------------------------

    def receive(self, message) -> Outcome:
        """Handle one message from the host; returns the replies to send.

        Raises a :class:`~.wire.ProtocolError` (and changes nothing) for a message
        the host should never send, a :class:`~.wire.RemovedDealError` for one of the
        old commit-and-reveal deal. A problem with the fairness of a deal is not an
        exception: it shows in :attr:`verification`.
        """
        data = wire.parse(message, MAX_HOST_MESSAGE, wire.HOST_MESSAGES,
                          self.game.id if self.game else None)
        kind, values = data["type"], wire.fields(data, wire.HOST_MESSAGES[data["type"]])
        if kind == "welcome":
            return self._welcome(data.get("game"), values)
        if kind == "error":
            return self._error(values)
        if self._seq is None:
            raise NotConnectedError(_("The host sent a message before its welcome."))
        if kind == "np-deal":
            return self._np_deal(values)
        if kind == "np":
            return self._np_take(values["deal"], values["tries"], values["message"])
        if kind == "np-abort":
            return self._np_aborted(values["deal"], values["seats"])
        wire.check(len(values["seats"]) == self._game.seats, "the table must list every seat")
        self.table = {**(self.table or {}), "seats": values["seats"]}
        return Outcome([], [])

    def _welcome(self, game_id, values: dict) -> Outcome:
        wire.check(is_game(game_id), f"the welcome names no game this page knows ({wire.quote(game_id)})")
        game = get_game(game_id)
        wire.check(values["token"] is not None, "the welcome lacks the seat token")
        wire.check(0 < values["seat"] < game.seats, "the welcome gives no guest seat")
        wire.check(len(values["seats"]) == game.seats, "the welcome must list every seat")
        length = game.lengths.get(values["length"])
        if length is None or values["target"] != length.target:
            raise MalformedMessageError(f"the welcome names no match length of {game.name}")
        if values["match_id"] != self._match_id or (self.game is not None and self.game.id != game_id):
            self._new_match(values["match_id"])
        if self._clock is not None and self._clock[0] == values["match_id"] and self._clock[1] != values["clock"]:
            self._warn(self._deal_in_play(), say(TABLE, "the host changed the clock in the middle of the match."))
            values = {**values, "clock": self._clock[1]}      # the match's clock stays the one it began with
        self._clock = [values["match_id"], values["clock"]]
        self.game = game
        self.token, self.seat, self._seq = values["token"], values["seat"], values["seq"]
        # The length's name in this page's words, not the host's.
        self.table = {**{key: values[key] for key in ("seats", "length", "target", "clock")},
                      "length_name": length.name}
        return Outcome([], [])

    def _new_match(self, match_id: str) -> None:
        """Another match at the table: its deals are another's. The match id is fixed for a
        match: before the old one is over on this page (Play again draws a new one once it
        is), a new one ends the deal in play, or the next, as aborted by the host (counted
        for good: a new match wipes nothing of it)."""
        key = self._np_key
        if key is not None and self._match_id is not None and self.game is not None and not self._over:
            self._abort(key[0] if key[3] is None else key[0] + 1, None, say(TABLE, "the host started another match"))
        self._match_id, self._view = match_id, None
        if self._over:
            self._host_named, self._refusing = 0, None      # a new match after this one: counted afresh
        self._np, self._np_key, self._np_results, self._np_rec, self._over = None, None, {}, None, False

    def _error(self, values: dict) -> Outcome:
        send = []
        if values["next_seq"] is not None and self._seq is not None:
            self._seq = values["next_seq"]
        if values["code"] == wire.error_code(UnknownTokenError()) and self.token is not None:
            # A table that does not know our token: join it afresh. What this page gave and
            # saw of the match stays: a host cannot wipe it by refusing a token.
            if not self._resuming:
                # Only a page back from away can have lost its seat to another page: on a
                # live connection a refused token is the host's way to ask everything again.
                self._warn(self._deal_in_play(), say(TABLE, "the host refused this page's seat token "
                                                     "while it was connected."))
            self.token = None
            send.append(self._hello())
        code = values["code"]
        if self.game is not None and code == DEAL_OVER:
            # In the game's own word: Batak's "el" is a trick, Pişti's deal a deck.
            return Outcome(send, [], say(TABLE, "This {deal} is over.", deal=lowered(deal_word(self.game))))
        if self.game is not None and code in self.game.refusals:
            # A refusal for a cause of the game's own, in the game's words.
            return Outcome(send, [], self.game.word(self.game.refusals[code]))
        return Outcome(send, [], _(REFUSALS.get(code, _REFUSED)))


    # -- surviving a reload -----------------------------------------------------------

    def save(self) -> str:
        """Everything this page knows, as text for sessionStorage (nothing secret of the host's)."""
        return json.dumps({"v": VERSION, "game": self.game.id if self.game else None,
                           "token": self.token, "seat": self.seat,
                           "table": self.table, "view": self._view,
                           "verification": said.data_of([self.verification])[0],
                           "verification_deal": self.verification_deal, "unfair": self._unfair,
                           "ledger": self.ledger(), "left": self._left}, separators=(",", ":"))

    @classmethod
    def restore(cls, saved: str, rng: Optional[random.Random] = None, ledger: Optional[str] = None) -> Guest:
        """A guest page again as :meth:`save` left it; send :meth:`hello` to resume.
        ``ledger`` (:meth:`ledger`'s text, newer than the save's when the page kept it
        after every call) is as for :class:`Guest`.

        Raises :class:`~.wire.CorruptSaveError` for text that :meth:`save` did not make.
        """
        try:
            data = json.loads(saved)
            wire.check(data["v"] == VERSION, "another version")
            guest = cls(data["token"], rng, None)
            game_id = data["game"]
            guest.game = None if game_id is None else get_game(game_id)
            guest.seat = wire.optional(wire.whole)(data["seat"], "seat")
            guest.table = wire.optional(wire.obj)(data["table"], "table")
            guest._view = wire.optional(wire.obj)(data["view"], "view")
            guest.verification = None if data["verification"] is None else said_again.kept(data["verification"])
            guest.verification_deal = wire.optional(wire.deal_number)(data["verification_deal"], "deal")
            guest._unfair = data["unfair"] is True
            guest._left = data["left"] is True
            # Last: the page's ledger is newer than its save, and its warning stays.
            guest._read_ledger(ledger or data["ledger"])
        except (PisheError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as e:
            raise CorruptSaveError(_("the saved guest state cannot be read ({error})").format(error=e)) from None
        return guest
