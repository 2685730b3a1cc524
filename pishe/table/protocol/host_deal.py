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
from .common import no_cause
from .host_table import NAMED_TWICE, HostTable, _HostDeal
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
        friends not here, or whose page the host's found not fair twice this match, are the
        host page's (its computer plays them). The host's page alone deals it at once."""
        from ..group import group
        from ..nopeek_seat import NoPeekSeat

        here = {s for s, g in self.guests.items() if not (g.away or g.left)}
        pages = {s: s if s == HOST_SEAT or s in here and self.named.get(s, 0) < NAMED_TWICE else HOST_SEAT
                 for s in range(self.game.seats)}
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
            text = wire.write(self.game.id, "np", deal=deal.number, tries=deal.tries, message=message)
            send += [(g.conn, text) for s, g in self.guests.items()
                     if g.conn is not None and s != message["seat"] and s in deal.np.seats]
        return send

    def _np_receive(self, seat: int, number: int, tries: int, message: dict) -> Outcome:
        """A guest page's message of try ``tries`` of the no-peek deal: the host's page takes it
        in as every page does (its signature, its place in the record, a move by its own
        engine), relays it, and sends its own answers. A message the host's page finds not
        fair is relayed only if it is its seat's, signed, in its place (so that every page holds
        the same record), then the page's ``np-unfair``, and the try stops at once
        (:meth:`_np_stop`); a guest's ``np-unfair`` is relayed and stops it the same way. A
        message of a try that has ended goes to :meth:`_np_after_stop`."""
        deal = self._pending or self._played
        if deal is None or deal.np_seat is None or deal.number != number:
            raise WrongPhaseError(_("No deal is waiting for that message."))
        if tries < deal.tries:
            return self._np_after_stop(seat, number, tries, message)
        if message.get("seat") != seat or seat not in deal.np.seats or tries != deal.tries:
            raise wire.MalformedMessageError("A page sends its own seat's messages only, of the try in play.")
        if deal.np.outcome is not None:
            raise WrongPhaseError(_("The deal is over."))
        self._np_check_cap(deal, seat, message)
        self.guests[seat].away = False        # a silent page that answers has its seat back
        self._np_unbacked(seat)
        heard = deal.np.chains.heard(seat)
        answers = deal.np.receive(message)
        # Relayed when the host's page took it into its record (signed, in its place), even if
        # what it says is not fair: every page then holds the record the host's page does.
        taken = deal.np.chains.heard(seat) > heard
        relayed = self._np_relay([message]) if taken else []
        if deal.np.stopped:
            claim = message if taken and message.get("type") == "np-unfair" else None
            return self._np_stop(relayed + self._np_relay(answers), claim)
        return self._np_after(relayed + self._np_relay(answers))

    def _np_stop(self, send: list, claim: Optional[dict] = None) -> Outcome:
        """The try in play was found not fair mid-deal (by the host's page, or by the guest page
        whose ``np-unfair``, ``claim``, was relayed in ``send``): it ends at once for everyone,
        counted, with nobody waited on, and the deal is dealt again as a new try. A guest the
        host's own page named alone is counted (:attr:`named`); so is a guest whose claim does
        not check out (:meth:`_np_claim`)."""
        from ..nopeek import NotFairError

        deal = self._deal
        outcome = deal.np.outcome
        if isinstance(outcome, NotFairError) and not outcome.host and outcome.seat in self.guests:
            self._np_name(outcome.seat)
        self.aborts.append([deal.number, []])
        self._stopped = [deal.number, len(self.aborts), deal]
        self._unchecked = {key: d for key, d in self._unchecked.items() if key[0] == deal.number}
        self._claims = {key: c for key, c in self._claims.items() if key in self._unchecked}
        if claim is not None:
            self._np_claim(deal, claim)
        if not (isinstance(outcome, NotFairError) and not outcome.host and outcome.seat is not None):
            self._unchecked[deal.number, deal.tries] = deal    # its secrets will name who did it
        after = self._np_after(send)
        begun = self._np_begin(deal.number, deal.tries + 1, [])
        return Outcome(after.send + begun.send, after.steps + begun.steps, moves=[*after.moves, *begun.moves])

    def _np_after_stop(self, seat: int, number: int, tries: int, message: dict) -> Outcome:
        """A guest page's message of a try that was stopped (sent before it was told, or its
        secret, revealed once the try stopped): taken into that try's seat of the host's page,
        never relayed; once every secret is in, the seat the check of what was dealt names is
        counted (:meth:`_np_name`), unless the host's page named one already."""
        stopped = self._unchecked.get((number, tries))
        if stopped is None or seat not in stopped.np.seats:
            return Outcome([], [])
        revealed = stopped.np.revealed(seat)
        stopped.np.receive(message)
        send = []
        if not revealed and stopped.np.revealed(seat):
            # Every page of the try gets every secret of it, and checks the claim for itself.
            text = wire.write(self.game.id, "np", deal=number, tries=tries, message=message)
            send = [(g.conn, text) for s, g in self.guests.items()
                    if g.conn is not None and s != seat and s in stopped.np.seats]
        culprit = stopped.np.culprit
        claimant = self._claims.get((number, tries))
        if culprit is not None or stopped.np.cleared:
            del self._unchecked[number, tries]
            self._claims.pop((number, tries), None)
        if culprit is not None and not culprit.host and culprit.seat in self.guests:
            self._np_name(culprit.seat)
        elif stopped.np.cleared and claimant is not None:
            self._np_name(claimant)       # every secret in, nothing wrong: the claim had no cause
            self._refuted = [number, no_cause(claimant)]
        return Outcome(send, [])

    def _np_claim(self, deal: _HostDeal, claim: dict) -> None:
        """Check guest ``claim["seat"]``'s ``np-unfair``, which stopped ``deal``'s try. A claim
        naming the host (alone, or as "the host or" a seat) is one the host's page knows does not
        hold: it checks every message before it relays it, and relays each as it came, to every
        page in one order; its sender is named (:meth:`_np_name`). Any other claim is checked
        once every page's secret of the try is in (:meth:`_np_after_stop`): if the check of what
        was dealt and played finds nothing wrong, its sender is named."""
        if claim["host"]:
            self._np_name(claim["seat"])
            self._refuted = [deal.number, no_cause(claim["seat"])]
        else:
            self._claims[deal.number, deal.tries] = claim["seat"]

    def _np_unbacked(self, seat: int) -> None:
        """Guest ``seat`` sends a message of the try in play while its claim that stopped an
        earlier try still lacks its secret of that try (an honest page sends it with its claim):
        a claim it does not let be checked does not hold; its sender is named."""
        for key, claimant in list(self._claims.items()):
            stopped = self._unchecked.get(key)
            if claimant == seat and (stopped is None or not stopped.np.revealed(seat)):
                del self._claims[key]
                self._np_name(seat)

    def _np_name(self, seat: int) -> None:
        """The host's page found guest ``seat``'s page not fair (by its own check): counted; at
        :data:`~.host_table.NAMED_TWICE` a computer plays the seat from the next try on."""
        self.named[seat] = self.named.get(seat, 0) + 1

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
