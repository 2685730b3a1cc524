"""Conformance of every game of the table to what the table relies on (pishe/table/game.py).

Run over both games: determinism from deck + actions, every deal ends, no view
or shown step names a card hidden from its seat, an illegal action raises a
named error and changes nothing, views survive a JSON round trip, a match
moves the deal one seat on and ends by its length.
"""

from __future__ import annotations

import json
import pickle
import random

import pytest

from pishe.cards import DECK
from pishe.errors import IllegalActionError, NotYourTurnError, UnknownActionError
from pishe.table.game import MATCH_KEYS, VIEW_KEYS, Bot, State, View, Watcher, game_ids, get_game, names_card
from pishe.table.match import Match, shuffled_deck

GAME_IDS = game_ids()
GAMES = [get_game(game_id) for game_id in GAME_IDS]
# Every action text of every game, and some that are none.
TEXTS = ["give", "turn", "keep", *(str(c) for c in DECK), "", "GIVE", "11H", "play"]


def random_deal(game, seed: int):
    """A deal played by uniformly random legal actions: (deck, dealer, actions, state, steps)."""
    rng = random.Random(seed)
    deck, dealer = shuffled_deck(rng), rng.randrange(game.seats)
    state = game.new_deal(deck, dealer)
    actions, steps = [], [list(game.deal_steps(state))]
    while not state.over:
        seat = state.turn
        action = rng.choice(state.legal_actions())
        actions.append((seat, action))
        steps.append(state.apply(action, seat))
    return deck, dealer, actions, state, steps


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_deals_are_determined_by_deck_dealer_and_actions(game):
    for seed in range(30):
        deck, dealer, actions, state, steps = random_deal(game, seed)
        again = game.new_deal(deck, dealer)
        replayed = [list(game.deal_steps(again))]
        for seat, action in actions:
            replayed.append(again.apply(game.parse_action(game.action_text(action)), seat))
        assert replayed == steps and again.over
        assert pickle.dumps(again.team_points()) == pickle.dumps(state.team_points())


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_every_deal_ends_and_scores_each_team(game):
    for seed in range(200):
        _, _, actions, state, _ = random_deal(game, seed)
        assert state.over and state.legal_actions() == ()
        points = state.team_points()
        assert len(points) == len(game.teams) and all(type(p) is int for p in points)
        # Below zero only for a game that declares it (Match.resume refuses it otherwise).
        assert game.negative_points or min(points) >= 0, points


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_no_view_or_shown_step_names_a_hidden_card(game):
    rng = random.Random(7)
    for _ in range(40):
        match = Match(game, None, random.Random(rng.getrandbits(64)))
        state = match.deal
        shown = [list(game.deal_steps(state))]
        while True:
            for seat in range(game.seats):
                hidden = {str(c) for c in game.hidden_cards(state, seat)}
                assert not names_card(game.view(match, seat).to_json(), hidden)
                for group in shown:
                    for step in group:
                        data = game.show_step(step, seat)
                        assert data is None or not names_card(data, hidden), (seat, data)
                        if data is not None:
                            assert isinstance(game.describe(data, seat), str)
            if state.over:
                break
            seat = state.turn
            shown = [state.apply(rng.choice(state.legal_actions()), seat)]


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_an_illegal_action_raises_a_named_error_and_changes_nothing(game):
    rng = random.Random(3)
    for seed in range(20):
        state = game.new_deal(shuffled_deck(random.Random(seed)), seed % game.seats)
        for _ in range(rng.randrange(30)):
            if state.over:
                break
            state.apply(rng.choice(state.legal_actions()), state.turn)
        before = pickle.dumps(state)
        legal = state.legal_actions()
        for text in TEXTS:
            try:
                action = game.parse_action(text)
            except UnknownActionError:
                continue
            if action in legal:
                with pytest.raises(NotYourTurnError):
                    state.apply(action, (state.turn + 1) % game.seats)
            else:
                with pytest.raises(IllegalActionError):
                    state.apply(action, state.turn)
            assert pickle.dumps(state) == before


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_unknown_action_texts_are_refused_by_name(game):
    for text in (None, 7, "", "play the seven", "1S"):
        with pytest.raises(UnknownActionError):
            game.parse_action(text)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_views_round_trip_through_json(game):
    for seed in range(20):
        match = Match(game, None, random.Random(seed))
        rng = random.Random(seed)
        while not match.deal.over:
            for seat in range(game.seats):
                data = game.view(match, seat).to_json()
                assert json.loads(json.dumps(data)) == data
                assert data["game"] == game.id and data["seat"] == seat
            match.apply(rng.choice(match.deal.legal_actions()), match.deal.turn)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_a_match_moves_the_deal_on_and_ends_by_its_length(game):
    for length, spec in game.lengths.items():
        match = Match(game, length, random.Random(11))
        rng = random.Random(5)
        dealers = []
        while True:
            dealers.append(match.dealer)
            while not match.deal.over:
                match.apply(rng.choice(match.deal.legal_actions()), match.deal.turn)
            if match.over:
                break
            match.next_deal()
        assert dealers == [(game.first_dealer + n) % game.seats for n in range(len(dealers))]
        scores = match.scores
        assert scores == [sum(r[t] for r in match.results) for t in range(len(game.teams))]
        if spec.max_deals is None or len(dealers) < spec.max_deals:
            assert max(scores) >= spec.target and match.winner == scores.index(max(scores))


def _has_the_keys(data: dict, keys: dict, what: str) -> None:
    for key, kind in keys.items():
        assert key in data, f"{what} lacks {key!r}"
        value = data[key]
        fits = isinstance(value, bool) if kind is bool else isinstance(value, kind) and not isinstance(value, bool)
        assert fits, (what, key, value)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_the_contracts_hold_and_views_carry_the_keys_the_table_reads(game):
    """Every game's state, views and bots satisfy the table's Protocol classes, and every view
    (blank, dealt, mid-deal, over) carries VIEW_KEYS and its match MATCH_KEYS."""
    for seat in range(game.seats):
        blank = game.blank_view(seat, None, "Waiting.")
        _has_the_keys(blank, VIEW_KEYS, "a blank view")
        assert blank["game"] == game.id and blank["turn"] is None and blank["legal"] == []
        assert len(blank["names"]) == game.seats
    for name in game.bots:
        bot = game.new_bot(name, 1, random.Random(1))
        assert isinstance(bot, Bot)
    memory = game.new_memory(0)
    assert memory is None or isinstance(memory, Watcher)
    for seed in range(5):
        match = Match(game, None, random.Random(seed))
        rng = random.Random(seed)
        assert isinstance(match.deal, State)
        while True:
            for seat in range(game.seats):
                view = game.view(match, seat)
                assert isinstance(view, View)
                data = view.to_json()
                _has_the_keys(data, VIEW_KEYS, "a view")
                _has_the_keys(data["match"], MATCH_KEYS, "a view's match")
                assert len(data["names"]) == game.seats
                assert data["turn"] == (None if match.deal.over else match.deal.turn)
                assert data["legal"] == ([] if data["turn"] != seat else
                                         [game.action_text(a) for a in match.deal.legal_actions()])
                assert (data["match"]["over"] or data["match"]["next_deal"]) == match.deal.over
            if match.deal.over:
                break
            match.apply(rng.choice(match.deal.legal_actions()), match.deal.turn)


@pytest.mark.parametrize("data, named", [
    ({"a": "5H"}, True), (["x", "10S"], True), ([1, None, True, {"k": ["QS"]}], True),
    ({"a": "abcdefghijkl", "b": "5H"}, True), ({"a": "a\\", "b": "QS"}, True), ("QS", True),
    ({"5H": 1}, False), ({"a": 'x \\"5H'}, False), ({"a": 'x"5H'}, False), ({"a": '"5H"'}, False),
    ({"a": "5H5"}, False), ({"t": "the QS"}, False), ({"a": "a\\"}, False), ([], False), ("Q", False)])
def test_names_card_finds_a_code_as_a_whole_string_only(data, named):
    """A card's text as a string of its own anywhere in the data, and nothing else: not a
    key, not part of a longer text, not inside quotes of another string."""
    assert names_card(data, {"5H", "10S", "QS"}) is named
