"""The Hard computer: bids, names trumps and plays by looking ahead over hands it cannot see.

Determinized sampling: it deals the cards it has not seen to the other seats many times over,
plays each choice out to the deal's end in every such deal with the baseline's rule for every
seat (but that its own leads as declarer draw trumps), and takes the choice that does best on
average. The deals fit what it has seen: each seat's number of cards, the cards the rules of
following show a seat lacks, and, as far as a chain of swaps between the seats' hands can make
them (:func:`fitted_deals`), what a seat playing the baseline's way showed: the cards its
follows say it lacks, its leads replayed on its hand as it was, its bids and passes (bounds on
the hand's worth as the baseline values it) and, the declarer's, its trumps. With nothing left
to fit, the chain wanders evenly over the deals that fit everything. In the auction a choice is
a plan, passing or bidding on up to a limit, and the rest of the auction is played out too, the
other seats bidding the baseline's way. It reads its own view and its memory of the steps shown
to it, never a hidden card: two deals that differ only in cards it cannot see give it the same
samples, so the same choice.

The play-outs and the chains of swaps run on a hand's bits (``1 << code``, :data:`.deal.CODE`):
:func:`play_out` is the rules of following (:func:`.deal.legal_codes`) and the baseline's choice
among the cards they allow brought down to a few operations on bits, checked against the
engine's deals in tests/test_batak.py.
"""

from __future__ import annotations

import random
from typing import Optional, Sequence

from ...cards import DECK, SUITS
from .deal import CARD_OF, CODE, MAX_BID, PASS, SUIT_CODE, bid_text, trump_text, winning_code
from .memory import Memory

__all__ = ["HardBot", "play_out", "sample_hands", "fitted_deals"]

_ALL = sorted(CODE[c] for c in DECK)
#: The bits (1 << code) of the 52 cards.
_DECK_BITS = sum(1 << c for c in _ALL)
#: By suit number, the bits of the suit's cards.
_SUIT_BITS = [sum(1 << c for c in _ALL if c & 3 == s) for s in range(4)]
#: The bits of the queens, kings and aces.
_HIGH = sum(1 << c for c in _ALL if c >= 48)
#: By suit number, the bits of the other suits' cards.
_NOT_SUIT_BITS = [_DECK_BITS ^ bits for bits in _SUIT_BITS]
#: By trump suit number, the bits of each other suit's cards, in suit order.
_OTHER_SUITS = [[_SUIT_BITS[s] for s in range(4) if s != t] for t in range(4)]
#: The bits of a card's suit, by the card's bit.
_SUIT_OF_BIT = {1 << c: _SUIT_BITS[c & 3] for c in _ALL}


def _lead(hand: int, trump: int, seen: int) -> int:
    """The baseline's lead (see :func:`.baseline.baseline_lead`) on bits (1 << code), the card's
    bit: ``hand`` the hand's bits, ``seen`` those of the cards played so far (none of the hand's).
    Codes sort in card order, so a set's first card in card order is its lowest bit."""
    others = hand & _NOT_SUIT_BITS[trump]
    if not others:
        return hand & -hand
    # The cards still out, each spread down its suit (a card's next lower one of its suit is 4
    # bits down): what is left of the hand's other suits above them are its masters.
    out = _DECK_BITS ^ hand ^ seen
    out |= out >> 4
    out |= out >> 8
    out |= out >> 16
    out |= out >> 32
    masters = others & ~out
    if masters:
        return masters & -masters
    longest = pick = 0
    for suit in _OTHER_SUITS[trump]:
        held = others & suit
        if held.bit_count() > longest:
            longest, pick = held.bit_count(), held
    return pick & -pick


def _trump_draw(hand: int, trump: int, seen: int) -> int:
    """A declarer's lead that draws trumps, on bits: its highest trump (the card's bit) when that
    is the master, trumps are broken (``seen``: the cards played) and some are still out; else 0."""
    trumps = _SUIT_BITS[trump]
    held = hand & trumps
    out = trumps & ~hand & ~seen
    if not held or not out or not seen & trumps:
        return 0
    top = 1 << (held.bit_length() - 1)
    return top if out < top else 0     # no trump out above it


def play_out(hands: list, trick: list, leader: int, trump: int, tricks: list, seen: int,
             drawer: int = -1) -> list:
    """Play a deal to its end with the baseline's rule for every seat, on bits (1 << code):
    ``hands`` by seat (each hand's bits; left as they were), ``trick`` the codes played to the
    trick in play, led by ``leader``, ``tricks`` each seat's tricks so far (changed in place),
    ``seen`` the bits of the cards played, the trick's included. Returns ``tricks``.

    ``drawer``, when a seat (Hard's own, declaring), leads otherwise: it draws trumps
    (:func:`_trump_draw`) whenever it can, as a declarer does and the baseline never does, else
    leads the baseline's way. Hard plays its declarer's hands so (it took 6.2 tricks as declarer
    where the baseline's play of its trumps took 5.6), and its play-outs judge its cards and bids
    better for it (README: "Batak's levels").

    The rules of following (:func:`.deal.legal_codes`) and the baseline's choice among the cards
    they allow (:func:`.baseline.baseline_follow`: the cheapest that wins, else the cheapest) come
    down to one card for each case below; the baseline never leads a trump while it holds another
    suit, so whether trumps are broken does not matter. tests/test_batak.py checks the play-outs
    against the engine's deals played by the baseline's own functions."""
    hands = list(hands)
    trumps = _SUIT_BITS[trump]
    played = len(trick)
    seat = (leader + played) % 4
    win = win_seat = led = 0
    if trick:
        best = winning_code(trick, trump)
        win, win_seat, led = 1 << trick[best], (leader + best) % 4, _SUIT_BITS[trick[0] & 3]
    while hands[seat]:
        hand = hands[seat]
        if not played:
            card = win = (seat == drawer and _trump_draw(hand, trump, seen)) or _lead(hand, trump, seen)
            win_seat, led = seat, _SUIT_OF_BIT[card]
        elif hand & led:
            held = hand & led
            if win & led:       # the suit led is winning: the cheapest card above it, if any
                above = held & -(win << 1)
                card = above & -above if above else held & -held
                if above:
                    win, win_seat = card, seat
            else:               # trumped: no card of the suit led can win
                card = held & -held
        elif hand & trumps:
            held = hand & trumps
            above = held & -(win << 1) if win & trumps else held
            card = above & -above if above else held & -held
            if above:
                win, win_seat = card, seat
        else:
            card = hand & -hand
        hands[seat] = hand ^ card
        seen |= card
        played += 1
        if played == 4:
            tricks[win_seat] += 1
            seat, played = win_seat, 0
        else:
            seat = (seat + 1) & 3
    return tricks


def sample_hands(rng: random.Random, unseen: Sequence[int], counts: Sequence[int], ruled_out: Sequence[set],
                 unlikely: Sequence[set], me: int, tries: int = 8) -> list:
    """The ``unseen`` codes dealt at random to the seats other than ``me``, ``counts[s]`` to each,
    no seat getting a code of its ``ruled_out`` or ``unlikely`` set; when no such deal is found in
    ``tries`` draws, none of its ``ruled_out`` set; failing that too, with no regard to either."""
    seats = [s for s in range(4) if s != me and counts[s]]
    for sets in ([ruled_out[s] | unlikely[s] for s in range(4)], ruled_out):
        if not any(sets[s] for s in seats):
            break                   # nothing known: every deal fits
        allowed = {c: [s for s in seats if c not in sets[s]] for c in unseen}
        # The most constrained cards first: those fewest seats may hold.
        order = sorted(unseen, key=lambda c: len(allowed[c]))
        for _ in range(tries):
            room = {s: counts[s] for s in seats}
            hands: list = [[] for _ in range(4)]
            for c in order:
                open_ = [s for s in allowed[c] if room[s]]
                if not open_:
                    break
                s = open_[rng.randrange(len(open_))] if len(open_) > 1 else open_[0]
                hands[s].append(c)
                room[s] -= 1
            else:
                for h in hands:
                    h.sort()
                return hands
    cards = list(unseen)
    rng.shuffle(cards)
    hands = [[] for _ in range(4)]
    at = 0
    for s in seats:
        hands[s] = sorted(cards[at:at + counts[s]])
        at += counts[s]
    return hands


def fitted_deals(rng: random.Random, start: list, ruled_out: Sequence[set], misfits: Sequence, count: int,
                 gap: int, descent: int) -> list:
    """``count`` sampled deals from a chain of swaps that starts at ``start`` (hands by seat, the
    seats to sample holding cards, the rest empty or left alone): each step swaps a card between two
    sampled seats at random, neither taking a card of its ``ruled_out`` set, and is kept when the
    two seats' ``misfits(bits, limit)`` (by seat, of the hand's bits, 1 << code; past ``limit``
    it may stop counting) add up to no more than before. The first deal is taken once nothing
    misfits or after ``descent`` steps, each next one ``gap`` steps on: with nothing misfitting,
    the chain wanders evenly over the deals that fit everything seen."""
    hands = [list(h) for h in start]
    bits = [_bits(h) for h in hands]
    seats = [s for s in range(4) if hands[s] and misfits[s] is not None]
    cost = [misfits[s](bits[s], 99) if s in seats else 0 for s in range(4)]
    pairs = [(a, b) for a in seats for b in seats if a < b]
    deals: list = []
    steps, settling = descent, True
    draw = rng.getrandbits
    while pairs:
        for _ in range(steps):
            if settling and not sum(cost):
                break
            a, b = pairs[_below(draw, len(pairs))]
            ha, hb = hands[a], hands[b]
            i, j = _below(draw, len(ha)), _below(draw, len(hb))
            x, y = ha[i], hb[j]
            if x in ruled_out[b] or y in ruled_out[a]:
                continue
            swap = 1 << x | 1 << y
            limit = cost[a] + cost[b]
            ca = misfits[a](bits[a] ^ swap, limit)
            cb = misfits[b](bits[b] ^ swap, limit - ca) if ca <= limit else 0
            if ca + cb <= limit:
                cost[a], cost[b] = ca, cb
                ha[i], hb[j] = y, x
                bits[a] ^= swap
                bits[b] ^= swap
        deals.append([sorted(h) for h in hands])
        if len(deals) == count:
            return deals
        steps, settling = gap, False
    return [[sorted(h) for h in hands] for _ in range(count)]


def _below(draw, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` > 0 from ``draw``, ``rng.getrandbits``: the same number from
    the same draws as Python's own (``Random._randbelow_with_getrandbits``), with fewer calls."""
    k = n.bit_length()
    r = draw(k)
    while r >= n:
        r = draw(k)
    return r


def _misfit_counter(unlikely: int, bounds: list, shown: int, named: Optional[int], leads: list, trump: int,
                    partners: bool):
    """How many things seen a sampled hand of one seat (its bits, 1 << code) contradicts, the seat
    playing the baseline's way: its ``unlikely`` cards (bits) held, its auction ``bounds`` (``(low,
    high)`` on the baseline's estimate of the hand with its ``shown`` cards, bits) broken, trumps
    ``named`` otherwise (when it named them), and its ``leads`` (``(the card's bit, the bits of the
    cards it played from then on, the bits of the cards played before)``) not the baseline's lead
    from that hand with ``trump``."""
    # The bounds broken by each estimate (at most 12 for the honours, 9 for a long suit, 3 for a partner).
    broken = [sum(value < low or value > high for low, high in bounds) for value in range(25)] if bounds else None

    # A chain meets the same hands again and again once few cards are left to swap.
    counted: dict = {}

    def misfits(hand: int, limit: int) -> int:
        missed = counted.get(hand)
        if missed is not None:
            return missed
        missed = (hand & unlikely).bit_count()
        if missed > limit:
            return missed       # past the limit the count may stop here, and is not kept
        if broken or named is not None:
            full = hand | shown
            if broken:
                missed += broken[_estimate(full, partners)]
            if named is not None and _trump_code(full) != named:
                missed += 1
            if missed > limit:
                return missed
        for card, later, seen in leads:
            if _lead(hand | later, trump, seen) != card:
                missed += 1
                if missed > limit:
                    return missed
        counted[hand] = missed
        return missed
    return misfits


def _leads(memory: Memory, me: int) -> list:
    """By seat (``me``'s left empty), the seat's leads so far: ``(the card's bit, the bits of the
    cards it played from then on, the bits of the cards played before)``; none when the memory
    missed steps."""
    leads: list = [[], [], [], []]
    if not memory.complete:
        return leads
    where = {card: (seat, k) for seat, cards in enumerate(memory.shown) for k, card in enumerate(cards)}
    seen = 0
    for i, card in enumerate(memory.played):
        seat, k = where[card]
        if i % 4 == 0 and seat != me:
            leads[seat].append((1 << CODE[card], _bits(CODE[c] for c in memory.shown[seat][k:]), seen))
        seen |= 1 << CODE[card]
    return leads


def _trump_code(hand: int) -> int:
    """The baseline's trumps (see :func:`.baseline.baseline_trump`) of a hand's bits (1 << code)."""
    # Each suit's key (its length, then its A, K and Q, then the suit) as one number.
    return max([(hand & suit).bit_count() * 64 + (hand & suit & _HIGH).bit_count() * 4 + s
                for s, suit in enumerate(_SUIT_BITS)]) & 3


def _estimate(hand: int, partners: bool) -> int:
    """The baseline's estimate (see :func:`.baseline.estimate`) of a hand's bits (1 << code)."""
    value = (hand & _HIGH).bit_count()      # every queen, king and ace, less those of short suits
    longest = 0
    for s, suit in enumerate(_SUIT_BITS):
        length = (hand & suit).bit_count()
        if length < 3:
            # The queen (code 48 + suit) counts in a suit of 3 or more, the king (52 + suit) of 2.
            value -= hand >> (48 + s) & 1
            if length < 2:
                value -= hand >> (52 + s) & 1
        elif length > longest:     # only a suit of 5 or more adds
            longest = length
    return value + max(0, longest - 4) + (3 if partners else 0)


def _auction_bounds(auction: Sequence[tuple], me: int) -> list:
    """What the auction says of the other seats' hands: by seat, ``(low, high)`` bounds on the
    baseline's estimate of the hand, one for each bid (``low``) and pass (``high``), the opener's
    minimum aside."""
    bounds: list = [[], [], [], []]
    highest = auction[0][1] if auction else 0
    for seat, bid in auction[1:]:
        if seat == me:
            if bid is not None:
                highest = bid
            continue
        if bid is None:
            bounds[seat].append((0, highest))
        else:
            bounds[seat].append((bid, 99))
            highest = bid
    return bounds


def _auction_end(values: list, passed: set, highest: int, me: int, cap: int) -> tuple:
    """The auction's ``(declarer, contract)`` from ``me``'s turn on, each other seat bidding the
    baseline's way on its estimate ``values[seat]``, ``me`` one more than the highest while that
    is at most ``cap`` (else passing); ``passed`` the seats out already, ``highest`` the bid to beat."""
    out = set(passed)
    holder = None
    seat = me
    while True:
        if seat not in out:
            limit = cap if seat == me else values[seat]
            if highest < limit:
                highest, holder = highest + 1, seat
                if highest == MAX_BID:
                    break
            else:
                out.add(seat)
            if len(out) == 3:
                break
        seat = (seat + 1) % 4
    if holder is None or holder in out:
        holder = next(s for s in range(4) if s not in out)
    return holder, highest


def _value(points: list, me: int, partners: bool) -> float:
    """What a deal's result is worth to ``me``: its side's points less the others' average."""
    if partners:
        return points[me & 1] - points[1 - (me & 1)]
    return points[me] - (sum(points) - points[me]) / 3


def _points(tricks: list, declarer: int, contract: int, partners: bool) -> list:
    """The deal's points by team from each seat's tricks (SPEC-BATAK.md's scoring)."""
    if partners:
        tricks = [tricks[0] + tricks[2], tricks[1] + tricks[3]]
        side = declarer & 1
    else:
        tricks = list(tricks)
        side = declarer
    if tricks[side] < contract:
        tricks[side] = -contract
    return tricks


class HardBot:
    """Looks ahead over sampled deals of the cards it cannot see (see the module docs).

    ``samples`` bounds the play-outs of one decision: a card is tried in ``samples // cards``
    deals (cards that play alike counted once), at least ``floor``; a bid or a trump choice in
    ``bid_samples`` deals. The deals come from chains of swaps (:func:`fitted_deals`), in play
    ``chains`` of them, each from its own draw: up to ``descent`` swaps to fit everything seen,
    then ``gap`` swaps between deals.
    """

    def __init__(self, seat: int, rng: random.Random, samples: int = 144, floor: int = 6, bid_samples: int = 24,
                 boldness: float = 0.0, gap: int = 30, descent: int = 200, chains: int = 3):
        self.seat = seat
        self.rng = rng
        self.samples = samples
        self.floor = floor
        self.bid_samples = bid_samples
        self.boldness = boldness
        self.gap = gap
        self.descent = descent
        self.chains = chains
        self.memory = Memory()

    def remember(self, view) -> None:
        """Take in ``view``'s new steps without choosing (a replayed match's earlier deals)."""
        self.memory.update(view)

    def choose(self, view):
        """Hard's action for ``view``."""
        self.memory.update(view)
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if legal[0] == PASS:
            return self._bid(view)
        if isinstance(legal[0], str):
            return self._trump(view)
        return self._card(view)

    # -- the common ground of every decision -----------------------------------------

    def _unseen(self, view) -> list:
        mine = {CODE[c] for c in view.hand}
        gone = {CODE[c] for c in self.memory.gone}
        return [c for c in _ALL if c not in mine and c not in gone]

    def _known(self) -> tuple:
        """Each seat's ruled-out and unlikely cards, as sets of codes."""
        memory = self.memory
        return ([{CODE[c] for c in cards} for cards in memory.ruled_out],
                [{CODE[c] for c in cards} for cards in memory.unlikely])

    def _sample(self, view, unseen: list, known: tuple) -> list:
        hands = sample_hands(self.rng, unseen, view.hand_counts, known[0], known[1], view.seat)
        hands[view.seat] = sorted(CODE[c] for c in view.hand)
        return hands

    # -- the auction and the trumps --------------------------------------------------

    def _worlds(self, view) -> list:
        """``bid_samples`` sampled deals that fit the auction so far: a seat that bid ``b`` is taken to
        hold a hand the baseline would value at ``b`` or more, a seat that passed at ``h`` one it
        would value at ``h`` or less."""
        unseen, known = self._unseen(view), self._known()
        bounds = _auction_bounds(view.auction, view.seat)
        misfits = [None if s == view.seat else _misfit_counter(_bits(known[1][s]), bounds[s], 0, None, [], 0,
                                                               view.partners)
                   for s in range(4)]
        return self._fitted(view, unseen, known, misfits, self.bid_samples, 1)

    def _fitted(self, view, unseen: list, known: tuple, misfits: list, count: int, chains: int) -> list:
        """``count`` sampled deals from ``chains`` chains of swaps (:func:`fitted_deals`), each
        from its own draw: deals far apart in the chains' wanderings."""
        chains = min(chains, count)
        return [deal for k in range(chains)
                for deal in fitted_deals(self.rng, self._sample(view, unseen, known), known[0], misfits,
                                         (count + k) // chains, self.gap, self.descent)]

    def _declaring(self, view, worlds: list, contract: int) -> list:
        """The mean value to this seat of declaring ``contract`` and leading, over ``worlds``, with
        each suit trumps, by suit number."""
        me, partners = view.seat, view.partners
        totals = [0.0] * 4
        for hands in worlds:
            bits = [_bits(h) for h in hands]
            for t in range(4):
                tricks = play_out(bits, [], me, t, [0, 0, 0, 0], 0, me)
                totals[t] += _value(_points(tricks, me, contract, partners), me, partners)
        return [v / len(worlds) for v in totals]

    def _bid(self, view):
        """Bid one more than the highest when some plan of bidding on, up to a limit, does better
        over the sampled deals than passing: in each deal the rest of the auction is played out
        with the baseline's bids for the other seats (:func:`_auction_end`), the declarer names
        trumps (the baseline's rule; this seat, each suit in turn) and the deal is played out."""
        highest, me, partners = view.highest, view.seat, view.partners
        if highest >= MAX_BID:
            return PASS
        passed = {s for s, b in view.auction if b is None}
        caps = range(highest, MAX_BID + 1)
        mine = [[0.0] * 4 for _ in caps]     # by cap: this seat declaring, by trumps
        other = [0.0 for _ in caps]          # by cap: another seat declaring
        for hands in self._worlds(view):
            bits = [_bits(h) for h in hands]
            values = [_estimate(h, partners) for h in bits]
            played: dict = {}
            for i, cap in enumerate(caps):
                declarer, contract = _auction_end(values, passed, highest, me, cap)
                if declarer == me:
                    if me not in played:
                        played[me] = [play_out(bits, [], me, t, [0, 0, 0, 0], 0, me) for t in range(4)]
                    for t in range(4):
                        mine[i][t] += _value(_points(played[me][t], me, contract, partners), me, partners) \
                            + self.boldness
                else:
                    if declarer not in played:
                        played[declarer] = play_out(bits, [], declarer, _trump_code(bits[declarer]),
                                                    [0, 0, 0, 0], 0)
                    other[i] += _value(_points(played[declarer], declarer, contract, partners), me, partners)
        plans = [max(m) + o for m, o in zip(mine, other)]
        return bid_text(highest + 1) if max(plans) > plans[0] else PASS

    def _trump(self, view):
        contract = view.contract if view.contract is not None else view.highest
        values = self._declaring(view, self._worlds(view), contract)
        return trump_text(SUITS[values.index(max(values))])

    # -- the play ----------------------------------------------------------------------

    def play_deals(self, view, count: int) -> list:
        """``count`` sampled deals (hands by seat, as codes) for a card to play in ``view``, each
        fitting everything seen as well as the chain of swaps can make it (:func:`fitted_deals`):
        the rules of following, and for seats playing the baseline's way their follows, leads,
        bids and passes, and the declarer's trumps."""
        me, declarer = view.seat, view.declarer
        self.memory.update(view)
        trump = SUIT_CODE[view.trump]
        unseen, known = self._unseen(view), self._known()
        bounds = _auction_bounds(view.auction, me)
        leads = _leads(self.memory, me)
        shown = [_bits(CODE[c] for c in cards) for cards in self.memory.shown]
        misfits = [None if s == me else _misfit_counter(_bits(known[1][s]), bounds[s], shown[s],
                                                        trump if s == declarer else None, leads[s], trump,
                                                        view.partners)
                   for s in range(4)]
        return self._fitted(view, unseen, known, misfits, count, self.chains)

    def _card(self, view):
        legal = view.legal
        me, partners = view.seat, view.partners
        declarer, contract = view.declarer, view.contract
        trump = SUIT_CODE[view.trump]
        trick = [CODE[c] for _, c in view.trick]
        leader = view.trick[0][0] if view.trick else me
        seen_before = _bits(CODE[c] for c in self.memory.gone) & ~_bits(trick)
        codes = _distinct([CODE[c] for c in legal], seen_before | _bits(CODE[c] for c in view.hand))
        if len(codes) == 1:
            return CARD_OF[codes[0]]
        totals = [0.0] * len(codes)
        drawer = me if declarer == me else -1       # its own later leads, declaring, draw trumps
        for hands in self.play_deals(view, max(self.floor, self.samples // len(codes))):
            bits = [_bits(h) for h in hands]
            for i, code in enumerate(codes):
                trial = list(bits)
                trial[me] ^= 1 << code
                tricks = list(view.tricks)
                after = trick + [code]
                seen = seen_before | _bits(after)
                if len(after) == 4:
                    winner = (leader + winning_code(after, trump)) % 4
                    tricks[winner] += 1
                    play_out(trial, [], winner, trump, tricks, seen, drawer)
                else:
                    play_out(trial, after, leader, trump, tricks, seen, drawer)
                totals[i] += _value(_points(tricks, declarer, contract, partners), me, partners)
        best = max(range(len(codes)), key=lambda i: (totals[i], -codes[i]))
        return CARD_OF[codes[best]]


def _distinct(codes: list, known: int) -> list:
    """The ``codes`` (in card order) that play differently: of cards of a suit with no card between
    them but ``known`` ones (bits: this seat's own and those played before the trick in play), which
    every card still to come beats or loses to alike, the lowest."""
    kept: list = []
    for code in codes:
        last = next((k for k in reversed(kept) if k & 3 == code & 3), None)
        if last is None or any(not known >> between & 1 for between in range(last + 4, code, 4)):
            kept.append(code)
    return kept


def _bits(codes) -> int:
    bits = 0
    for c in codes:
        bits |= 1 << c
    return bits

