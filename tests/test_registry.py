"""The game registry: games found by scanning pishe/games/, variants by their parameters,
what each game declares for the table (refusal words, points, its end rule), and the
page markup the build makes from web/games/<game>/."""

import json
import pkgutil
import random
import re
import subprocess
import sys
from types import SimpleNamespace

import pytest

import build
from pishe.errors import UnknownGameError
import pishe.games
from pishe.table.game import Game, Length, find_game, game_ids, games, get_game
from pishe.table.match import Match, shuffled_deck
from pishe.table.protocol.guest import REFUSALS


def test_every_package_under_pishe_games_is_registered():
    folders = {name for _, name, is_package in pkgutil.iter_modules(pishe.games.__path__) if is_package}
    assert {g.package for g in games()} == folders and {"pasha", "pisti", "batak"} <= folders
    assert game_ids()[0] == "pishe-pasha"
    assert len(set(game_ids())) == len(game_ids())
    for game in games():
        assert get_game(game.id) is game and find_game(game.family_id, dict(game.params)) is game


def test_games_come_in_their_declared_order_and_the_page_deals_the_first():
    from pishe.web import FIRST_GAME

    found = [(g.order, g.id) for g in games()]
    assert [order for order, _ in found] == sorted(order for order, _ in found)
    # This repository's games, where they stand (a new game is an addition: it stands by its own order).
    ours = ("pishe-pasha", "pisti", "pisti-2", "batak", "batak-esli")
    assert [(order, game_id) for order, game_id in found if game_id in ours] == [
        (10, "pishe-pasha"), (20, "pisti"), (20, "pisti-2"), (30, "batak"), (30, "batak-esli")]
    assert FIRST_GAME == game_ids()[0]


def test_unknown_games_and_variants_are_refused_by_name():
    for bad in ("rummy", "", None, 7, ["pisti"]):
        with pytest.raises(UnknownGameError):
            get_game(bad)
    with pytest.raises(UnknownGameError, match="no variant"):
        find_game("pisti", {"seats": 3})
    with pytest.raises(UnknownGameError, match="unknown game"):
        find_game("rummy", {})


def test_refusal_words_live_with_each_game():
    pasha, pisti = get_game("pishe-pasha"), get_game("pisti")
    assert "give-not-allowed" in pasha.refusals and "card-not-in-hand" in pisti.refusals
    # The table's own words name no game's moves.
    for game in games():
        assert not set(game.refusals) & set(REFUSALS)
        assert all(isinstance(w, str) and w.endswith(".") for w in game.refusals.values())


class _Golf(Game):
    """A stand-in game declaring negative points and its own end rule (only the match
    functions are used)."""

    id = "golf"
    name = "Golf"
    seats = 2
    teams = ((0,), (1,))
    first_dealer = 1
    lengths = {"nine": Length("Nine holes", None, 9)}
    negative_points = True

    def new_deal(self, deck, dealer):
        return SimpleNamespace(over=False)      # a deal just begun

    def match_over(self, length, scores, deals):
        return deals >= 2 and min(scores) < -5      # its own rule: someone far under par


def test_match_resume_accepts_negative_points_only_from_a_game_that_declares_them():
    deck = shuffled_deck(random.Random(1))
    golf = _Golf()
    match = Match.resume(golf, "nine", [[-3, 2], [-4, 1]], deck)
    assert match.scores == [-7, 3] and match.deal_number == 3
    assert golf.match_over(golf.lengths["nine"], match.scores, 2)
    with pytest.raises(ValueError):
        Match.resume(get_game("pishe-pasha"), None, [[-3, 0]], deck)
    assert Match.resume(get_game("pishe-pasha"), "first-to-50", [[3, 0]], deck).scores == [3, 0]


def test_the_build_writes_each_games_markup_into_the_page():
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    assert "data-pishe-table" not in page       # no game's markup is written in the page itself
    built = build.game_markup(page, list(games()))
    assert "<!-- games:" not in built and "__GAME__" not in built and "__LEVELS__" not in built
    first = games()[0]
    for game in games():
        hidden = "" if game is first else " hidden"
        assert re.search(f'data-game="{game.id}" data-for-game="{game.id}" data-turn="none"( data-[a-z]+="[a-z]+")*'
                         f'{hidden}>', built)
        # A game may name the language whose first visit it opens (Pişti's data-first-for="tr").
        assert re.search(f'<div class="settings" data-settings="{game.id}" data-for-game="{game.id}"'
                         f'( data-first-for="[a-z]+")?{hidden}>', built)
        assert f'<input type="radio" name="game" value="{game.id}"' in built
        for bot, level in game.levels.items():
            assert f'name="level-{game.id}" value="{bot}" data-setting="level"' in built and level in built
    assert f'<link rel="modulepreload" href="web/games/{first.package}/paint.js">' in built
    assert built.count('/paint.js">') == 1


def test_play_out_answers_a_deeply_nested_line_and_goes_on():
    deep = "[" * 100_000 + "]" * 100_000
    good = json.dumps({"game": "pisti", "deck": [str(c) for c in shuffled_deck(random.Random(2))],
                       "dealer": 3, "plays": []})
    out = subprocess.run([sys.executable, "-m", "pishe", "play-out"], input=f"{deep}\n{good}\n",
                         capture_output=True, text=True, timeout=120)
    first, second = (json.loads(line) for line in out.stdout.splitlines())
    assert out.returncode == 1 and "nested" in first["error"] and "error" not in second
