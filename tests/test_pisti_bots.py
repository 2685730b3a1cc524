"""Pişti: what each seat may see (leak tests over many decks) and the bots."""

from __future__ import annotations

import json
import random
import re

from pishe.cards import DECK, Card
from pishe.games.pisti import GAME, Deck
from pishe.games.pisti.bots import BOTS, EasyBot, GreedyBot, Memory, SamplerBot, SkipperBot, greedy_card
from pishe.games.pisti import sampler as sampler_module
from pishe.games.pisti.sampler import holds_despite_passing
from pishe.games.pisti.cli import new_bots, play_deck
from pishe.games.pisti.deal import CAPTURE, PACKET
from pishe.games.pisti.view import seat_view, show_step

C = Card.parse
CODES = {str(c) for c in DECK}
CARD_OF = {str(c): c for c in DECK}
LABEL = re.compile(r"(10|[A2-9JQK])([♣♦♥♠])")
SYMBOL_SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def random_deck(rng):
    cards = list(DECK)
    rng.shuffle(cards)
    return cards


def named_in(data, found: set) -> set:
    """Every card a JSON value names by its code (labels such as the count's
    "2♣" row are names of rows, not cards shown)."""
    if isinstance(data, dict):
        for value in data.values():
            named_in(value, found)
    elif isinstance(data, list):
        for value in data:
            named_in(value, found)
    elif isinstance(data, str) and data in CODES:
        found.add(data)
    return found


def labelled_in(words: str) -> set:
    """Every card plain words name by its label ("7♥")."""
    return {rank + SYMBOL_SUIT[symbol] for rank, symbol in LABEL.findall(words)}


def shown_codes(shown: dict) -> list:
    found = []
    for key in ("card", "cards", "opening", "face_down"):
        value = shown.get(key)
        if isinstance(value, str):
            found.append(value)
        elif value:
            found += value
    return found


def view_cards(view) -> set:
    found = set(view.hand) | set(view.legal) | set(view.sent_under)
    if view.pile_top is not None:
        found.add(view.pile_top)
    for team in (0, 1):
        found.update(view.pishti[team])
        found.update(view.jack_pishti[team])
    if view.opening is not None:
        found.update(view.opening)
    return found


class StandInMatch:
    def __init__(self, deal):
        self.game, self.deal, self.deal_number, self.dealer = GAME, deal, 1, deal.dealer
        self.scores, self.over, self.winner, self.length, self.target = [0, 0], False, None, "101", 101


# Every play of every deck is checked, for all four seats: ~190,000 plays (10,000 decks took
# 24 s of the suite's time for little more).
DECKS = 500


def test_no_view_or_step_names_a_hidden_card_over_500_decks():
    """Every seat's view after every play, and every step as each seat sees it,
    checked against hidden_cards at that moment; the opening cards are seen by both
    partners of the team that took them and never by the other team. (A view's
    steps are these same shown steps, and hidden cards only ever become fewer, so
    each step is checked once, when it happens.)"""
    rng = random.Random(20)
    hidden_cards, card_of = GAME.hidden_cards, CARD_OF
    for n in range(DECKS):
        deck = GAME.new_deal(random_deck(rng), n & 3)
        new = deck.log
        while True:
            for seat in range(4):
                secret = hidden_cards(deck, seat)
                for step in new:
                    shown = show_step(step, seat)
                    assert not any(card_of[c] in secret for c in shown_codes(shown)), (n, step, seat)
                view = seat_view(deck, seat)
                assert view_cards(view).isdisjoint(secret), (n, seat)
                if deck.opening_team is None:
                    assert view.opening is None
                elif deck.opening_team == seat & 1:
                    assert view.opening == deck.face_down and secret.isdisjoint(deck.face_down)
                else:
                    assert view.opening is None and secret.issuperset(deck.face_down)
            if deck.over:
                break
            hand = deck.hands[deck.turn]
            new = deck.apply(hand[rng.randrange(len(hand))])
        assert deck.opening_team is not None


def test_no_view_json_names_a_hidden_card():
    """The whole JSON of every seat's view at every moment, words included."""
    rng = random.Random(21)
    for n in range(100):
        deck = GAME.new_deal(random_deck(rng), n & 3)
        match = StandInMatch(deck)
        new = deck.log
        while True:
            for seat in range(4):
                hidden = {str(c) for c in GAME.hidden_cards(deck, seat)}
                data = GAME.view(match, seat).to_json()
                assert named_in(data, set()).isdisjoint(hidden), (n, seat)
                for words in (data["status"], *data["since_last_turn"]):
                    assert labelled_in(words).isdisjoint(hidden), (n, seat, words)
                for step in new:
                    shown = GAME.show_step(step, seat)
                    assert named_in(shown, set()).isdisjoint(hidden)
                    assert labelled_in(GAME.describe(shown, seat)).isdisjoint(hidden)
            if deck.over:
                break
            hand = deck.hands[deck.turn]
            new = deck.apply(hand[rng.randrange(len(hand))])


def test_packet_and_opening_show_rules():
    rng = random.Random(22)
    for n in range(50):
        deck = GAME.new_deal(random_deck(rng), n & 3)
        play_deck(deck, [GAME.new_bot("random", s, random.Random(s)) for s in range(4)])
        for step in deck.log:
            for seat in range(4):
                shown = show_step(step, seat)
                if step.kind == PACKET:
                    assert ("cards" in shown) == (step.seat == seat)
                if step.kind == CAPTURE and step.cards:
                    assert ("opening" in shown) == (seat & 1 == step.team)
                assert "face_down" not in shown


# -- greedy -------------------------------------------------------------------------------------

def test_greedy_rules():
    hand = [C(t) for t in ("2C", "2D", "JS")]
    seen = [0] * 14
    assert greedy_card(hand, C("2H"), 3, seen) is C("2C")          # highest value of the top's rank
    assert greedy_card([C("AC"), C("AD")], C("AS"), 1, seen) is C("AC")   # ties: first in card order
    assert greedy_card(hand, C("5H"), 2, seen) is C("JS")          # a pile worth a jack
    assert greedy_card(hand, C("AH"), 1, seen) is C("JS")          # a top card with a value
    assert greedy_card(hand, C("5H"), 1, seen) is C("2D")          # else shed: fewest unaccounted, lower value
    assert greedy_card([C("JC"), C("JH")], None, 0, seen) is C("JC")
    assert greedy_card([C("JC"), C("JH")], C("JD"), 1, seen) is C("JC")
    seen[9] = 3
    assert greedy_card([C("3C"), C("9D"), C("KS")], C("5H"), 1, seen) is C("9D")  # one 9 left, in hand: 0 out
    assert greedy_card([C("3C"), C("3D"), C("KS")], None, 0, [0] * 14) is C("3C")  # two 3s: 2 out
    assert greedy_card([C("AC"), C("KS")], None, 0, [0] * 14) is C("KS")          # same count, lower value


def test_greedy_from_views_equals_greedy_on_the_deck():
    """The view bot's memory gives greedy exactly the seen counts the deck keeps."""
    rng = random.Random(23)
    for n in range(200):
        deck = GAME.new_deal(random_deck(rng), n & 3)
        bots = [GreedyBot(s) for s in range(4)]
        while not deck.over:
            seat = deck.turn
            card = bots[seat].choose(seat_view(deck, seat))
            pile = deck.pile
            assert card is greedy_card(deck.hands[seat], pile[-1] if pile else None, len(pile), deck.seen)
            assert bots[seat].memory.seen == deck.seen
            deck.apply(card, seat)


def test_four_greedy_seats_are_deterministic():
    """A fixed deck played by four greedy seats gives a fixed result (pinned)."""
    shuffled = random_deck(random.Random(2024))
    results = []
    for bot_seed in (1, 2):
        deck = GAME.new_deal(shuffled, 3)
        steps = play_deck(deck, [GAME.new_bot("greedy", s, random.Random(bot_seed)) for s in range(4)])
        plays = " ".join(str(s.card) for s in steps if s.kind in ("play", "capture", "pishti"))
        results.append((deck.team_points(), [len(t) for t in deck.taken], len(deck.pishti[0]), plays))
    assert results[0] == results[1] == (
        [24, 2], [43, 9], 1,
        "4D 2S 7S 5C 7D 3D 8H 5S KC 6H AD 9D AH 9H 10D 9S JD 7H 7C 2H AS 2D 2C 4C QD 8D 5D QS JH KS 3S "
        "10S JS 6D 3C 9C 4H JC 3H AC 6C 6S 4S 8C KH 10H 10C KD")


def test_greedy_beats_random_clearly():
    from pishe.games.pisti.cli import tournament
    result = tournament(GAME, "greedy", "random", 200, seed=3)
    assert result["ci95"][0] > 8


# -- the sampler -----------------------------------------------------------------------------------

def test_sampler_memory_and_samples_agree_with_the_deck():
    """Against greedy seats the sampler's memory matches the deck (pile, takings, lacked
    ranks) and every sampled deck holds the 52 cards with what the seat knows in place."""
    rng = random.Random(24)
    checked = dealt = doubted = 0
    for n in range(28):
        deck = GAME.new_deal(random_deck(rng), n & 3)
        bots = new_bots(["sampler", "greedy", "greedy", "greedy"], rng)
        while not deck.over:
            seat = deck.turn
            view = seat_view(deck, seat)
            card = bots[seat].choose(view)
            if seat == 0:
                memory = bots[0].memory
                assert memory.complete
                assert len(memory.pile) == len(deck.pile)
                for m, c in zip(memory.pile, deck.pile):
                    assert m is c or (m is None and c in deck.face_down)
                for team in (0, 1):
                    assert len(memory.taken[team]) == len(deck.taken[team])
                    assert {c for c in memory.taken[team] if c is not None} <= set(deck.taken[team])
                    unknown = memory.taken[team].count(None)
                    assert unknown == (3 if deck.opening_team == team == 1 else 0)
                for other in (1, 2, 3):
                    for c in deck.hands[other]:
                        assert c.rank not in memory.lacks[other]     # greedy seats never bluff
                    assert memory.skips[other] == 0
                samples = bots[0].sample(view, 4)
                assert samples is not None
                for sample in samples:
                    sample.check()
                    assert sample.hands[0] == deck.hands[0]
                    assert [len(h) for h in sample.hands] == [len(h) for h in deck.hands]
                    assert len(sample.stock) == len(deck.stock) and sample.pile[-1:] == deck.pile[-1:]
                    assert sample.stock[:len(deck.sent_under)] == deck.stock[:len(deck.sent_under)] \
                        if deck.stock else True
                    assert sample.seen == deck.seen and sample.played == deck.played
                    assert sample.last_capture == deck.last_capture
                    for other in (1, 2, 3):
                        dealt += 1
                        doubted += bool({c.rank for c in sample.hands[other]} & set(memory.lacks[other]))
                checked += 1
            deck.apply(card, seat)
    assert checked > 280
    # Seats that never passed up a capture are believed: rarely dealt a rank they passed on.
    assert doubted < 0.02 * dealt


def test_memory_resets_at_a_new_deck_and_notes_gaps():
    rng = random.Random(25)
    bot = SamplerBot(0, random.Random(1))
    for dealer in (3, 0):
        deck = GAME.new_deal(random_deck(rng), dealer)
        others = [GreedyBot(s) for s in range(4)]
        while not deck.over:
            seat = deck.turn
            view = seat_view(deck, seat)
            card = (bot if seat == 0 else others[seat]).choose(view)
            deck.apply(card, seat)
        assert bot.memory.complete and bot.memory.seen[deck.up.rank] >= 1
    # A bot taking a seat in the middle of a deck knows it missed steps, and plays greedy's card.
    deck = GAME.new_deal(random_deck(rng), 3)
    for _ in range(9):
        deck.apply(deck.legal_actions()[0])
    late = SamplerBot(deck.turn, random.Random(2))
    view = seat_view(deck, deck.turn)
    card = late.choose(view)
    assert not late.memory.complete and card in view.legal
    assert isinstance(late.memory, Memory)


def test_sampler_is_reproducible_and_keeps_to_its_budget(monkeypatch):
    """The same seeds give the same deck; each decision plays out at most ``max_samples``
    deals per candidate, and no more engine plays than its budget allows (its cost, counted
    in steps rather than seconds)."""
    counted = []
    playout = sampler_module.playout_points

    def counting(deck, card, team):
        before = deck.played
        points = playout(deck, card, team)
        counted[-1][0] += 1
        counted[-1][1] += deck.played - before      # the candidate's own play too
        return points
    monkeypatch.setattr(sampler_module, "playout_points", counting)
    shuffled = random_deck(random.Random(26))
    runs = []
    for _ in range(2):
        deck = GAME.new_deal(shuffled, 3)
        bots = [SamplerBot(0, random.Random(5)), GreedyBot(1), SamplerBot(2, random.Random(6)), GreedyBot(3)]
        for seat in (0, 2):
            choose = bots[seat].choose

            def choose_counted(view, choose=choose):
                counted.append([0, 0])
                return choose(view)
            bots[seat].choose = choose_counted
        play_deck(deck, bots)
        runs.append(deck.log)
    assert runs[0] == runs[1]
    bot = SamplerBot(0, random.Random(0))
    assert any(playouts for playouts, _ in counted)
    for playouts, plays in counted:
        assert playouts <= 4 * bot.max_samples
        assert plays <= max(bot.budget, 4 * bot.samples * 48) and plays <= 4 * bot.max_samples * 48


# -- the levels and the other bots ---------------------------------------------------------------

def test_levels_are_easy_medium_hard_and_name_known_bots():
    assert GAME.levels == {"easy": "Easy", "greedy": "Medium", "sampler": "Hard"}
    assert GAME.computer == "sampler"      # chosen at first, the computer before levels
    assert all(name in BOTS for name in GAME.levels)


def hand_view(hand, top=None, count=0):
    """What EasyBot reads of a view: its hand and the pile."""
    from types import SimpleNamespace
    return SimpleNamespace(hand=tuple(C(t) for t in hand), pile_top=None if top is None else C(top),
                           pile_count=count)


def test_easy_sometimes_throws_a_jack_away():
    """Onto an empty pile, greedy would shed the 5; Easy sometimes throws its jack instead,
    but mostly not, and always the same way for the same generator."""
    view = hand_view(["5C", "JD", "KS"])
    cards = [EasyBot(0, random.Random(n)).choose(view) for n in range(400)]
    jacks = cards.count(C("JD"))
    assert 40 <= jacks <= 130
    assert set(cards) == {C("JD"), C("5C")}
    assert cards == [EasyBot(0, random.Random(n)).choose(view) for n in range(400)]


def test_easy_forgets_what_was_played():
    """Greedy sheds the rank most of whose copies were seen; Easy, remembering nothing, sheds
    by its hand alone: here the pair of 4s it holds, whatever was played."""
    seen = [0] * 14
    seen[9] = 3                                     # three 9s played: greedy's 9 is safe to shed
    assert greedy_card([C("4C"), C("4D"), C("9S")], C("KH"), 1, seen) is C("9S")
    cards = {EasyBot(0, random.Random(n), throw=0.0).choose(hand_view(["4C", "4D", "9S"], "KH", 1))
             for n in range(50)}
    assert cards == {C("4C")}


def test_easy_sometimes_overlooks_a_capture():
    view = hand_view(["7C", "9D"], "7H", 3)
    cards = [EasyBot(0, random.Random(n), throw=0.0).choose(view) for n in range(1000)]
    assert 0 < cards.count(C("9D")) < 150 and cards.count(C("7C")) > 850


def test_skipper_passes_up_about_one_capture_in_six():
    rng = random.Random(30)
    chances = skipped = 0
    for n in range(60):
        deck = GAME.new_deal(random_deck(rng), n & 3)
        bots = [SkipperBot(s, random.Random(100 * n + s)) for s in range(4)]
        while not deck.over:
            seat = deck.turn
            view = seat_view(deck, seat)
            card = bots[seat].choose(view)
            greedy = greedy_card(view.hand, view.pile_top, view.pile_count, bots[seat].memory.seen)
            top = view.pile_top
            if top is not None and (greedy.rank in (top.rank, 11)) and any(
                    c.rank not in (top.rank, 11) for c in view.hand):
                chances += 1
                skipped += card != greedy
                if card != greedy:
                    assert card.rank not in (top.rank, 11)
            else:
                assert card == greedy
            deck.apply(card, seat)
    assert chances > 400 and 0.12 < skipped / chances < 0.22


def play(seat, card, pile):
    return {"kind": "play", "seat": seat, "card": card, "pile": pile}


def test_memory_sees_a_skipped_capture_when_the_rank_is_played():
    """A seat that did not take a 2 with a 2 is noted as lacking 2s; when it plays a 2
    before its next packet, it had passed the capture up: counted as a skip, no longer lacking."""
    from types import SimpleNamespace
    steps = [{"kind": "opening", "seat": 3, "card": "7H", "count": 4},
             play(0, "2C", 5), play(1, "3C", 6), play(2, "4C", 7), play(3, "5C", 8),
             play(0, "6C", 9), play(1, "2D", 10)]
    memory = Memory()
    memory.update(SimpleNamespace(first_step=0, steps=steps[:3], hand_counts=(3, 3, 4, 4)))
    assert memory.lacks[1] == {2: 1} and memory.skips == [0, 0, 0, 0]
    memory.update(SimpleNamespace(first_step=0, steps=steps, hand_counts=(2, 2, 3, 3)))
    assert memory.lacks[1] == {6: 1} and memory.skips[1] == 1 and memory.takes == [0, 0, 0, 0]
    # A new packet wipes what the seat lacked; skips stay with the seat, deck after deck.
    memory.update(SimpleNamespace(first_step=0, steps=steps[:1] + [{"kind": "packet", "seat": 1, "count": 4}],
                                  hand_counts=(4, 4, 4, 4)))
    assert memory.lacks[1] == {} and memory.skips[1] == 1


def test_inference_doubts_a_pass_by_how_often_the_seat_skips():
    """A seat that has never skipped is believed; one that skips one capture in six is
    dealt the rank it passed on about as often as Bayes' rule says."""
    never = holds_despite_passing(0, 40, 1, unseen=30, copies=2, hand=3)
    often = holds_despite_passing(8, 40, 1, unseen=30, copies=2, hand=3)
    twice = holds_despite_passing(8, 40, 2, unseen=30, copies=2, hand=3)
    assert never < 0.005 < twice < often < 0.1
    assert holds_despite_passing(8, 40, 1, unseen=30, copies=0, hand=3) == 0.0
    # Played against skippers, the sampler learns their rate and deals them passed-on ranks.
    rng = random.Random(31)
    doubted = 0
    bot = SamplerBot(0, random.Random(3), tries=1)     # the passes alone (no other plays weighed)
    for n in range(30):
        deck = GAME.new_deal(random_deck(rng), n & 3)
        bots = [bot] + [SkipperBot(s, random.Random(s + 10 * n)) for s in (1, 2, 3)]
        while not deck.over:
            seat = deck.turn
            view = seat_view(deck, seat)
            if seat == 0:
                bot.memory.update(view)
                samples = bot.sample(view, 8) or []
                for sample in samples:
                    for other in (1, 2, 3):
                        doubted += bool({c.rank for c in sample.hands[other]} & set(bot.memory.lacks[other]))
            deck.apply(bots[seat].choose(view), seat)
    assert sum(bot.memory.skips) > 10
    assert doubted > 0
    # The certain sampler, as before, never deals a seat a rank it passed on.
    certain = SamplerBot(0, random.Random(3), certain=True)
    certain.memory = bot.memory
    assert all(v == 0.0 for seat in certain.doubts(None, list(DECK[:20]), {1: 3, 2: 3, 3: 3}).values()
               for v in seat.values())


def test_views_json_is_stable_for_bots_too():
    deck = GAME.new_deal(random_deck(random.Random(27)), 1)
    view = GAME.view(StandInMatch(deck), 2)
    text = json.dumps(view.to_json(), ensure_ascii=False)
    assert json.loads(text) == view.to_json()
    assert isinstance(deck, Deck)


def test_every_level_plays_pisti_for_two():
    """Pişti for two gets the same levels: each bot plays two-seat decks from its views,
    legal cards only, the same deck again for the same seeds; the sampler's guesses hold
    the 52 cards in two hands, its own as dealt, the other's count right."""
    from pishe.games.pisti import GAMES
    game = next(g for g in GAMES if g.seats == 2)
    assert game.levels == GAME.levels
    rng = random.Random(32)
    sampled = 0
    for names in (("sampler", "greedy"), ("easy", "sampler"), ("skipper", "easy")):
        for n in range(3):
            cards = random_deck(rng)
            logs = []
            for _ in range(2):
                deck = game.new_deal(cards, n & 1)
                bots = [game.new_bot(name, s, random.Random(10 * n + s)) for s, name in enumerate(names)]
                while not deck.over:
                    seat = deck.turn
                    view = seat_view(deck, seat)
                    bot = bots[seat]
                    card = bot.choose(view)
                    assert card in view.legal
                    if isinstance(bot, SamplerBot) and len(view.hand) > 1 and not logs:
                        state = bot.rng.getstate()       # looking leaves its next choices alone
                        samples = bot.sample(view, 2)
                        bot.rng.setstate(state)
                        for sample in samples:
                            sample.check()
                            assert sample.hands[seat] == deck.hands[seat]
                            assert [len(h) for h in sample.hands] == [len(h) for h in deck.hands]
                            assert len(sample.stock) == len(deck.stock)
                            sampled += 1
                    deck.apply(card, seat)
                logs.append(deck.log)
            assert logs[0] == logs[1]
    assert sampled > 60


def test_memory_counts_how_often_each_seat_plays_greedys_card():
    """Once a seat has played its whole packet, each hand it held is known: greedy seats
    always played greedy's card, a random one often did not."""
    rng = random.Random(8)
    bot = GreedyBot(0)
    for n in range(2):
        deck = GAME.new_deal(random_deck(rng), n & 3)
        bots = [bot, GreedyBot(1), BOTS["random"](2, random.Random(n)), GreedyBot(3)]
        play_deck(deck, bots)
    memory = bot.memory
    assert memory.differ[1] == memory.differ[3] == 0 < min(memory.agree[1], memory.agree[3])
    assert memory.differ[2] > 5


def test_sampler_deals_hands_greedy_would_have_played_so():
    """Dealing a guess again when a seat's plays since its packet would not have been greedy's
    with that hand: with tries, far more guessed hands of greedy seats fit their plays."""
    from pishe.games.pisti.sampler import misplays
    fitting = {}
    for tries in (1, 12):
        rng = random.Random(5)
        bot = SamplerBot(0, random.Random(3), tries=tries)
        fit = total = 0
        for n in range(2):
            deck = GAME.new_deal(random_deck(rng), n & 3)
            bots = [bot, GreedyBot(1), GreedyBot(2), GreedyBot(3)]
            while not deck.over:
                seat = deck.turn
                view = seat_view(deck, seat)
                if seat == 0 and len(view.hand) in (2, 3):
                    bot.memory.update(view)
                    for sample in bot.sample(view, 4) or []:
                        for other in (1, 2, 3):
                            if bot.memory.since[other]:
                                total += 1
                                fit += misplays(sample.hands[other], bot.memory.since[other]) == 0
                deck.apply(bots[seat].choose(view), seat)
        fitting[tries] = fit / total
    assert fitting[12] > fitting[1] + 0.25
