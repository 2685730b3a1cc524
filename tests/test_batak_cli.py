"""Batak's command line: play-out lines (actions or bots, Eşli Batak by its variant) and the
tournament, every seat for itself and in partnerships, with its gain and 95% interval."""

from __future__ import annotations

import json
import subprocess
import sys

from test_batak import HANDS, deck_for


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pishe", *args], input=stdin, capture_output=True, text=True,
                          timeout=300)


DECK = [str(c) for c in deck_for(HANDS)]


def test_play_out_applies_actions_and_answers_the_deal_so_far_and_goes_on_after_a_bad_line():
    lines = [
        {"game": "batak", "deck": DECK, "dealer": 3, "actions": ["bid 5", "pass", "pass", "bid 6", "pass",
                                                                 "trump S", "QH", "2H", "6S", "7S"]},
        {"game": "batak", "deck": DECK, "dealer": 3, "actions": ["bid 5", "pass", "pass", "bid 6", "pass",
                                                                 "trump S", "AS"]},
        {"game": "batak", "variant": "esli", "deck": DECK, "dealer": 3, "bots": ["baseline"] * 4},
        {"game": "batak", "deck": DECK, "bots": ["hard", "baseline", "easy", "random"], "seed": 3},
    ]
    out = _run("play-out", stdin="\n".join(json.dumps(line) for line in lines) + "\n")
    first, bad, esli, bots = (json.loads(line) for line in out.stdout.splitlines())
    assert out.returncode == 1
    assert first == {"over": False, "turn": 3, "declarer": 0, "contract": 6, "trump": "S", "tricks": [0, 0, 0, 1],
                     "points": None, "steps": first["steps"]}
    assert "Seat 1 bids 5" in first["steps"] and "Seat 3 takes the trick with the 7♠" in first["steps"]
    assert "trumps" in bad["error"].lower() and "action 7" in bad["error"]
    assert esli["over"] and len(esli["points"]) == 2 and sum(esli["tricks"]) == 13
    assert bots["over"] and len(bots["points"]) == 4
    assert esli["steps"][-1].startswith("Seat")


def test_tournament_every_seat_for_itself_and_in_partnerships():
    out = _run("tournament", "--game", "batak", "baseline", "random", "--deals", "8", "--seed", "2", "--json")
    result = json.loads(out.stdout)
    assert result["game"] == "batak" and result["deals"] == 8 and len(result["points"]) == 2
    low, high = result["ci95"]
    assert low <= result["gain"] <= high and result["gain"] > 0
    bad = _run("tournament", "--game", "batak", "baseline", "random", "--deals", "6", "--json")
    assert bad.returncode != 0 and "multiple of 4" in bad.stderr + bad.stdout
    out = _run("tournament", "--game", "batak", "--variant", "esli", "baseline", "random", "--deals", "6", "--json")
    result = json.loads(out.stdout)
    assert result["game"] == "batak-esli" and result["deals"] == 6 and result["gain"] > 0



def test_play_out_names_actions_that_are_not_a_list():
    import pytest

    from pishe.games.batak.cli import play_out
    from pishe.table.cli import PlayOutError
    from pishe.table.game import get_game

    with pytest.raises(PlayOutError, match="actions must be a list"):
        play_out(get_game("batak"), {"deck": DECK, "dealer": 3, "actions": "bid 5"})
