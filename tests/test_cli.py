"""The command line's contract: tournament and play-out, and their errors, in the language
its environment asks for."""

import io
import json
import os
import re
import subprocess
import sys

import pytest

from pishe import DECK, Card, cli
from pishe.lang import from_environment, language

#: What says which language a program speaks (GNU gettext's variables).
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def run(*args, stdin="", env=None):
    """``python -m pishe`` in a process of its own, with no language asked but ``env``'s."""
    plain = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    return subprocess.run([sys.executable, "-m", "pishe", *args], input=stdin, env={**plain, **(env or {})},
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def here(monkeypatch, capsys):
    """``python -m pishe`` in this process (cheaper than a process of its own): ``here(*args,
    stdin="", env={})`` returns (status, stdout, stderr), ``env`` its only locale variables."""

    def call(*args, stdin="", env=None):
        for name in LOCALE_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            status = cli.main(list(args))
        except SystemExit as e:          # argparse's refusals
            status = e.code
        out, err = capsys.readouterr()
        return status, out, err

    return call


def test_tournament_json_has_the_documented_shape():
    out = run("tournament", "always-give", "never-give", "--deals", "40", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result) == {"a", "b", "deals", "wins", "points"}
    assert result["a"] == "always-give" and result["b"] == "never-give" and result["deals"] == 40
    assert sum(result["wins"]) == 40 and result["points"][0] > result["points"][1]
    assert run("tournament", "always-give", "never-give", "--deals", "40", "--seed", "3", "--json").stdout == out.stdout


def test_tournament_text_output_names_both_bots(here):
    status, out, _ = here("tournament", "hold-king", "no-give-two-above", "--deals", "10", "--seed", "1")
    assert status == 0 and "hold-king" in out and "no-give-two-above" in out


@pytest.mark.parametrize("args", [["nobody", "always-give", "--deals", "3"],
                                  ["always-give", "always-give", "--deals", "-1"],
                                  ["always-give", "always-give", "--deals", "x"]])
def test_tournament_refuses_bad_arguments(here, args):
    status, out, err = here("tournament", *args)
    assert status == 2 and "error" in err and not out


def test_a_refusal_is_the_process_exit_status():
    out = run("tournament", "nobody", "always-give", "--deals", "3")
    assert out.returncode == 2 and out.stderr.startswith("error: unknown bot 'nobody': choose one of always-give, ")


def split_deck():
    cards = [str(c) for c in DECK]
    return [cards[:26], cards[26:]]


POSITION = {"stocks": [["2H", "7C"], ["3H"]], "discards": [["KD"], ["6D"]],
            "foundations": {"C": 0, "D": 0, "H": 1, "S": 13}, "turn": 0}
POSITION["stocks"][1] = ([str(c) for c in DECK if c.suit in "CDH" and str(c) not in
                          {"2H", "7C", "3H", "KD", "6D", "AH"}] + POSITION["stocks"][1])


def test_play_out_answers_each_line_in_order():
    lines = [
        {"stocks": split_deck(), "leader": 1, "bots": ["always-give", "never-give"]},
        {"position": POSITION, "actions": ["turn", "keep"]},
        {"position": POSITION, "actions": ["turn", "give"]},
        {"position": POSITION, "bots": ["never-give", "always-give"]},
    ]
    out = run("play-out", stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == 4
    first, keep, give, bots = answers
    assert first["winner"] in (0, 1) and first["score"] > 0 and first["steps"][0].startswith("Seat 1: ")
    assert keep["winner"] is None and keep["score"] is None
    assert keep["steps"] == ["Seat 0: You turn the 7♣; you may give it or keep it", "Seat 0: You keep the 7♣ on your pile"]
    assert keep["position"]["turn"] == 1 and keep["position"]["discards"][0] == ["KD", "7C"]
    assert give["position"]["discards"][1] == ["6D", "7C"] and give["position"]["turn"] == 0
    assert bots["winner"] in (0, 1)


def test_play_out_shows_a_waiting_turned_card_in_the_position(here):
    _, out, _ = here("play-out", stdin=json.dumps({"position": POSITION, "actions": ["turn"]}) + "\n")
    answer = json.loads(out)
    assert answer["position"]["turned"] == "7C"
    _, again, _ = here("play-out", stdin=json.dumps({"position": answer["position"], "actions": ["give"]}) + "\n")
    assert json.loads(again)["steps"] == ["Seat 0: You give the 7♣ onto their 6♦"]


@pytest.mark.parametrize("line, message", [
    ("not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"foo": 1}', "needs"),
    (json.dumps({"stocks": split_deck(), "bots": ["always-give", "robot"]}), "unknown bot 'robot'"),
    (json.dumps({"stocks": split_deck(), "bots": ["always-give"]}), "two bot names"),
    (json.dumps({"stocks": [split_deck()[0], []], "bots": ["always-give"] * 2}), "missing"),
    (json.dumps({"stocks": split_deck(), "leader": 2, "bots": ["always-give"] * 2}), "leader"),
    (json.dumps({"position": POSITION, "actions": ["keep"]}), "action 1 .*no turned card"),
    (json.dumps({"position": POSITION, "actions": ["turn", "turn"]}), "action 2 .*give it or keep it"),
    (json.dumps({"position": POSITION, "actions": ["fly"]}), "unknown action"),
    (json.dumps({"position": POSITION, "actions": [["turn"]]}), "action 1"),
    (json.dumps({"position": {**POSITION, "turn": 5}, "actions": []}), "turn must be"),
])
def test_play_out_reports_a_bad_line_and_goes_on(here, line, message):
    good = json.dumps({"position": POSITION, "actions": ["turn"]})
    status, out, _ = here("play-out", stdin=f"{line}\n{good}\n")
    assert status == 1
    bad, ok = [json.loads(x) for x in out.splitlines()]
    assert set(bad) == {"error"}
    assert re.search(message, bad["error"]), bad["error"]
    assert ok["position"]["turned"] == "7C"


# -- Pişti -----------------------------------------------------------------------------

PISTI_DECK = [str(c) for c in DECK]          # bottom to top: the top cards are spades, KS first


def test_pisti_tournament_json_has_the_documented_shape():
    args = ("tournament", "--game", "pisti", "greedy", "random", "--decks", "20", "--seed", "4", "--json")
    out = run(*args)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert {"game", "a", "b", "decks", "points", "pishti"} <= set(result)
    assert (result["game"], result["a"], result["b"], result["decks"]) == ("pisti", "greedy", "random", 20)
    assert len(result["points"]) == 2 and len(result["pishti"]) == 2
    low, high = result["ci95"]
    assert low <= result["gain"] <= high
    assert result["gain"] == pytest.approx((result["points"][0] - result["points"][1]) / 20, abs=1e-3)
    assert run(*args).stdout == out.stdout


def test_pisti_tournament_text_prints_the_interval(here):
    status, out, _ = here("tournament", "--game", "pisti", "greedy", "greedy", "--decks", "4", "--seed", "1")
    assert status == 0 and "95% interval" in out and out.count("greedy") >= 2


@pytest.mark.parametrize("args", [["greedy", "nobody", "--decks", "4"],
                                  ["greedy", "random", "--decks", "3"],
                                  ["greedy", "random"]])
def test_pisti_tournament_refuses_bad_arguments(here, args):
    status, out, err = here("tournament", "--game", "pisti", *args)
    assert status == 2 and "error" in err and not out


def test_pisti_play_out_plays_a_whole_deck_and_part_of_one(here):
    whole = {"game": "pisti", "deck": PISTI_DECK, "dealer": 3, "bots": ["greedy"] * 4}
    status, out, _ = here("play-out", stdin=json.dumps(whole) + "\n")
    assert status == 0, out
    answer = json.loads(out)
    assert {"points", "cards", "pishti", "jack_pishti", "steps"} <= set(answer)
    assert sum(answer["cards"]) == 52 and answer["over"] is True
    plays = [s for s in answer["steps"] if "plays" in s]
    assert len(plays) == 48
    # Seat 0 leads deck 1 and holds the cards the deck deals it first.
    part = {"game": "pisti", "deck": PISTI_DECK, "dealer": 3, "plays": []}
    first = json.loads(here("play-out", stdin=json.dumps(part) + "\n")[1])
    assert first["over"] is False and first["turn"] == 0 and first["points"] is None


@pytest.mark.parametrize("line, message", [
    ({"game": "pisti", "deck": PISTI_DECK, "dealer": 3, "plays": ["2C"]}, "do not hold"),
    ({"game": "pisti", "deck": PISTI_DECK[:51], "dealer": 3, "plays": []}, "52"),
    ({"game": "pisti", "deck": PISTI_DECK[:51] + ["AC"], "dealer": 3, "plays": []}, "twice"),
    ({"game": "pisti", "deck": PISTI_DECK, "dealer": 3, "bots": ["greedy", "nobody", "greedy", "greedy"]},
     "unknown bot"),
    ({"game": "rummy", "deck": PISTI_DECK, "dealer": 3, "plays": []}, "unknown game"),
])
def test_pisti_play_out_reports_a_bad_line_and_goes_on(here, line, message):
    good = {"game": "pisti", "deck": PISTI_DECK, "dealer": 3, "plays": []}
    status, out, _ = here("play-out", stdin=json.dumps(line) + "\n" + json.dumps(good) + "\n")
    first, second = (json.loads(line) for line in out.splitlines())
    assert status == 1 and message in first["error"] and "error" not in second


def test_pisti_play_out_refuses_a_49th_card(here):
    from pishe.table.game import get_game

    game = get_game("pisti")
    deck = game.new_deal([Card.parse(c) for c in PISTI_DECK], 3)
    plays = []
    while not deck.over:
        plays.append(str(deck.legal_actions()[0]))
        deck.apply(deck.legal_actions()[0], deck.turn)
    line = {"game": "pisti", "deck": PISTI_DECK, "dealer": 3}
    done = json.loads(here("play-out", stdin=json.dumps({**line, "plays": plays}) + "\n")[1])
    assert done["over"] is True and len(plays) == 48 and sum(done["cards"]) == 52
    status, out, _ = here("play-out", stdin=json.dumps({**line, "plays": plays + [plays[0]]}) + "\n")
    assert status == 1 and "48" in json.loads(out)["error"]


# -- Its language ----------------------------------------------------------------------


@pytest.mark.parametrize("env, code", [
    ({}, "en"), ({"LANG": "tr_TR.UTF-8"}, "tr"), ({"LANG": "de_DE.UTF-8"}, "en"), ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "tr_TR", "LANG": "en_GB.UTF-8"}, "tr"), ({"LC_ALL": "en_US.UTF-8", "LANG": "tr_TR.UTF-8"}, "en"),
    ({"LC_MESSAGES": "tr_TR@euro", "LANG": "en_US"}, "tr"),
    ({"LANGUAGE": "de:tr", "LANG": "de_DE.UTF-8"}, "tr"), ({"LANGUAGE": "tr", "LANG": "C"}, "en"),
    ({"LANGUAGE": "tr"}, "en"),                                 # no locale is "C": LANGUAGE is not read
])
def test_the_language_the_environment_asks_for(env, code):
    assert from_environment(env) == code


def test_the_command_line_speaks_its_environments_language(here):
    """Turkish for a Turkish locale, or --lang tr: the help, a refusal, a tournament's report;
    --lang wins over the locale; play-out's answers stay English, data for programs."""
    tr = run("tournament", "always-give", "never-give", "--deals", "4", "--seed", "1", env={"LANG": "tr_TR.UTF-8"})
    assert tr.returncode == 0 and tr.stdout.startswith("El × 4 (saniyede ") and "galibiyet" in tr.stdout, tr.stdout
    assert "wins" not in tr.stdout and "points" not in tr.stdout
    status, out, _ = here("--help", env={"LANG": "tr_TR.UTF-8"})
    assert status == 0 and "Kart masasının botları ve konumları." in out
    status, out, err = here("--lang", "tr", "tournament", "greedy", "nobody", "--game", "pisti", "--decks", "4")
    assert status == 2 and err.startswith("hata: bilinmeyen bot 'nobody': şunlardan birini seç: random, ")
    status, out, _ = here("--lang", "tr", "tournament", "--game", "pisti", "greedy", "greedy", "--decks", "2", "--seed", "1")
    assert status == 0 and "El başına" not in out and " el başına " in out and "%95 aralık" in out and "pişti" in out
    status, out, _ = here("--lang", "en", "tournament", "always-give", "never-give", "--deals", "2",
                          env={"LANG": "tr_TR.UTF-8"})
    assert status == 0 and "wins" in out and "galibiyet" not in out
    status, out, _ = here("play-out", stdin=json.dumps({"position": POSITION, "actions": ["turn"]}) + "\n",
                          env={"LC_ALL": "tr_TR.UTF-8"})
    assert json.loads(out)["steps"] == ["Seat 0: You turn the 7♣; you may give it or keep it"]
    assert language() == "en"                     # as it was: the command line's language is its own


def test_a_variant_is_picked_by_its_name_as_by_its_parameters(here):
    bout = ("easy", "greedy", "--decks", "4", "--seed", "2", "--json")
    by_seats = here("tournament", "--game", "pisti", "--seats", "2", *bout)
    assert json.loads(by_seats[1])["game"] == "pisti-2"
    assert here("tournament", "--game", "pisti", "--variant", "2", *bout) == by_seats
    line = {"game": "pisti", "deck": PISTI_DECK, "plays": []}
    _, two, _ = here("play-out", stdin=json.dumps({**line, "seats": 2}) + "\n")
    assert here("play-out", stdin=json.dumps({**line, "variant": "2"}) + "\n")[1] == two
    assert here("play-out", stdin=json.dumps({**line, "variant": "pisti-2"}) + "\n")[1] == two
    status, out, _ = here("play-out", stdin=json.dumps({**line, "variant": "3"}) + "\n")
    assert status == 1 and "no variant '3'" in json.loads(out)["error"]
    status, _, err = here("tournament", "--game", "pisti", "--variant", "3", "easy", "greedy", "--decks", "4")
    assert status == 2 and "no variant '3'" in err


@pytest.fixture
def plain_pisti(monkeypatch):
    """Pişti with no command line of its own: what a new game has before it words one."""
    from pishe.games.pisti import cli as own

    for name in ("tournament", "tournament_lines", "play_out"):
        monkeypatch.delattr(own, name)


def test_a_game_without_a_command_line_of_its_own_gets_the_tables(here, plain_pisti):
    status, out, err = here("tournament", "--game", "pisti", "--variant", "2", "easy", "greedy", "--decks", "20",
                            "--seed", "5", "--json")
    assert status == 0, err
    result = json.loads(out)
    assert set(result) == {"game", "a", "b", "deals", "points", "gain", "ci95"} and result["game"] == "pisti-2"
    assert result["ci95"][0] <= result["gain"] <= result["ci95"][1]
    assert result["gain"] == pytest.approx((result["points"][0] - result["points"][1]) / 20, abs=1e-3)
    status, out, _ = here("tournament", "--game", "pisti", "easy", "greedy", "--decks", "4", "--seed", "5")
    assert status == 0 and "95% interval" in out and out.count("easy") >= 2
    assert here("tournament", "--game", "pisti", "easy", "greedy", "--decks", "3")[0] == 2

    lines = [{"game": "pisti", "variant": "2", "deck": PISTI_DECK, "bots": ["easy", "greedy"]},
             {"game": "pisti", "deck": PISTI_DECK, "actions": ["6S", "KS"]},
             {"game": "pisti", "deck": PISTI_DECK, "actions": ["6S"]}]
    status, out, _ = here("play-out", stdin="".join(json.dumps(line) + "\n" for line in lines))
    whole, bad, part = (json.loads(answer) for answer in out.splitlines())
    assert status == 1 and whole["over"] and sum(whole["points"]) > 0 and len(whole["actions"]) == 48
    assert "action 2 ('KS') by seat 1" in bad["error"]
    assert part == {"over": False, "turn": 1, "legal": part["legal"], "points": None, "actions": ["6S"]}
    assert len(part["legal"]) == 4            # seat 1's first packet
