"""Pishe Pasha's computer levels: the memory of what a seat was shown, the bots that look
ahead with the one engine, their honesty, and the computer table's levels and "seen" help."""

from __future__ import annotations

import json
import random

import pytest

from pishe import DECK, Card, Deal, UnknownBotError
from pishe.cards import parse_cards
from pishe.games.pasha import GAME
from pishe.games.pasha.deal import GIVE, TURN
from pishe.games.pasha.memory import Memory
from pishe.games.pasha.play import play_deal
from pishe.games.pasha.view import seat_view

# One deck (bottom to top, seat 0's stock first), seat 0 leading: the actions of a deal
# of memory-deep (seat 0) against always-give up to two of seat 0's choices, found by
# searching every line of seat 0's own later choices against always-give.
DECK_TEXT = ("JC 9H AH 9S JS 6S KH QD 10D 7D 10C 8D 4S 6D 4H 6H 2S KC KD 4D 9D 7H 5C 7S 10H 3H "
             "JH 8S AC AS 5H 8C 6C 2C 10S QC QS JD 3S 3C 2H 4C AD 3D KS 9C 8H 7C 5S 2D QH 5D").split()
# After these 8 choices, holding back (turning a card instead of giving) wins and giving loses.
HOLD_BACK_WINS = ["give"] * 8
# After these 29, giving the turned card wins and keeping it loses.
GIVE_WINS = ["give"] * 8 + ["turn", "give", "keep"] + ["give"] * 18


def new_deal(deck_text=DECK_TEXT) -> Deal:
    cards = parse_cards(deck_text)
    return Deal.from_stocks([cards[:26], cards[26:]], 0)


def replay(deal: Deal, actions, watchers):
    """Play ``actions`` (the choices only; forced turns are made here) on ``deal``, showing
    every step to ``watchers`` (``(seat, bot)`` pairs); stops at the next choice."""
    GAME.show_steps(watchers, deal.this_turn, new_deal=True)
    for action in [*actions, None]:
        GAME.show_steps(watchers, deal.turn_while_forced())
        if action is None or deal.winner is not None:
            break
        GAME.show_steps(watchers, deal.apply(action))
    return deal


def can_win(deal: Deal, me: int) -> bool:
    """Whether ``me`` wins in some line of its own choices against always-give (every line tried)."""
    while deal.winner is None:
        deal.turn_while_forced()
        if deal.winner is not None:
            break
        legal = deal.legal_actions()
        if deal.turn == me and len(legal) > 1:
            return any(can_win(_after(deal, a), me) for a in legal)
        deal.apply(legal[0])
    return deal.winner == me


def _after(deal: Deal, action) -> Deal:
    trial = deal.copy()
    trial.apply(action)
    return trial


# -- scripted positions: Hard chooses right ----------------------------------------------

@pytest.mark.parametrize("actions, right", [(GIVE_WINS, GIVE), (HOLD_BACK_WINS, TURN)],
                         ids=["giving-wins", "holding-back-wins"])
def test_hard_chooses_the_action_that_wins(actions, right):
    hard = GAME.new_bot("memory-deep", 0, random.Random(1))
    deal = replay(new_deal(), actions, [(0, hard)])
    assert deal.turn == 0 and right in deal.legal_actions() and GIVE in deal.legal_actions()
    (wrong,) = set(deal.legal_actions()) - {right}
    # The position's truth, from the engine's own state (which the bot never sees).
    assert can_win(_after(deal, right), 0) and not can_win(_after(deal, wrong), 0)
    assert hard.choose(seat_view(deal, 0)) == right


def test_a_memory_that_missed_the_start_plays_like_always_give():
    late = GAME.new_bot("memory-deep", 0, random.Random(1))
    deal = replay(new_deal(), HOLD_BACK_WINS, [])
    assert late.choose(seat_view(deal, 0)) == GIVE          # it knows nothing: it gives


# -- the memory ----------------------------------------------------------------------------

def test_memory_knows_every_discard_pile_and_each_stock_once_turned_over():
    rng = random.Random(11)
    known_all = 0
    for n in range(60):
        deal = Deal.shuffled(rng, leader=n % 2)
        memories = [Memory(), Memory()]
        watchers = list(enumerate(memories))
        GAME.show_steps(watchers, deal.this_turn, new_deal=True)
        while deal.winner is None:
            GAME.show_steps(watchers, deal.apply(rng.choice(deal.legal_actions())))
            for seat, memory in watchers:
                assert memory.complete and memory.discards == deal.discards
                for s in (0, 1):
                    assert memory.stocks[s] is None or memory.stocks[s] == deal.stocks[s]
                if deal.winner is None and None not in memory.stocks:
                    known_all += 1
                    position = memory.position(seat_view(deal, seat))
                    assert (position.stocks, position.discards, position.turned) == (
                        deal.stocks, deal.discards, deal.turned)
    assert known_all > 1000             # many positions where every card is known were checked


def test_positions_are_every_order_of_the_one_unseen_stock():
    rng = random.Random(5)
    checked = 0
    while checked < 20:
        deal = Deal.shuffled(rng)
        memory = Memory()
        GAME.show_steps([(0, memory)], [], new_deal=True)
        while deal.winner is None and checked < 20:
            GAME.show_steps([(0, memory)], deal.apply(deal.legal_actions()[0]))
            view = seat_view(deal, 0)
            unseen = [s for s in (0, 1) if memory.stocks[s] is None]
            if deal.winner is None and len(unseen) == 1 and 1 < view.stock_counts[unseen[0]] <= 4:
                positions = memory.positions(view, 24)
                orders = {tuple(p.stocks[unseen[0]]) for p in positions}
                assert len(orders) == len(positions) and tuple(deal.stocks[unseen[0]]) in orders
                assert all(p.discards == deal.discards for p in positions)
                checked += 1


def test_honesty_same_shown_history_same_decision():
    """Pairs of deals whose steps shown to the bot's seat are the same but whose unseen
    cards lie elsewhere: every level decides the same in both, in hundreds of pairs."""
    rng = random.Random(2026)
    pairs = 0
    names = ["memory-deep", "memory", "memory-4"]
    while pairs < 800:
        deck = [str(c) for c in DECK]
        rng.shuffle(deck)
        me, name = rng.randrange(2), names[pairs % len(names)]
        # A random history: both seats choosing at random, to a random choice of ours.
        deal, actions, seen_me = new_deal(deck), [], 0
        stop = rng.randrange(1, 40)
        deal.turn_while_forced()
        while deal.winner is None:
            if deal.turn == me:
                seen_me += 1
                if seen_me == stop:
                    break
            actions.append(rng.choice(deal.legal_actions()))
            deal.apply(actions[-1])
            if deal.winner is None:
                deal.turn_while_forced()
        if deal.winner is not None:
            continue
        shown = _shown_cards(deck, actions, me)
        unseen = [i for i, text in enumerate(deck) if text not in shown]
        if len(unseen) < 2:
            continue
        other = list(deck)
        moved = [deck[i] for i in unseen]
        while moved == [deck[i] for i in unseen]:
            rng.shuffle(moved)
        for i, text in zip(unseen, moved):
            other[i] = text
        decisions, histories = [], []
        for cards in (deck, other):
            bot = GAME.new_bot(name, me, random.Random(0))
            history = []
            recorder = _Recorder(history)
            deal = replay(new_deal(cards), actions, [(me, bot), (me, recorder)])
            histories.append(history)
            decisions.append(bot.choose(seat_view(deal, me)))
        assert histories[0] == histories[1]
        assert decisions[0] == decisions[1], (name, deck, actions)
        pairs += 1


class _Recorder:
    """Keeps every step shown to a seat."""

    def __init__(self, history):
        self.history = history

    def observe(self, shown, new_deal=False):
        self.history.append(("new deal",) if new_deal else ())
        self.history.extend(json.dumps(s, sort_keys=True) for s in shown)


class _CardsSeen:
    """Keeps the cards named in the steps shown to a seat."""

    def __init__(self):
        self.cards = set()

    def observe(self, shown, new_deal=False):
        self.cards.update(s[k] for s in shown for k in ("card", "onto") if s[k])


def _shown_cards(deck, actions, me) -> set:
    seen = _CardsSeen()
    replay(new_deal(deck), actions, [(me, seen)])
    return seen.cards


# -- the bots by name --------------------------------------------------------------------

def test_levels_name_bots_the_command_line_knows():
    assert list(GAME.levels.values()) == ["Easy", "Medium", "Hard"]
    assert next(iter(GAME.levels)) == GAME.computer == "always-give"
    for name in (*GAME.levels, "memory", "pass-one-in-ten"):
        assert name in GAME.bots
    with pytest.raises(UnknownBotError):
        GAME.new_bot("memory-99", 0)


def test_pass_one_in_ten_passes_up_about_one_give_in_ten():
    bot = GAME.new_bot("pass-one-in-ten", 0, random.Random(3))
    rng = random.Random(4)
    gives = passes = 0
    while gives + passes < 3000:
        deal = Deal.shuffled(rng)
        while deal.winner is None:
            deal.turn_while_forced()
            if deal.winner is not None:
                break
            action = bot.choose(seat_view(deal, deal.turn))
            if GIVE in deal.legal_actions():
                gives, passes = gives + (action == GIVE), passes + (action != GIVE)
            deal.apply(action)
    assert 0.07 < passes / (gives + passes) < 0.13


def test_hard_beats_always_give_in_a_short_run():
    rng = random.Random(8)
    wins = 0
    for n in range(60):
        hard = GAME.new_bot("memory-deep", n % 2, random.Random(n))
        easy = GAME.new_bot("always-give", 1 - n % 2, random.Random(n))
        deal = Deal.shuffled(rng, leader=0)
        play_deal(deal, [hard, easy] if n % 2 == 0 else [easy, hard])
        wins += deal.winner == n % 2
    assert wins >= 52


# -- the computer table ------------------------------------------------------------------

def test_computer_table_plays_the_chosen_level_and_remembers_for_you():
    """At every step of a whole deal, what the page shows as seen lists each discard pile as
    the table shows it (its count, its top card last): your memory took in every step."""
    import pishe.web as web

    answer = json.loads(web.new_match("one-deal", 4, "pishe-pasha", None, "memory-deep"))
    assert answer["settings"]["level"] == "memory-deep"
    assert [p["stock"] for p in answer["view"]["seen"]["places"]][0].startswith("Your stock: unknown")
    while True:
        view = answer["view"]
        places = view["seen"]["places"]
        assert [p["seat"] for p in places] == [0, 1]
        for place, pile in zip(places, view["discards"]):
            listed = place["next_stock"].split(": ", 1)[1]
            if pile["count"] == 0:
                assert "none yet" in listed
            else:
                cards = listed.split(" ")
                assert len(cards) == pile["count"] and cards[-1] == pile["top"]["label"], (place, pile)
        if view["deal_result"]:
            break
        call = web.computer_step if answer["computer_moves"] else lambda: web.act(view["legal"][0])
        answer = json.loads(call())
        assert "error" not in answer


def test_computer_table_refuses_a_level_the_game_has_not():
    import pishe.web as web

    assert "no such computer level" in json.loads(web.new_match("one-deal", 1, "pishe-pasha", None, "robot"))["error"]
    assert "no such computer level" in json.loads(web.new_match(None, 1, "pisti", None, "memory-deep"))["error"]
    assert json.loads(web.new_match(None, 1, "pisti", None, None))["view"].get("seen") is None


def test_seen_lists_each_stock_in_turning_order_once_known():
    from pishe.games.pasha.view import seen_json

    memory = Memory()
    memory.reset()
    memory.stocks[1] = [Card.parse("2C"), Card.parse("KH")]
    memory.discards[0] = [Card.parse("5D"), Card.parse("9S")]
    places = seen_json(memory, 0, ["You", "Computer"])["places"]
    assert places[0]["stock"] == "Your stock: unknown until your pile turns over"
    assert places[0]["next_stock"] == "Your next stock, first card first: 5♦ 9♠"
    assert places[1]["stock"] == "Computer's stock, next card first: K♥ 2♣"
    assert places[1]["next_stock"] == "Computer's next stock: none yet (the pile is empty)"
