"""Computer players for Pişti, written against a seat's view (never the deck itself).

Each bot is asked at every turn of its seat and keeps a :class:`Memory` of what
its views showed it during the deck: the cards played, the pile under its
top, who took what, and which ranks each seat has shown it lacks.

- ``random``: a card uniformly from the hand, from its own generator.
- ``greedy``: exactly SPEC-PISHTI.md's baseline (:func:`greedy_card`).
- ``sampler``: deals the unseen cards 16 times (respecting what each seat has
  shown it lacks), plays each candidate card and then the whole deck out
  greedily through the real engine, and leaves greedy's card only for one
  that beats it by two standard errors of the paired differences.
"""

from __future__ import annotations

import random
from typing import Optional

from ...cards import DECK, Card
from .deal import CAPTURE, JACK, OPENING, PACKET, PISHTI, PLAY, VALUE, Deck

__all__ = ["greedy_card", "Memory", "RandomBot", "GreedyBot", "SamplerBot", "BOTS", "COMPUTER"]

_value = VALUE
#: Shuffles tried per sampled deal before a seat may hold a rank it seemed to lack.
_ATTEMPTS = 20


def greedy_card(hand, top: Optional[Card], count: int, seen) -> Card:
    """The card greedy plays from ``hand`` (in card order) onto a pile of ``count``
    cards topped by ``top``, ``seen[rank]`` copies of each rank having shown face up
    this deck (the cards played and the opening card turned up)."""
    value = _value
    if count:
        rank = top.rank
        best = None
        for c in hand:
            if c.rank == rank and (best is None or value[c] > value[best]):
                best = c
        if best is not None:
            return best
        if count >= 2 or value[top]:
            for c in hand:
                if c.rank == JACK:
                    return c
    best = None
    best_key = None
    for c in hand:
        rank = c.rank
        if rank == JACK:
            continue
        mine = 0
        for d in hand:
            if d.rank == rank:
                mine += 1
        key = (4 - seen[rank] - mine, value[c])
        if best is None or key < best_key:
            best, best_key = c, key
    return hand[0] if best is None else best


class Memory:
    """What a seat has seen of the current deck, from its views' steps.

    Read ``complete`` before trusting it: it is ``False`` when the seat missed
    steps (a bot that took a seat in the middle of a deck). ``pile`` holds the
    pile's cards, ``None`` for a face-down opening card; ``taken`` the cards
    each team took, ``None`` likewise; ``lacks`` by seat the ranks a seat has
    shown it holds none of since its last packet (it did not match a pile top
    it could have taken with a card of the top's rank).
    """

    __slots__ = ("next_step", "complete", "seen", "known", "up", "pile", "taken",
                 "last_capture", "opening_team", "lacks")

    def __init__(self):
        self.reset(complete=False)

    def reset(self, complete: bool = True) -> None:
        """Forget everything: a new deck, seen from its deal."""
        self.next_step = 0
        self.complete = complete
        self.seen = [0] * 14
        self.known = set()
        self.up = None
        self.pile = []
        self.taken = [[], []]
        self.last_capture = None
        self.opening_team = None
        self.lacks = [set(), set(), set(), set()]

    def update(self, view) -> None:
        """Take in the steps of ``view`` not taken in yet."""
        first = view.first_step
        if first == 0:
            self.reset()
        elif first > self.next_step:
            self.complete = False
        steps = view.steps
        skip = self.next_step - first
        for shown in steps[skip if skip > 0 else 0:]:
            self._take(shown)
        self.next_step = first + len(steps)

    def _take(self, shown: dict) -> None:
        kind = shown["kind"]
        if kind == PLAY or kind == CAPTURE or kind == PISHTI:
            card = Card.parse(shown["card"])
            seat = shown["seat"]
            pile = self.pile
            self.seen[card.rank] += 1
            self.known.add(card)
            top = pile[-1] if pile else None
            if top is not None and top.rank != card.rank:
                # It could have taken the pile with a card of the top's rank.
                self.lacks[seat].add(top.rank)
            if kind == PLAY:
                pile.append(card)
                return
            team = seat & 1
            pile.append(card)
            if "opening" in shown:
                opening = [Card.parse(c) for c in shown["opening"]]
                self.known.update(opening)
                pile = [opening.pop(0) if c is None else c for c in pile]
            if self.opening_team is None:
                self.opening_team = team
            self.taken[team] += pile
            self.pile = []
            self.last_capture = team
        elif kind == PACKET:
            self.lacks[shown["seat"]] = set()
        elif kind == OPENING:
            up = self.up = Card.parse(shown["card"])
            self.seen[up.rank] += 1
            self.known.add(up)
            self.pile = [None, None, None, up]


class RandomBot:
    """Plays a card uniformly from its hand, drawn from ``rng``."""

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng

    def choose(self, view) -> Card:
        """A legal card at random."""
        legal = view.legal
        return legal[self.rng.randrange(len(legal))]


class GreedyBot:
    """SPEC-PISHTI.md's ``greedy``: take when it can, jack a pile worth it, else
    shed the rank with the fewest copies still out."""

    def __init__(self, seat: int, rng: Optional[random.Random] = None):
        self.seat = seat
        self.memory = Memory()

    def choose(self, view) -> Card:
        """Greedy's card for ``view``."""
        memory = self.memory
        memory.update(view)
        return greedy_card(view.hand, view.pile_top, view.pile_count, memory.seen)


def playout_points(deck: Deck, team: int) -> int:
    """Play ``deck`` to its end with four greedy seats; ``team``'s points minus the other's."""
    apply, hands, pile, seen = deck.apply, deck.hands, deck.pile, deck.seen
    choose = greedy_card
    while not deck.over:
        apply(choose(hands[deck.turn], pile[-1] if pile else None, len(pile), seen))
    points = deck._points
    return points[team] - points[1 - team]


class SamplerBot:
    """Greedy's card unless sampled deals of the unseen cards show another is better.

    ``samples`` deals of the unseen cards (more late in the deck, up to
    ``max_samples``, while candidates × deals × plays left stay within
    ``budget``) are drawn from ``rng``, each seat's hand holding none of the
    ranks it has shown it lacks; each candidate card
    is played on each of them through the real engine, then the deck is
    played out by four greedy seats. A candidate replaces greedy's card only
    when its mean gain over greedy's, paired deal by deal, exceeds ``margin``
    standard errors.
    """

    def __init__(self, seat: int, rng: random.Random, samples: int = 16, margin: float = 2.0,
                 budget: int = 3200, max_samples: int = 48):
        self.seat = seat
        self.rng = rng
        self.samples = samples
        self.margin = margin
        self.budget = budget
        self.max_samples = max_samples
        self.memory = Memory()

    def choose(self, view) -> Card:
        """The sampler's card for ``view``."""
        memory = self.memory
        memory.update(view)
        hand = view.hand
        greedy = greedy_card(hand, view.pile_top, view.pile_count, memory.seen)
        if len(hand) == 1 or not memory.complete:
            return greedy
        candidates = [greedy]
        kinds = {(greedy.rank, _value[greedy])}
        for c in hand:
            kind = (c.rank, _value[c])
            if kind not in kinds:        # the same rank and value play the same
                kinds.add(kind)
                candidates.append(c)
        if len(candidates) == 1:
            return greedy
        # Late in the deck playouts are short: more deals for the same time.
        left = 48 - (52 - 4 - view.deck_count - sum(view.hand_counts))
        n = max(self.samples, min(self.max_samples, self.budget // (len(candidates) * left)))
        bases = self.sample(view, n)
        if bases is None:
            return greedy
        team = view.seat & 1
        results = []
        for c in candidates:
            row = []
            for base in bases:
                deck = base.copy()
                deck.apply(c)
                row.append(playout_points(deck, team))
            results.append(row)
        n = len(bases)
        # In whole numbers, so that every Python (the page's 32-bit one too) decides alike:
        # a candidate must gain on average (S > 0), by more than margin standard errors:
        # (S/n)² > margin² · var/n, var = (nQ − S²) / (n(n − 1)), S and Q the sums of d and d².
        margin2 = self.margin * self.margin
        best, best_sum = greedy, 0
        reference = results[0]
        for c, row in zip(candidates[1:], results[1:]):
            diffs = [a - b for a, b in zip(row, reference)]
            total = sum(diffs)
            if total <= best_sum:
                continue
            squares = sum(d * d for d in diffs)
            if total * total * (n - 1) > margin2 * (n * squares - total * total):
                best, best_sum = c, total
        return best

    def sample(self, view, samples: int) -> Optional[list]:
        """``samples`` hypothetical decks consistent with what this seat has seen
        (``None`` if its memory does not add up)."""
        memory = self.memory
        seat, dealer = view.seat, view.dealer
        hand = view.hand
        known = set(memory.known)
        known.update(hand)
        known.update(view.sent_under)
        pool = [c for c in DECK if c not in known]
        deck_count = view.deck_count
        # The jacks sent under lie at the bottom of the deck; the dealer's last packet takes them.
        under = list(reversed(view.sent_under)) if deck_count else []
        fixed = [[] for _ in view.hand_counts]
        if not deck_count and dealer != seat:
            fixed[dealer] = [j for j in view.sent_under if j not in memory.known]
        hidden_down = 0 if memory.opening_team == (seat & 1) else 3
        others = [s for s in range(len(view.hand_counts)) if s != seat]
        need = {s: view.hand_counts[s] - len(fixed[s]) for s in others}
        stock_need = deck_count - len(under)
        if sum(need.values()) + stock_need + hidden_down != len(pool):
            return None
        pile_known = memory.pile
        if len(pile_known) != view.pile_count or (pile_known and pile_known[-1] != view.pile_top):
            return None
        order = sorted(others, key=lambda s: -len(memory.lacks[s]))
        rng = self.rng
        played = 52 - 4 - deck_count - sum(view.hand_counts)
        bases = []
        for _ in range(samples):
            for _attempt in range(_ATTEMPTS):
                cards = pool[:]
                rng.shuffle(cards)
                hands = [None] * len(view.hand_counts)
                hands[seat] = list(hand)
                fits = True
                for s in order:
                    lacks = memory.lacks[s]
                    n = need[s]
                    if lacks:
                        mine, rest = [], []
                        for c in cards:
                            if len(mine) < n and c.rank not in lacks:
                                mine.append(c)
                            else:
                                rest.append(c)
                        if len(mine) < n:
                            # Too few fit (seats served earlier took them): deal again,
                            # and at last let it hold what it seemed to lack.
                            fits = False
                            k = n - len(mine)
                            mine += rest[:k]
                            rest = rest[k:]
                        cards = rest
                    else:
                        mine, cards = cards[:n], cards[n:]
                    hands[s] = mine + fixed[s]
                if fits:
                    break
            down = cards[:hidden_down]
            stock = under + cards[hidden_down:]
            fill = iter(down)
            pile = [next(fill) if c is None else c for c in pile_known]
            taken = [[next(fill) if c is None else c for c in t] for t in memory.taken]
            face_down = tuple(down) if hidden_down and memory.opening_team is None else (None, None, None)
            bases.append(Deck.hypothetical(
                dealer=dealer, turn=seat, hands=hands, stock=stock, pile=pile, face_down=face_down,
                up=memory.up, sent_under=view.sent_under, taken=taken, pishti=view.pishti,
                jack_pishti=view.jack_pishti, opening_team=memory.opening_team,
                last_capture=memory.last_capture, played=played, seen=memory.seen))
        return bases


#: Bot factories by name: ``factory(seat, rng) -> bot``.
BOTS = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "sampler": SamplerBot,
}
#: The bot the page's computer plays.
COMPUTER = "sampler"
