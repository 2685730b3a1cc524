"""A guest page's own seat of the no-peek deal (docs/PROTOCOL.md, "No-peek dealing"): it
deals its part of each try, takes the other pages' messages in, makes its moves with their
keys, brings its own view to what it knows, and checks the deal at its end."""

from __future__ import annotations

from typing import Optional

from ...errors import PisheError
from ..lang import TABLE, _, language
from ..said import lowered, named_reason, of_error, say
from . import wire
from .common import TIMEOUT, friend_names, no_cause, timeout_action
from .guest_table import GuestTable
from .nopeek_deal import dealer_of, np_match_id, rebuild
from .record import Record, RecordRewrittenError
from .wire import VERIFIED, Outcome, WrongPhaseError

__all__ = ["GuestDeal"]


class GuestDeal(GuestTable):
    """A guest page's table with its seat of the deal in play: its moves, the others' in."""

    def move(self, action: str) -> Outcome:
        """This person's move (its text form), with its keys, made and checked on this page's
        own engine: raises the game's refusal, or :class:`~.wire.WrongPhaseError` before the
        cards are dealt, changing nothing."""
        if self._np is None or not self._np.dealt:
            raise WrongPhaseError(_("The cards are not dealt yet."))
        return self._np_out(self._seat_np.act(self._game.action_text(self._game.parse_action(action))))

    def timeout(self) -> Outcome:
        """The clock of the person to move ran out on this page. Only this page knows its
        seat's cards, so when that person is this page's it makes the table's move for them:
        the first legal move of its own view, as the host's page does for its own seat, marked
        so that every page words it as the table's move. Otherwise nothing (the host's page times its own seat out)."""
        action = timeout_action(self._view) if self._view is not None and self._view.get("turn") == self.seat else None
        if self._np is None or action is None or not self._np.dealt:
            return Outcome([], [])
        return self._np_out(self._np.act(action, TIMEOUT))

    def reveal_overdue(self) -> Outcome:
        """The hold ran out while this page waited, at the deal's end, for secrets that never
        came (``status()["awaiting_reveal"]``): the deal ends aborted, on the last deal of a
        match too, naming the host ("the host did not reveal its part") or the seats whose
        secret is missing. Nothing changes when no secret is awaited."""
        from ..nopeek import DealAbortedError

        np, key = self._np, self._np_key
        missing = np.unrevealed() if np is not None else []
        if np is None or key is None or key[3] or not missing:
            return Outcome([], [])
        seats = [] if 0 in missing else missing
        np.outcome = DealAbortedError(seats)
        key[3] = True
        self._abort(key[0], seats or None, say(TABLE, "the host did not reveal its part"))
        return Outcome([], [])

    def _np_deal(self, values: dict) -> Outcome:
        """A no-peek deal (or a new try of it) begins, or comes again with its log to a page
        coming back: this page deals its part, or rebuilds its seat from its kept secret."""
        from ..group import group
        from ..nopeek_seat import NoPeekSeat

        self._resuming = False
        if self._refusing is not None:
            return Outcome([], [])         # this page takes no new try from this host (_host_not_fair)
        game, seat, number, tries = self._game, self._seat, values["deal"], values["tries"]
        pages = values["pages"]
        wire.check(len(pages) == game.seats and all(type(p) is int for p in pages)
                   and all(p in (s, 0) for s, p in enumerate(pages)) and pages[seat] == seat,
                   "each seat's page must be its own or the host's, this seat this page's")
        log = [wire.obj(m, "message") for m in values["log"]]
        key = self._np_key
        if key is None and not self._np_results and number > 1 and not self._seat_flag("away"):
            # A page new to the match takes deal 1, or a later one only where a computer played
            # its seat when it came (the match went on without it): the dealer follows from the
            # number, and a host may not pick another by numbering a first deal 2.
            self._record(number, say(TABLE, "The host dealt this page {deal} {number} of a match it never played "
                                            "in: this page takes {deal} 1 only, unless a computer was playing its "
                                            "seat. Nothing was dealt.", deal=lowered(self._deal_word()),
                                     number=number))
            return Outcome([], [])
        same = key is not None and key[:2] == [number, tries]
        if key is not None and same and key[3]:
            return Outcome([], [])             # checked already: nothing of it is left to do
        if key is not None and not same and (number < key[0] or number == key[0] and tries < key[1]
                                             or number in self._np_results):
            # Deals go 1, 2, 3… and tries only up: a deal that ended is never dealt again.
            self._warn(number, say(TABLE, "the host dealt again a {deal} that had ended.",
                                   deal=lowered(self._deal_word())))
            self._host_not_fair(number)
            return Outcome([], [])
        if self._np is not None and not same and self._np.outcome is None:
            self._np.abort([])             # begun again before its end: the host's doing
            self._np_end()
        if self._np is not None and not same and self._np.stopped and key is not None:
            self._np_stopped = (key[:2], self._np)     # its secrets still to come: the claim checked
        if not same and any(m.get("seat") == seat for m in log):
            raise WrongPhaseError(_("This page lost its keys to deal {number}.").format(number=number))
        record = self._np_rec if same and self._np_rec is not None else Record(seat)
        try:
            others, missing = record.extends(log)
        except RecordRewrittenError as e:
            return self._np_host_unfair(number, same, e)
        said = []
        np = self._np if same else None
        if np is None:
            np = self._np = NoPeekSeat(group(), game, np_match_id(self._match_id or "", tries), number, seat,
                                       dealer_of(game, number), dict(enumerate(pages)),
                                       secret=key[2] if key is not None and same else None, rng=self.rng)
            self._np_key, self._np_rec, self._np_told = [number, tries, np.dealing.reveal(), None], record, 0
            said = rebuild(np, others[:record.count], record.mine)
        for message in others[record.count:]:
            record.took(message)
            said += np.receive(message)
        return self._np_out(said, again=missing)

    def _np_host_unfair(self, number: int, same: bool, error: RecordRewrittenError) -> Outcome:
        """The host sent a log that does not extend this page's record: the deal ends at once,
        not fair, naming the host (a new try is refused: this page keeps its record)."""
        from ..nopeek import NotFairError

        unfair = NotFairError(of_error(error), host=True)
        if same and self._np is not None:
            return self._np_out(self._np.stop(unfair))        # the deal ends for everyone
        if same and self._np_key is not None:
            self._np_key[3] = True
        self._np_record(number, unfair)
        return Outcome([], [])

    def _np_aborted(self, number: int, seats: list) -> Outcome:
        """Pages ``seats`` left the try this page holds of deal ``number`` with their keys: it ends
        aborted by them (said once). This page's own seat is named only when it comes back
        from away (its hold ran out: the host tells it as it told the others); on a live
        connection an abort in its name is the host's doing. A page restored since holds the
        try by its key alone."""
        from ..nopeek import DealAbortedError

        key = self._np_key
        wire.check(all(s < self._game.seats for s in seats), "an abort must name seats of the table")
        if key is None or number != key[0] or key[3]:
            return Outcome([], [])
        seats = [s for s in seats if s != self.seat or self._resuming]
        if self._np is not None:
            self._np.abort(seats)
            return self._np_out([])
        key[3] = True
        self._np_record(number, DealAbortedError(seats))
        return Outcome([], [])

    def _np_take(self, number: int, tries: int, message: dict) -> Outcome:
        self._resuming = False
        if self._np_stopped is not None and self._np_stopped[0] == [number, tries]:
            return self._np_check_claim(message)
        if self._np is None or self._np_rec is None or [number, tries] != self._key[:2]:
            return Outcome([], [])             # of a try this page is not in: nothing to do
        self._np_rec.took(message)
        return self._np_out(self._np.receive(message))

    def _np_check_claim(self, message: dict) -> Outcome:
        """A secret of the try that another page's ``np-unfair`` stopped (the host relays them):
        with every one in, this page checks what was dealt and played as the host's page does.
        A seat that broke the deal is named; a claim that did not name the host and that the
        deal gives no cause for names its sender (a claim naming the host this page cannot
        judge: it does not see what the host showed that page). Said once; nothing is sent."""
        key, np = self._np_stopped or ([0, 0], None)
        if np is None:
            return Outcome([], [])
        np.receive(message)
        if np.culprit is None and not np.cleared:
            return Outcome([], [])
        self._np_stopped = None
        claim = np.claim
        if np.culprit is not None:
            self._warn(key[0], named_reason(np.culprit, self._seat_name))
        elif claim is not None and not claim["host"] and claim["seat"] != self.seat:
            self._warn(key[0], named_reason(no_cause(claim["seat"]), self._seat_name))
        return Outcome([], [])

    def _np_out(self, messages: list, again: Optional[list] = None) -> Outcome:
        """Send this page's messages (signed by its seat, key shares already in parts that fit a
        guest's message), each kept in its record, after ``again``, those it sent that the host
        lost on the way; and bring its own view, words and check to what it knows now."""
        number, tries = self._key[:2]
        send = [self._numbered("np", deal=number, tries=tries, message=part) for part in again or []]
        for message in messages:
            if self._np_rec is not None:
                self._np_rec.sent(message)
            send.append(self._numbered("np", deal=number, tries=tries, message=message))
        words, moves = self._np_end()
        return Outcome(send, words, moves=moves)

    def _match(self, state):
        """The match as this page knows it, with ``state`` the deal in play."""
        from ..match import Match

        teams, number = len(self._game.teams), self._key[0]
        results = [self._np_results.get(n, [0] * teams) for n in range(1, number)]
        match = Match.resume(self._game, (self.table or {})["length"], results, self._seat_np.partial.deck())
        match.deal = state
        return match

    def _dealt_state(self):
        """The deal in play in this page's engine, or ``None`` while it is not yet dealt."""
        np = self._seat_np
        try:
            return np.partial.state if np.dealt else None
        except PisheError:
            return None

    def _made_view(self, state) -> Optional[tuple]:
        """This seat's view of ``state`` made now, in the page's language, and that language;
        ``None`` while a card this seat may see is still opening (its engine holds a stand-in)."""
        if state is None or not self._seat_np.partial.settled(self._seat):
            return None
        return self._game.view(self._match(state), self._seat, friend_names(self._game, self._seat)).to_json(), \
            language()

    def _reworded(self) -> None:
        """The view made again when the page's language changed since it was made (a player
        may change it mid-deal); kept as it was while a card it may see is opening."""
        if self._view is None or self._view_language == language() or self._np is None or self._np_key is None:
            return
        made = self._made_view(self._dealt_state())
        if made is not None:
            self._view, self._view_language = made

    def _np_end(self) -> tuple[list, list]:
        """This page's view from its own engine, the words for the steps it was newly shown and
        the cards they moved, and its check once the deal is over."""
        np, key = self._seat_np, self._key
        number = key[0]
        state = self._dealt_state()
        if state is not None:
            made = self._made_view(state)
            if made is not None:
                self._view, self._view_language = made
            elif self._view is not None:
                # A card it may see is still opening (its engine holds a stand-in there: never
                # shown): the view stays as it was, with no move until the card is known.
                self._view = {**self._view, "legal": []}
            if state.over and np.outcome == VERIFIED:
                self._np_results[number] = list(state.team_points())
                self._over = self._match(state).over
        words, moves = self._words(self._np_told), self._motions(np.shown[self._np_told:])
        self._np_told = len(np.shown)
        if np.outcome is not None and key[3] is None:
            key[3] = True              # checked: said once
            self._np_record(number, np.outcome)
        return words, moves

    def _np_record(self, number: int, outcome) -> None:
        """Say how the try of deal ``number`` ended: verified; aborted (counted); stopped because
        another page found it not fair (counted: it is dealt again; that page's word is taken
        on the end, never on which seat was at fault; a page that named the host alone is said
        to have, for the match); or not fair by this page's own check, naming
        the seat, the host, or "the host or" the seat when this page cannot tell which."""
        from ..nopeek import DealAbortedError
        from ..nopeek_seat import DealStoppedError

        if outcome == VERIFIED:
            self._record(number, VERIFIED)
        elif isinstance(outcome, DealAbortedError):
            self._abort(number, list(outcome.seats) or None, say(TABLE, "the host began it again"))
        elif isinstance(outcome, DealStoppedError) and outcome.host:
            # The host named by another page stays named here too, as that page's finding.
            self._warn(number, say(TABLE, "{seat}'s page found the host changed what it relays",
                                   seat=self._seat_name(outcome.by)))
        elif isinstance(outcome, DealStoppedError):
            self._abort(number, None, say(TABLE, "{seat}'s page found it not fair", seat=self._seat_name(outcome.by)))
        else:
            self._warn(number, named_reason(outcome, self._seat_name))
            if getattr(outcome, "host", False):
                self._host_not_fair(number)
