"""Batak (SPEC-BATAK.md): the deal, the auction, trumps, the rules of play and their named
errors, scoring, the views and their words, and the Hard computer's honesty."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from pishe.cards import DECK, Card
from pishe.errors import NotYourTurnError
from pishe.games.batak.deal import (BidTooHighError, BidTooLowError, CardNotInHandError, Deal, MustBeatError,
                                    MustFollowSuitError, MustOverTrumpError, MustTrumpError, NotBiddingNowError,
                                    NotPlayingNowError, NotTrumpsNowError, OutOfAuctionError, POWER,
                                    TrumpsNotBrokenError)
from pishe.lang import set_language
from pishe.table.game import get_game, names_card
from pishe.table.match import Match, shuffled_deck

BATAK, ESLI = get_game("batak"), get_game("batak-esli")


def cards(text: str) -> list:
    return [Card.parse(t) for t in text.split()]


def deck_for(hands: list, dealer: int = 3) -> list:
    """The deck (bottom to top) that deals ``hands`` (by seat, 13 each, in the order dealt)."""
    top_first = [hands[(dealer + 1 + i) % 4][i // 4] for i in range(52)]
    return list(reversed(top_first))


HANDS = [cards("AS KS QS JS 10S 9S 8S AH KH QH 8C 4C 3C"),
         cards("JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AD KD QD"),
         cards("AC KC QC JC 10C 9C 2C 6S 3S JD 10D 9D 8D"),
         cards("7S 5S 4S 2S 7D 6D 5D 4D 3D 2D 7C 6C 5C")]


def act(deal: Deal, seat: int, text: str, game=BATAK) -> list:
    return deal.apply(game.parse_action(text), seat)


def refused(deal: Deal, seat: int, text: str, error, game=BATAK) -> None:
    before = pickle.dumps(deal)
    with pytest.raises(error):
        act(deal, seat, text, game)
    assert pickle.dumps(deal) == before


def test_the_deal_goes_one_card_at_a_time_from_the_top_starting_after_the_dealer():
    deck = shuffled_deck(random.Random(4))
    deal = Deal.deal(deck, 1)
    top_first = deck[::-1]
    for seat in range(4):
        assert set(deal.hands[seat]) == set(top_first[(seat - 2) % 4::4])
    assert deal.opener == 2 and deal.turn == 3 and deal.auction == [(2, 4)]
    assert all(set(Deal.deal(deck_for(HANDS), 3).hands[s]) == set(HANDS[s]) for s in range(4))


def test_a_scripted_deal_meets_every_rule_and_named_error():
    deal = Deal.deal(deck_for(HANDS), 3)
    assert deal.legal_actions()[0] == "pass" and deal.legal_actions()[1] == "bid 5"
    refused(deal, 1, "bid 4", BidTooLowError)
    refused(deal, 1, "bid 14", BidTooHighError)
    refused(deal, 1, "AD", NotPlayingNowError)
    refused(deal, 1, "trump S", NotTrumpsNowError)
    refused(deal, 2, "bid 5", NotYourTurnError)
    act(deal, 1, "bid 5")
    act(deal, 2, "pass")
    refused(deal, 2, "bid 6", OutOfAuctionError)
    act(deal, 3, "pass")
    act(deal, 0, "bid 6")
    steps = act(deal, 1, "pass")
    assert [s.kind for s in steps] == ["pass", "won"]
    assert (deal.declarer, deal.contract, deal.turn) == (0, 6, 0)
    refused(deal, 0, "bid 7", NotBiddingNowError)
    act(deal, 0, "trump S")
    # Trick 1: no trump led before trumps are broken; follow suit; trump when void; over-trump.
    refused(deal, 0, "AS", TrumpsNotBrokenError)
    refused(deal, 0, "2C", CardNotInHandError)
    act(deal, 0, "QH")
    refused(deal, 1, "AD", MustFollowSuitError)
    act(deal, 1, "2H")                      # none of its hearts beats the queen: any heart
    refused(deal, 2, "AC", MustTrumpError)
    act(deal, 2, "6S")
    refused(deal, 3, "2D", MustTrumpError)
    refused(deal, 3, "2S", MustOverTrumpError)
    assert deal.legal_actions() == tuple(cards("7S"))
    steps = act(deal, 3, "7S")
    assert steps[-1].kind == "trick" and steps[-1].seat == 3 and deal.tricks == [0, 0, 0, 1] and deal.broken
    # Trick 2: following must beat the suit led's highest when it can.
    act(deal, 3, "5C")
    refused(deal, 0, "3C", MustBeatError)
    act(deal, 0, "8C")
    act(deal, 1, "QD")                      # void in clubs and in trumps: any card
    refused(deal, 2, "2C", MustBeatError)
    act(deal, 2, "9C")
    assert deal.turn == 2 and deal.tricks == [0, 0, 1, 1]
    # Trumps broken: a trump may be led.
    assert Card.parse("3S") in deal.legal_actions()


def test_a_trick_holding_a_trump_lets_the_suit_led_be_followed_with_any_card():
    deal = Deal.deal(deck_for(HANDS), 3)
    for seat, text in ((1, "pass"), (2, "pass"), (3, "pass"), (0, "trump H")):
        act(deal, seat, text)
    assert (deal.declarer, deal.contract) == (0, 4)          # everyone passed: the opener at the minimum
    act(deal, 0, "8C")
    assert deal.legal_actions() == tuple(cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH"))   # void in clubs: trumps
    act(deal, 1, "2H")
    assert deal.legal_actions() == tuple(cards("2C 9C 10C JC QC KC AC"))   # a trump is in: any club
    act(deal, 2, "2C")
    assert deal.legal_actions() == tuple(cards("5C 6C 7C"))


def test_a_bid_of_thirteen_ends_the_auction_and_passes_are_final():
    deal = Deal.deal(deck_for(HANDS), 3)
    act(deal, 1, "bid 13")
    assert deal.phase == "trump" and (deal.declarer, deal.contract) == (1, 13)
    deal = Deal.deal(deck_for(HANDS), 3, partners=True)
    assert deal.auction == [(0, 7)] and deal.legal_actions()[1] == "bid 8"
    act(deal, 1, "bid 8", ESLI)
    act(deal, 2, "bid 9", ESLI)
    act(deal, 3, "pass", ESLI)
    act(deal, 0, "bid 10", ESLI)          # partners may outbid each other
    act(deal, 1, "pass", ESLI)
    assert deal.turn == 2                 # seat 3 passed: it is skipped
    act(deal, 2, "pass", ESLI)
    assert (deal.declarer, deal.contract, deal.phase) == (0, 10, "trump")


def _play(game, seed: int) -> Deal:
    rng = random.Random(seed)
    deal = game.new_deal(shuffled_deck(rng), rng.randrange(4))
    while not deal.over:
        deal.apply(rng.choice(deal.legal_actions()), deal.turn)
    return deal


@pytest.mark.parametrize("game", [BATAK, ESLI], ids=["batak", "esli"])
def test_every_deal_ends_with_the_cards_conserved_and_scored_by_the_rules(game):
    downs = 0
    for seed in range(150):
        deal = _play(game, seed)
        assert sorted(deal.played, key=str) == sorted(DECK, key=str) and not any(deal.hands)
        assert sum(deal.tricks) == 13
        tricks = deal.team_tricks()
        side = deal.team(deal.declarer)
        points = deal.team_points()
        for team, got in enumerate(points):
            if team != side:
                assert got == tricks[team]
        made = tricks[side] >= deal.contract
        assert points[side] == (tricks[side] if made else -deal.contract)
        downs += not made
    assert downs


@pytest.mark.parametrize("game", [BATAK, ESLI], ids=["batak", "esli"])
def test_no_view_names_another_seats_cards_not_even_the_partners(game):
    for seed in range(15):
        match = Match(game, None, random.Random(seed))
        rng = random.Random(seed)
        while True:
            for seat in range(4):
                others = {str(c) for s in range(4) if s != seat for c in match.deal.hands[s]}
                data = game.view(match, seat).to_json()
                assert not names_card(data, others)
                assert {c["code"] for c in data["hand"]} == {str(c) for c in match.deal.hands[seat]}
            if match.deal.over:
                break
            match.apply(rng.choice(match.deal.legal_actions()), match.deal.turn)


@pytest.mark.parametrize("language", ["en", "tr"])
@pytest.mark.parametrize("game", [BATAK, ESLI], ids=["batak", "esli"])
def test_views_are_made_anew_from_their_data_in_both_languages(game, language):
    set_language(language)
    try:
        for seed in range(6):
            match = Match(game, "4", random.Random(seed))
            rng = random.Random(seed + 50)
            while not match.over:
                for seat in range(4):
                    data = game.view(match, seat).to_json()
                    assert game.reword(json.loads(json.dumps(data))) == data
                if match.deal.over:
                    match.next_deal()
                else:
                    match.apply(rng.choice(match.deal.legal_actions()), match.deal.turn)
            data = game.view(match, 0).to_json()
            result = data["deal_result"]
            assert len(result["history"]) == 4 and result["total"]["values"] == [str(s) for s in match.scores]
            assert data["match"]["result"] and data["status"]
    finally:
        set_language("en")


def test_each_step_reads_naturally_to_each_seat_in_batak_words():
    deal = Deal.deal(deck_for(HANDS), 3)
    steps = [*act(deal, 1, "bid 6"), *act(deal, 2, "pass"), *act(deal, 3, "pass"), *act(deal, 0, "pass"),
             *act(deal, 1, "trump D")]
    words = BATAK.words(steps, 0)
    assert [str(w) for w in words] == ["Right bids 6", "Across passes", "Left passes", "You pass",
                                       "Right wins the auction at 6", "Right names trumps: diamonds ♦"]
    set_language("tr")
    try:
        assert [str(w) for w in BATAK.words(steps, 1)] == [
            "Sen 6 dedin", "Sağdaki pas dedi", "Karşıdaki pas dedi", "Soldaki pas dedi", "İhaleyi sen aldın: 6",
            "Kozu sen seçtin: karo ♦"]
    finally:
        set_language("en")
    shown = {"kind": "score", "seat": 3, "contract": 7, "made": 5, "points": [2, 3, 3, -7]}
    assert BATAK.describe(shown, 0) == "Left goes down: 5 tricks of 7"
    assert BATAK.describe({"kind": "trick", "seat": 0, "cards": ["2S", "KS", "3S", "4S"], "card": "KS",
                           "count": 1}, 0) == "You take the trick with the K♠"


def test_a_timed_out_seat_passes_and_plays_its_lowest_legal_card():
    deal = Deal.deal(deck_for(HANDS), 3)
    assert deal.legal_actions()[0] == "pass"
    for seat, text in ((1, "pass"), (2, "pass"), (3, "pass"), (0, "trump S")):
        act(deal, seat, text)
    assert deal.legal_actions()[0] == Card.parse("3C")


def test_a_match_ends_after_its_deals_and_a_tie_at_the_top_is_drawn_by_name():
    assert list(BATAK.lengths) == ["8", "4", "12"]
    match = Match(BATAK, "4", random.Random(1))
    from pishe.games.batak.view import match_info
    from types import SimpleNamespace
    fake = SimpleNamespace(game=BATAK, length="4", deal_number=4, dealer=2, results=[[3, 5, 5, 0]], over=True,
                           deal=SimpleNamespace(over=True))
    info = match_info(fake, 0)
    assert info["drawn"] == [1, 2] and info["winner"] is None
    assert info["result"] == "The match is drawn at 5 between Right, Across"
    assert match.game.match_over(BATAK.lengths["4"], [0, 0, 0, 0], 4)


def test_hard_decides_the_same_on_deals_that_differ_only_in_cards_it_cannot_see():
    rng = random.Random(9)
    for trial in range(6):
        deck = shuffled_deck(rng)
        deal = Deal.deal(deck, 3)
        # Swap the hands of two other seats: seat 1 (Hard, first to bid) sees the same.
        other = Deal.deal(deck, 3)
        other.hands[2], other.hands[3] = other.hands[3], other.hands[2]
        for s, h in enumerate(other.log[:4]):
            other.log[s] = h._replace(cards=tuple(other.hands[h.seat]))
        choices = []
        for d in (deal, other):
            bot = BATAK.new_bot("hard", 1, random.Random(trial))
            from pishe.games.batak.view import seat_view
            choices.append(bot.choose(seat_view(d, 1)))
        assert choices[0] == choices[1]


def test_the_deals_hard_samples_in_play_are_ones_where_the_baselines_did_all_they_did():
    """Nearly all: the chain of swaps leaves a few sampled deals breaking something seen, where
    it found no fitting one within its steps (about 4% over whole tournaments; README)."""
    from pishe.games.batak.baseline import BaselineBot
    from pishe.games.batak.deal import BID, CARD, CARD_OF, PASSED, TRUMPS
    from pishe.games.batak.view import seat_view
    rng = random.Random(4)
    fits = []
    for trial in range(3):
        deck = shuffled_deck(rng)
        deal = Deal.deal(deck, 3)
        bots = [BATAK.new_bot("hard" if s == 0 else "baseline", s, random.Random(trial)) for s in range(4)]
        # Play to Hard's turn in the seventh trick, with a choice to make.
        while len(deal.played) < 24 or deal.turn != 0 or len(deal.legal_actions()) < 2:
            deal.apply(bots[deal.turn].choose(seat_view(deal, deal.turn)), deal.turn)
        actions = [(step.seat, step) for step in deal.log if step.kind in (BID, PASSED, TRUMPS, CARD)]
        for sampled in bots[0].play_deals(seat_view(deal, 0), 12):
            # Each seat's sampled hand with the cards it played: the hands as dealt.
            hands = [[CARD_OF[c] for c in sampled[s]] + [step.card for seat, step in actions
                                                         if seat == s and step.kind == CARD]
                     for s in range(4)]
            assert sorted(map(str, sum(hands, []))) == sorted(map(str, DECK))
            replay = Deal.deal(deck_for(hands), 3)
            others = {s: BaselineBot(s) for s in (1, 2, 3)}
            fit = True
            for seat, step in actions:
                action = (step.card if step.kind == CARD else "pass" if step.kind == PASSED
                          else f"bid {step.bid}" if step.kind == BID else f"trump {step.suit}")
                fit = fit and (seat not in others or others[seat].choose(seat_view(replay, seat)) == action)
                replay.apply(action, seat)
            fits.append(fit)
    assert sum(fits) >= len(fits) * 5 / 6, f"{fits.count(False)} of {len(fits)} sampled deals break something seen"


def _bits(cards) -> int:
    from pishe.games.batak.deal import CODE
    return sum(1 << CODE[c] for c in cards)


def _drawing_lead(hand, trump, played):
    """Hard's declarer's lead in its play-outs: its highest trump when that is the master, trumps
    are broken and some are still out; else the baseline's lead."""
    from pishe.games.batak.baseline import baseline_lead, is_master
    trumps = [c for c in hand if c.suit == trump]
    out = [c for c in DECK if c.suit == trump and c not in hand and c not in played]
    if trumps and out and any(c.suit == trump for c in played):
        top = max(trumps, key=POWER.__getitem__)
        if is_master(top, hand, set(played)):
            return top
    return baseline_lead(hand, trump, set(played))


@pytest.mark.parametrize("drawing", [False, True], ids=["baselines", "the declarer drawing trumps"])
def test_hards_play_outs_on_bits_agree_with_the_engine(drawing):
    """The play-outs take the tricks the engine's deal takes from every position on the way, every
    seat playing the baseline's way, the declarer (when ``drawing``) drawing trumps as Hard does."""
    from pishe.games.batak.baseline import baseline_follow, baseline_lead
    from pishe.games.batak.deal import CODE, SUIT_CODE
    from pishe.games.batak.hard import play_out
    rng = random.Random(5)
    for _trial in range(300):
        deal = Deal.deal(shuffled_deck(rng), rng.randrange(4))
        for _ in range(3):
            deal.apply("pass")
        deal.apply(f"trump {rng.choice('CDHS')}")
        drawer = deal.declarer if drawing else -1
        # Random cards for a while (trumps led, tricks taken anyhow), then the rules above to the end.
        for _ in range(rng.randrange(52)):
            deal.apply(rng.choice(deal.legal_actions()))
        positions = []
        while not deal.over:
            leader = deal.trick[0][0] if deal.trick else deal.turn
            positions.append(([_bits(h) for h in deal.hands], [CODE[c] for _, c in deal.trick], leader,
                              list(deal.tricks), _bits(deal.played)))
            hand, trick = deal.hands[deal.turn], deal.trick_cards()
            deal.apply(baseline_follow(deal.legal_actions(), trick, deal.trump) if trick
                       else _drawing_lead(hand, deal.trump, deal.played) if deal.turn == drawer
                       else baseline_lead(hand, deal.trump, set(deal.played)))
        for hands, trick, leader, tricks, seen in positions:
            assert play_out(hands, trick, leader, SUIT_CODE[deal.trump], tricks, seen, drawer) == deal.tricks


def test_hards_rules_on_bits_are_the_baselines():
    from pishe.cards import SUITS
    from pishe.games.batak.baseline import baseline_lead, baseline_trump, estimate
    from pishe.games.batak.deal import CARD_OF, trump_text
    from pishe.games.batak.hard import _estimate, _lead, _trump_code
    rng = random.Random(6)
    for _trial in range(1000):
        deck = shuffled_deck(rng)
        size = rng.randint(1, 13)
        hand, gone = deck[:size], set(deck[size:size + rng.randrange(53 - size)])
        bits = _bits(hand)
        for partners in (False, True):
            assert _estimate(bits, partners) == estimate(hand, partners)
        assert trump_text(SUITS[_trump_code(bits)]) == baseline_trump(hand)
        for t, trump in enumerate(SUITS):
            assert CARD_OF[_lead(bits, t, _bits(gone)).bit_length() - 1] == baseline_lead(hand, trump, gone)


def test_hards_chains_draw_the_numbers_randrange_draws():
    from pishe.games.batak.hard import _below
    mine, python = random.Random(7), random.Random(7)
    sizes = [1, 2, 3, 5, 6, 12, 13] * 50
    assert [_below(mine.getrandbits, n) for n in sizes] == [python.randrange(n) for n in sizes]


def test_hards_auction_plays_out_the_others_baseline_bids_against_each_limit_of_its_own():
    from pishe.games.batak.hard import _auction_end
    # Seat 0 opened at 4; Hard (seat 1) to speak; the others' hands are worth 6, 3 and 5 to the baseline.
    values = [6, None, 3, 5]
    assert _auction_end(values, set(), 4, 1, 4) == (0, 6)     # Hard passes: 3 passes, 3 bids 5, 0 bids 6
    assert _auction_end(values, set(), 4, 1, 6) == (0, 6)     # Hard bids 5, then cannot top 0's 6
    assert _auction_end(values, set(), 4, 1, 7) == (1, 7)     # Hard tops 0's 6 with 7
    assert _auction_end(values, {2, 3}, 4, 1, 4) == (0, 4)    # everyone passes: the opener at the minimum
    assert _auction_end([20, None, 20, 20], set(), 12, 1, 13) == (1, 13)  # 13 ends the auction at once


def test_the_levels_and_the_computer():
    assert BATAK.levels == {"easy": "Easy", "baseline": "Medium", "hard": "Hard"}
    assert BATAK.computer == "hard" and set(BATAK.bots) == {"random", "easy", "baseline", "hard"}
