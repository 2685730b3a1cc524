"""The sampler, Pişti's strongest computer: greedy's card unless sampled deals of the
unseen cards show a better one.

Written for any number of seats: the seats are the view's ``hand_counts``.
"""

from __future__ import annotations

import random
from typing import Optional

from ...cards import DECK, Card
from .deal import VALUE, Deck, sort_cards
from .greedy import GreedyBot, greedy_card

__all__ = ["SamplerBot", "playout_points", "holds_despite_passing", "misplays"]

_value = VALUE
#: What a seat's captures taken and passed up are worth before it has shown any: as if it had
#: taken this many with the top's rank and passed up ``_PRIOR_SKIPS`` of them.
_PRIOR_TAKES = 10
_PRIOR_SKIPS = 0.5
#: Shuffles tried per sampled deal before a seat may hold a rank it seemed to lack.
_ATTEMPTS = 20
#: How far a seat's plays are believed to be greedy's before it has shown any: as if it had
#: played greedy's card this many times out of ``_PRIOR_PLAYS``.
_PRIOR_AGREE = 9
_PRIOR_PLAYS = 10


def playout_points(deck: Deck, card, team: int) -> int:
    """Play ``card`` on ``deck`` (which it changes), then the deck to its end with greedy in
    every seat; ``team``'s points minus the other's."""
    points = deck.play_out(card, greedy_card)
    return points[team] - points[1 - team]


def holds_despite_passing(skips: int, takes: int, passes: int, unseen: int, copies: int,
                          hand: int) -> float:
    """The chance that a seat holds a rank it did not take the pile with ``passes`` times.

    Bayes' rule: before the passes, the chance that ``hand`` cards drawn from ``unseen``
    cards, ``copies`` of them of the rank, hold one; a seat holding it passes each time
    with its rate of passing up a capture, estimated from the ``skips`` it showed among
    ``skips + takes`` captures it could make (with a prior worth ``_PRIOR_TAKES``
    captures); a seat without it always passes.
    """
    if copies <= 0 or hand <= 0:
        return 0.0
    none = 1.0
    for i in range(min(hand, unseen)):
        none *= max(unseen - copies - i, 0) / (unseen - i)
    rate = (skips + _PRIOR_SKIPS) / (skips + takes + _PRIOR_TAKES)
    held = (1.0 - none) * rate ** passes
    return held / (held + none)


def misplays(hand, plays) -> int:
    """How many of a seat's ``plays`` since its packet (:attr:`.memory.Memory.since`) were not
    greedy's card, had it held ``hand`` after them; a capture passed up is not counted
    (:func:`holds_despite_passing` weighs those)."""
    missed = 0
    held = list(hand)
    for card, top, count, seen in reversed(plays):
        held = sort_cards(held + [card])
        if len(held) > 1 and greedy_card(held, top, count, seen) != card:
            if top is None or card.rank == top.rank or all(c.rank != top.rank for c in held):
                missed += 1
    return missed


class SamplerBot(GreedyBot):
    """Greedy's card unless sampled deals of the unseen cards show another is better.

    ``samples`` deals of the unseen cards (more late in the deck, up to
    ``max_samples``, while candidates × deals × plays left stay within
    ``budget``) are drawn from ``rng``. What a seat did not take the pile with
    is inferred, not assumed: each sample lets a seat hold a rank it passed on
    with the chance :func:`holds_despite_passing` gives, so a seat that never
    passes up a capture is dealt none, and one that does is dealt it as often
    as it would have passed. A seat's other plays since its packet are weighed
    too: a guess at its hand with which greedy would have played otherwise
    (:func:`misplays`) is dealt again, up to ``tries`` guesses a sample and
    ``attempts`` in a decision, and kept with chance *r* to the power of its
    misplays, *r* the odds against the seat playing greedy's card as shown over
    the packets it has played out (:attr:`.memory.Memory.agree`, ``differ``):
    greedy seats are dealt hands that fit their play, others as far as they
    play like greedy. Each candidate card is played on each sample with the
    engine's play-out loop (:meth:`.deal.Deck.play_out`) by greedy seats. A
    candidate replaces greedy's card only when its mean gain over greedy's,
    paired deal by deal, exceeds ``margin`` standard errors.

    With ``certain`` every pass is believed (the seat holds none of the rank),
    as this bot once did: a comparison for tournaments.
    """

    def __init__(self, seat: int, rng: random.Random, samples: int = 16, margin: float = 2.0,
                 budget: int = 3200, max_samples: int = 48, certain: bool = False, tries: int = 8,
                 attempts: int = 160):
        super().__init__(seat)
        self.tries = tries
        self.attempts = attempts
        self.rng = rng
        self.samples = samples
        self.margin = margin
        self.budget = budget
        self.max_samples = max_samples
        self.certain = certain

    def choose(self, view) -> Card:
        """The sampler's card for ``view``."""
        greedy = self.greedy(view)
        hand = view.hand
        if len(hand) == 1 or not self.memory.complete:
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
                row.append(playout_points(base.copy(), c, team))
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

    def doubts(self, view, pool: list, need: dict) -> dict:
        """By seat, each rank it passed on with the chance it holds one all the same."""
        memory = self.memory
        if self.certain:
            return {s: dict.fromkeys(memory.lacks[s], 0.0) for s in need}
        unseen = len(pool)
        copies = [0] * 14
        for c in pool:
            copies[c.rank] += 1
        return {s: {rank: holds_despite_passing(memory.skips[s], memory.takes[s], passes, unseen,
                                                copies[rank], need[s])
                    for rank, passes in memory.lacks[s].items()}
                for s in need}

    def sample(self, view, samples: int) -> Optional[list]:
        """``samples`` hypothetical decks consistent with what this seat has seen
        (``None`` if its memory does not add up)."""
        memory = self.memory
        seat, dealer = view.seat, view.dealer
        seats = len(view.hand_counts)
        hand = view.hand
        known = set(memory.known)
        known.update(hand)
        known.update(view.sent_under)
        pool = [c for c in DECK if c not in known]
        deck_count = view.deck_count
        # The jacks sent under lie at the bottom of the deck; the dealer's last packet takes them.
        under = list(reversed(view.sent_under)) if deck_count else []
        fixed: list[list[Card]] = [[] for _ in range(seats)]
        if not deck_count and dealer != seat:
            fixed[dealer] = [j for j in view.sent_under if j not in memory.known]
        hidden_down = 0 if memory.opening_team == (seat & 1) else 3
        others = [s for s in range(seats) if s != seat]
        need = {s: view.hand_counts[s] - len(fixed[s]) for s in others}
        stock_need = deck_count - len(under)
        if sum(need.values()) + stock_need + hidden_down != len(pool):
            return None
        pile_known = memory.pile
        if len(pile_known) != view.pile_count or (pile_known and pile_known[-1] != view.pile_top):
            return None
        doubts = self.doubts(view, pool, need)
        rng = self.rng
        random_ = rng.random
        played = 52 - 4 - deck_count - sum(view.hand_counts)
        bases = []
        tries = max(1, min(self.tries, self.attempts // samples))
        trust = [0.0] * seats
        for s in others:
            agree = memory.agree[s] + _PRIOR_AGREE
            plays = memory.agree[s] + memory.differ[s] + _PRIOR_PLAYS
            trust[s] = (plays - agree) / agree
        since = memory.since
        for _ in range(samples):
            best = None
            for _try in range(tries):
                hands, cards = self._deal_hidden(seat, hand, others, need, fixed, pool, doubts)
                if tries == 1:
                    break
                # Products, not powers: every Python (the page's too) rounds them alike.
                weight = 1.0
                for s in others:
                    if since[s]:
                        for _miss in range(misplays(hands[s], since[s])):
                            weight *= trust[s]
                if best is None or weight > best[0]:
                    best = (weight, hands, cards)
                if random_() < weight:
                    break
            else:
                assert best is not None, "tries is at least 1"
                _, hands, cards = best
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

    def _deal_hidden(self, seat, hand, others, need, fixed, pool, doubts) -> tuple:
        """One guess at the other seats' hands: ``(hands, the cards left)``, each seat's passes
        believed as often as :meth:`doubts` says."""
        rng = self.rng
        random_ = rng.random
        # This guess's belief: which passes meant the seat held none of the rank.
        lacking = {s: {r for r, chance in doubts[s].items() if random_() >= chance} for s in others}
        order = sorted(others, key=lambda s: -len(lacking[s]))
        for _attempt in range(_ATTEMPTS):
            cards = pool[:]
            rng.shuffle(cards)
            hands = [None] * len(fixed)
            hands[seat] = list(hand)
            fits = True
            for s in order:
                lacks = lacking[s]
                n = need[s]
                if lacks:
                    mine: list[Card] = []
                    rest: list[Card] = []
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
        return hands, cards
