"""Random play-outs: what must hold in every deal, whatever the players choose."""

import json
import operator
import random
import re

from helpers import pasha_match
from pishe import BOTS, DECK, Deal, seat_view
from pishe.games.pasha.play import bot_step, play_deal

# Every action of every deal is checked, both seats' views included: ~800,000 actions and
# thousands of recycles (10,000 deals took 72 s of the suite's time for little more).
DEALS = 1_500
# Longest deal seen over 10,000 random deals is a few hundred actions: this bound means "never ends".
MAX_ACTIONS = 5_000


def random_bot(rng):
    """A bot that picks any legal action: explores what the fixed policies never do."""
    return lambda view: rng.choice(view.legal)


# A JSON string that is exactly a card's code ("10H", "AS"), in the JSON text of a view.
CARD_CODE = re.compile(r'"((?:10|[2-9AJQK])[CDHS])"')


def cards_in_json(text):
    """Every card code anywhere in a JSON text (a key or a value, at any depth)."""
    return set(CARD_CODE.findall(text))


def visible_cards(view):
    """The cards a SeatView holds, field by field (and ``None`` for an empty place)."""
    steps = (*view.this_turn, *view.other_last_turn)
    return {*view.discard_tops, view.turned, view.give_card, *(s.card for s in steps), *(s.onto for s in steps)}


def test_random_deals_keep_every_invariant():
    rng = random.Random(20261130)
    names = list(BOTS)
    for n in range(DEALS):
        deal = Deal.shuffled(rng, leader=n % 2)
        if n % 3 == 0:
            bots = [random_bot(rng), random_bot(rng)]
        else:
            bots = [BOTS[rng.choice(names)], BOTS[rng.choice(names)]]
        foundations = dict(deal.foundations)
        thorough = n % 20 == 0          # full card sets and JSON views: slower, so on every 20th deal
        for _ in range(MAX_ACTIONS):
            if deal.over:
                break
            bot_step(deal, bots[deal.turn])
            # 52 cards, each exactly once.
            if thorough or deal.over:
                held = [c for pile in (*deal.stocks, *deal.discards) for c in pile]
                held += [c for c in DECK if c.rank <= deal.foundations[c.suit]]
                if deal.turned is not None:
                    held.append(deal.turned)
                assert len(held) == 52 and set(held) == set(DECK)
            else:
                assert (sum(map(len, deal.stocks)) + sum(map(len, deal.discards))
                        + sum(deal.foundations.values()) + (deal.turned is not None)) == 52
            # Suit piles only grow.
            assert all(map(operator.ge, deal.foundations.values(), foundations.values()))
            foundations = dict(deal.foundations)
            # Views never hold a stock card.
            stock_cards = set(deal.stocks[0]) | set(deal.stocks[1])
            for seat in (0, 1):
                view = seat_view(deal, seat)
                assert stock_cards.isdisjoint(visible_cards(view))
                if thorough:
                    assert not cards_in_json(json.dumps(view.to_json())) & {str(c) for c in stock_cards}
        else:
            raise AssertionError(f"deal {n} did not end in {MAX_ACTIONS} actions")
        assert deal.winner is not None


def test_same_seed_and_actions_give_the_same_result():
    for seed in range(50):
        runs = []
        for _ in range(2):
            match = pasha_match("first-to-50", random.Random(seed))
            choices = random.Random(seed + 1)
            log = []
            while not match.over:
                if match.deal.over:
                    match.next_deal()
                log += [s.describe() for s in bot_step(match, random_bot(choices))]
            runs.append((log, match.scores, match.results))
        assert runs[0] == runs[1]


def test_forced_turn_runs_match_one_action_at_a_time():
    """play_deal's fast path (turn_while_forced) changes nothing but the speed."""
    rng = random.Random(7)
    names = list(BOTS)
    for n in range(2_000):
        stocks = Deal.shuffled(rng).stocks
        bots = [BOTS[rng.choice(names)], BOTS[rng.choice(names)]]
        fast, slow = Deal.from_stocks(stocks, n % 2), Deal.from_stocks(stocks, n % 2)
        fast_steps = play_deal(fast, bots)
        slow_steps = []
        while not slow.over:
            slow_steps += bot_step(slow, bots[slow.turn])
        assert fast_steps == slow_steps
        assert (fast.stocks, fast.discards, fast.foundations, fast.winner, fast.steps) == \
            (slow.stocks, slow.discards, slow.foundations, slow.winner, slow.steps)
        assert [fast.last_turn(s) for s in (0, 1)] == [slow.last_turn(s) for s in (0, 1)]
