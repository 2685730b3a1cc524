"""What a seat has seen of the current deal, taken in from its views: the part every game's
memory shares.

A view (asked at every turn) holds the steps its seat was shown since the seat's last action,
from ``view.first_step`` on. :class:`StepMemory` takes in each step once: a view from step 0
starts a new deal, a view that begins past the steps already taken in leaves the memory
incomplete (a bot that took a seat mid-deal), and steps already taken in are skipped. A game's
memory says what one step teaches (:meth:`StepMemory.see`) and what a new deal forgets
(:meth:`StepMemory.reset`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["StepMemory"]


class StepMemory:
    """A seat's memory of the steps of the current deal. ``next_step``: the number of the
    first step not yet taken in; ``complete``: ``False`` when the seat missed steps."""

    __slots__ = ("next_step", "complete")
    next_step: int
    complete: bool

    def reset(self, complete: bool = True) -> None:
        """Forget the deal: a new one, seen from its deal (a game's memory forgets its own
        fields too, then calls this)."""
        self.next_step = 0
        self.complete = complete

    def update(self, view: Any) -> None:
        """Take in the steps of ``view`` not yet seen."""
        first = view.first_step
        if first == 0:
            self.reset()
        elif first > self.next_step:
            self.complete = False
        for shown in view.steps[max(0, self.next_step - first):]:
            self.see(shown)
        self.next_step = first + len(view.steps)

    def see(self, shown: dict) -> None:
        """Take in one step, as the seat was shown it."""
        raise NotImplementedError
