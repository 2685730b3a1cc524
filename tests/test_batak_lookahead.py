"""Batak's look-ahead on card codes (pishe/games/batak/lookahead.py): the baseline's play-out and one
seat's best plays against the baseline's rule for the others, from explicit positions."""

from __future__ import annotations

import random

from pishe.cards import Card
from pishe.games.batak.deal import CODE, legal_codes, winning_code
from pishe.games.batak.lookahead import ALL, _baseline_card, best_values, bits, play_out

SPADES = 3


def codes(text: str) -> list:
    return sorted(CODE[Card.parse(t)] for t in text.split())


def position(hands: list) -> tuple:
    """The hands as codes, and the bits of every other card (taken as played before)."""
    held = [codes(h) for h in hands]
    return held, bits(c for c in ALL if not any(c in h for h in held))


# Seat 0 to lead, spades trumps and broken; the baseline leads the master A♥ first.
HANDS = ["AH 3H 2D", "KH 4D 5D", "QH 6D 7D", "JH 8D 9D"]


def test_play_out_plays_every_seat_the_baselines_way():
    hands, seen = position(HANDS)
    # A♥ takes the hearts; 3♥ is then a master too (nobody holds a heart or a trump); 2♦ loses to 8♦.
    assert play_out(hands, [], 0, SPADES, True, [0, 0, 0, 0], seen) == [2, 0, 0, 1]
    assert hands == [[], [], [], []]


def test_best_values_weigh_each_card_by_the_best_later_plays():
    hands, seen = position(HANDS)
    mine = lambda tricks: tricks[0]  # noqa: E731
    values = best_values(hands, [], 0, SPADES, True, [0, 0, 0, 0], seen, 0, mine)
    # 3♥ first: K♥ takes it and the diamonds run; 2♦ first: the later J♥ lead falls to the A♥.
    assert values == {CODE[Card.parse("AH")]: 2, CODE[Card.parse("3H")]: 0, CODE[Card.parse("2D")]: 1}
    assert hands == [codes(h) for h in HANDS]          # nothing changed


def test_cards_that_play_alike_are_tried_once_unless_an_unplayed_card_lies_between():
    mine = lambda tricks: tricks[0]  # noqa: E731
    hands, seen = position(["10H JH 2D", "KH 4D 5D", "QH 6D 7D", "AH 8D 9D"])
    assert set(best_values(hands, [], 0, SPADES, True, [0, 0, 0, 0], seen, 0, mine)) == set(codes("10H 2D"))
    hands, seen = position(["9H JH 2D", "KH 4D 5D", "QH 6D 7D", "AH 10H 9D"])
    assert set(best_values(hands, [], 0, SPADES, True, [0, 0, 0, 0], seen, 0, mine)) == set(codes("9H JH 2D"))


def _brute(hands: list, trick: list, trump: int, broken: bool, tricks: list, seen: int, me: int, seat: int) -> int:
    """``me``'s most tricks over every sequence of its legal cards, the others the baseline's."""
    if not hands[seat]:
        return tricks[me]
    if seat != me:
        card = _baseline_card(hands[seat], trick, trump, broken, seen)
        return _play(hands, trick, trump, broken, tricks, seen, me, seat, card)
    return max(_play(hands, trick, trump, broken, tricks, seen, me, seat, c)
               for c in legal_codes(hands[seat], trick, trump, broken))


def _play(hands, trick, trump, broken, tricks, seen, me, seat, card) -> int:
    hands = [h[:] for h in hands]
    hands[seat].remove(card)
    trick = [*trick, card]
    tricks = list(tricks)
    if len(trick) == 4:
        seat = (seat + 1 + winning_code(trick, trump)) % 4
        tricks[seat] += 1
        trick = []
    else:
        seat = (seat + 1) % 4
    return _brute(hands, trick, trump, broken or card & 3 == trump, tricks, seen | 1 << card, me, seat)


def test_best_values_match_a_search_of_every_sequence_and_beat_the_baselines_own_play():
    rng = random.Random(4)
    for _ in range(40):
        cards = list(ALL)
        rng.shuffle(cards)
        hands = [sorted(cards[3 * s:3 * s + 3]) for s in range(4)]
        seen = bits(cards[12:])
        trump, leader = rng.randrange(4), rng.randrange(4)
        trick: list = []
        for s in range(leader, 4 if leader else 0):     # the seats before seat 0 play the baseline's cards
            card = _baseline_card(hands[s], trick, trump, True, seen | bits(trick))
            hands[s].remove(card)
            trick.append(card)
        values = best_values(hands, trick, leader, trump, True, [0, 0, 0, 0], seen | bits(trick), 0,
                             lambda tricks: tricks[0])
        assert max(values.values()) == _brute(hands, trick, trump, True, [0, 0, 0, 0], seen | bits(trick), 0, 0)
        own = play_out([h[:] for h in hands], trick, leader, trump, True, [0, 0, 0, 0], seen | bits(trick))
        assert max(values.values()) >= own[0]
