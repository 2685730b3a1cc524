"""Who plays each seat now, and whose clock runs: one policy for the computer table
(:mod:`pishe.web`) and a friend's table's host (:mod:`pishe.table.protocol.host`).

A seat is a person's or a computer's. A person whose clock runs out gets the
computer's move for that turn; after :data:`TIMEOUTS_TO_AUTOPILOT` in a row a
computer keeps playing the seat (autopilot) until the person takes over or plays
a move themselves. A person who is not at the table (a guest away or gone, as the
host tells it) has the seat played by a computer too.
"""

from __future__ import annotations

from typing import Iterable, Optional

__all__ = ["Seating", "TIMEOUTS_TO_AUTOPILOT"]

#: Timeouts in a row after which a computer plays a person's seat until they take over.
TIMEOUTS_TO_AUTOPILOT = 3


class Seating:
    """The seats of ``people`` and their timeouts at a table with ``clock`` seconds a move
    (``None``: no clock); every other seat is a computer's."""

    def __init__(self, people: Iterable[int], clock: Optional[int] = None):
        self.people = frozenset(people)
        self.clock = clock
        self._timeouts: dict[int, int] = {}      # a person's seat -> its timeouts in a row
        self._autopilot: set = set()             # people's seats a computer plays until they take over

    def by_computer(self, seat: int, absent: bool = False) -> bool:
        """Whether a computer plays ``seat`` now: nobody sits there, its person is on
        autopilot, or (``absent``) its person is not at the table."""
        return seat not in self.people or seat in self._autopilot or absent

    def clock_runs(self, seat: int, absent: bool = False) -> bool:
        """Whether ``seat``'s clock runs on its turn: a table with a clock and a person playing it."""
        return self.clock is not None and not self.by_computer(seat, absent)

    def autopilot(self, seat: int) -> bool:
        """Whether a computer plays ``seat`` after its person's timeouts."""
        return seat in self._autopilot

    def timeouts(self, seat: int) -> int:
        """The timeouts in a row of ``seat``'s person."""
        return self._timeouts.get(seat, 0)

    def timed_out(self, seat: int) -> None:
        """``seat``'s clock ran out (the computer's move was played for it)."""
        self._timeouts[seat] = self.timeouts(seat) + 1
        if self._timeouts[seat] >= TIMEOUTS_TO_AUTOPILOT:
            self._autopilot.add(seat)

    def take_over(self, seat: int) -> None:
        """The person at ``seat`` plays it again."""
        self._autopilot.discard(seat)
        self._timeouts[seat] = 0

    def resume(self, seat: int, timeouts: int, autopilot: bool) -> None:
        """``seat``'s timeouts in a row and autopilot as a saved table had them."""
        self._timeouts[seat] = timeouts
        if autopilot:
            self._autopilot.add(seat)

    def played(self, seat: int) -> None:
        """The person at ``seat`` made a move themselves: that takes the seat back."""
        if seat in self._timeouts:
            self.take_over(seat)
