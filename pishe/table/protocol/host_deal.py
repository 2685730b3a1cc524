"""The host page's driver of the no-peek deal (docs/PROTOCOL.md, "No-peek dealing"): it
begins each try once every friend at the table has a page, relays every page's message to
the others and keeps the deal's log, takes its own seat's part, and brings the host's match
to the cards opened to it."""

from __future__ import annotations

from typing import Optional

from ...errors import NotYourTurnError, PisheError
from ..match import Match
from ..lang import _
from . import wire
from .host_table import HostTable, _HostDeal
from .nopeek_deal import dealer_of, np_match_id
from .wire import HOST_SEAT, CorruptSaveError, Outcome, WrongPhaseError

__all__ = ["DealDriver"]


class DealDriver(HostTable):
    """The host's table with its no-peek deal's driver and relay (the ``_np_*`` methods)."""

    def _np_waiting_for(self, pending: _HostDeal, here: list) -> list:
        """While a no-peek deal is dealt: the friends whose page has not come, then those whose
        commitment has not, then the one whose shuffle or lock is due."""
        np = pending.np_seat
        if np is None:
            return [s for s in here if self.guests[s].conn is None]
        record = np.dealing.record
        if len(record.commitments) < len(np.seats):
            return [s for s in np.seats if s != HOST_SEAT and s not in record.commitments]
        for done in (record.shuffled, record.locked):
            due = next((s for s in np.seats if s not in done), None)
            if due is not None:
                return [due] if due != HOST_SEAT else []
        return []

    def _np_ready(self) -> Outcome:
        """Move a no-peek deal being dealt on: it begins once every friend at the table has a
        page connected; a page gone before the deck was dealt leaves that try, and the deal
        begins again without it (its seat is then the host page's computer's)."""
        pending = self._pending
        if pending is None:
            return Outcome([], [])
        here = [s for s, g in self.guests.items() if not (g.away or g.left)]
        if pending.np_seat is not None:
            gone = [s for s in pending.np.seats if s != HOST_SEAT and s not in here]
            return self._np_begin(pending.number, pending.tries + 1, gone) if gone else Outcome([], [])
        if any(self.guests[s].conn is None for s in here):
            return Outcome([], [])
        return self._np_begin(pending.number, pending.tries, pending.aborted)

    def _np_begin(self, number: int, tries: int, aborted: list) -> Outcome:
        """Try ``tries`` of deal ``number``: every page at the table deals; the seats of
        friends not here are the host page's (its computer plays them). The host's page alone
        deals it at once."""
        from ..group import group
        from ..nopeek_seat import NoPeekSeat

        here = {s for s, g in self.guests.items() if not (g.away or g.left)}
        pages = {s: s if s == HOST_SEAT or s in here else HOST_SEAT for s in range(self.game.seats)}
        deal = self._pending = _HostDeal(number, tries=tries, aborted=list(aborted))
        deal.np_seat = NoPeekSeat(group(), self.game, np_match_id(self.match_id, tries), number, HOST_SEAT,
                             dealer_of(self.game, number), pages, rng=self.rng)
        start = self._np_deal_message(deal)
        send = [(self.guests[s].conn, start) for s in deal.np.seats
                if s != HOST_SEAT and self.guests[s].conn is not None]
        return self._np_after(send + self._np_relay(deal.np.start()))

    def _np_deal_message(self, deal: _HostDeal) -> str:
        return wire.write(self.game.id, "np-deal", log=deal.log, **self._np_try_of(deal))

    def _np_try_of(self, deal: _HostDeal) -> dict:
        return {"deal": deal.number, "tries": deal.tries, "pages": [deal.np.pages[s] for s in range(self.game.seats)]}

    def _np_relay(self, messages: list) -> list:
        """Each page's message to every other page of the deal (masked keys too: only their
        receiver can read them), kept in the deal's log; this page's answers are taken in by
        the caller."""
        deal = self._deal
        send = []
        for message in messages:
            deal.log.append(message)
            text = wire.write(self.game.id, "np", deal=deal.number, message=message)
            send += [(g.conn, text) for s, g in self.guests.items()
                     if g.conn is not None and s != message["seat"] and s in deal.np.seats]
        return send

    def _np_receive(self, seat: int, number: int, message: dict) -> Outcome:
        """A guest page's message of the no-peek deal: the host's page takes it in as every page
        does (its own engine checks a move), relays it, and sends its own answers."""
        deal = self._pending or self._played
        if deal is None or deal.np_seat is None or deal.number != number:
            raise WrongPhaseError(_("No deal is waiting for that message."))
        if message.get("seat") != seat or seat not in deal.np.seats:
            raise wire.MalformedMessageError("A page sends its own seat's messages only.")
        if deal.np.outcome is not None:
            raise WrongPhaseError(_("The deal is over."))
        self._np_check_cap(deal, seat, message)
        self.guests[seat].away = False        # a silent page that answers has its seat back
        send = self._np_relay([message])
        send += self._np_relay(deal.np.receive(message))
        return self._np_after(send)

    def _np_check_cap(self, deal: _HostDeal, seat: int, message: dict) -> None:
        """Raise :class:`~.wire.LogFullError` when ``message`` would take page ``seat`` past its
        cap of the try's log, from the game's size: each page's key for each of the 52
        positions, once for all or once for each other page, and with the moves (twice that
        many shares), its commitment, two rounds and secret, one message per move and one per
        share at most."""
        from ..nopeek import POSITIONS

        shares = 2 * POSITIONS * len(deal.np.seats)
        sent = [m for m in deal.log if m.get("seat") == seat] + [message]
        count = sum(len(m["shares"]) for m in sent if isinstance(m.get("shares"), list))
        if count > shares or len(sent) > 4 + shares + len(deal.actions) + 1:
            raise wire.LogFullError(_("Your page sent more of this deal's messages than the deal has."))

    def _np_move(self, seat: int, text, mark: Optional[str]) -> Outcome:
        """A move the host's page makes (its own seat's, or a computer's at a seat it sees for)."""
        deal = self._in_play
        if self._match.deal.turn != seat or not self._np_hosts(seat) and seat != HOST_SEAT:
            raise NotYourTurnError(_("It is not your turn."))
        send = self._np_relay(deal.np.act(self.game.action_text(self.game.parse_action(text)), mark))
        if mark is None:
            self.seating.played(seat)
        return self._np_after(send)

    def _np_after(self, send: list) -> Outcome:
        """Bring the host's match to what its page knows now: the deck dealt, the moves made
        (with their marks), the cards opened; the host's words for the steps it was newly
        shown, and the cards they moved."""
        deal = self._deal
        np = deal.np
        if self._pending is not None and np.dealt and np.outcome is None:
            deck = np.partial.deck()
            if self.match is None:
                # A host page restored between deals knows the earlier deals by their points.
                self.match, self._earlier = Match.resume(self.game, self.length, self._earlier, deck), []
                if self.match.deal_number != deal.number:
                    raise CorruptSaveError("the deal numbers disagree")
            elif self.match.deal_number != deal.number:
                self._match.next_deal(deck=deck)
            self._played, self._pending, self._bots = deal, None, {}
            self._np_shown = self._np_shown_at = None
        if self._played is deal:
            try:
                self._match.deal = np.partial.state
                at = (len(np.partial.actions), len(np.partial.known))
                if at != self._np_shown_at and np.partial.settled(HOST_SEAT):
                    self._np_shown = self.game.view(self.match, HOST_SEAT, self.names(HOST_SEAT)).to_json()
                    self._np_shown_at = at
            except PisheError:
                pass                # a move its cards make impossible: the deal is not fair (np.outcome)
            deal.actions = [list(a) for a in np.partial.actions]
            deal.steps = np.shown
        words = np.words(deal.told)
        moves = [move for group in np.shown[deal.told:] for shown in group
                 for move in self.game.motion(shown, self.seat)]
        deal.told = len(np.shown)
        return Outcome(send, words, moves=moves)

    def _np_lost(self, seat: int, conn) -> Outcome:
        """Friend ``seat`` comes back on a new page (``conn``), without the secret its old page
        dealt the try in play with: that try is aborted by it at once, named, and dealt again
        with the new page (which is sent the new try after its welcome)."""
        deal = self._pending or self._played
        np = deal.np_seat if deal is not None else None
        if (deal is None or np is None or np.outcome is not None or seat not in np.seats
                or not any(m.get("seat") == seat for m in deal.log)):
            return Outcome([], [])
        if deal is self._played:
            begun = self._np_abort([seat])
        else:
            begun = self._np_begin(deal.number, deal.tries + 1, [seat])
        return Outcome([(c, t) for c, t in begun.send if c != conn], begun.steps)

    def _np_abort(self, gone: list) -> Outcome:
        """Pages ``gone`` for good mid-deal took their keys: the deal ends aborted by them, named,
        on every page, and is dealt again with the host page's computer in their seats."""
        deal = self._in_play
        deal.np.abort(gone)
        message = wire.write(self.game.id, "np-abort", deal=deal.number, seats=sorted(gone))
        send = [(g.conn, message) for s, g in self.guests.items()
                if g.conn is not None and s in deal.np.seats and s not in gone]
        self.aborts.append([deal.number, sorted(gone)])
        begun = self._np_begin(deal.number, deal.tries + 1, sorted(gone))
        return Outcome(send + begun.send, begun.steps)
