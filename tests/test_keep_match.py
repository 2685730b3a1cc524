"""The match against the computer lives as long as its tab (sessionStorage): a reload,
Back and Forward, and a discarded tab coming back find the same match, with the same
deck and the same computer; a closed tab's next visit starts afresh.

In Python: pishe.web's ``saved`` replays to the same table, whose computers then play
on as they would have without the reload. In Chromium: the real page, by its buttons.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

import pishe.web as web
from table_waits import press, wait_idle
from test_page import (  # noqa: F401  (returning_visitor, site and page are fixtures)
    BOOT_MS, BUTTON, assert_shows, choose, local, open_table, page, read_table,
    returning_visitor, settle, site,
)
from test_pisti_page import PISTI, READ_TABLE as PISTI_TABLE

KEY = "pishe-computer-match"


def call(name: str, *args) -> dict:
    answer = json.loads(getattr(web, name)(*args))
    assert "error" not in answer, answer
    return answer


def play(answer: dict, moves: int) -> dict:
    """``moves`` calls as the page makes them: yours (the first legal action), the
    computer's while it moves, and the next deal once one is over."""
    for _ in range(moves):
        match = answer["view"].get("match") or {}
        if match.get("over"):
            break
        if match.get("next_deal"):
            answer = call("next_deal")
        elif answer["computer_moves"]:
            answer = call("computer_step")
        else:
            answer = call("act", str(answer["view"]["legal"][0]))
    return answer


@pytest.mark.parametrize("game, length, level", [
    ("pishe-pasha", "first-to-50", "memory-deep"),
    ("pishe-pasha", "first-to-50", "memory-4"),
    ("pisti", "151", None),
])
def test_a_saved_match_replays_to_the_same_table_and_computers(game, length, level):
    """Mid-way through a later deal: the restored table answers what the table did, and
    from there both play on alike (the computers remember and draw as they did)."""
    call("new_match", length, 5, game, None, level)      # a seed: a deal of one that lasts is not drawn
    answer = play(call("current"), 260)
    assert answer["view"]["match"]["deal"] >= 2, "the scenario reaches a later deal"
    saved = answer["saved"]
    onward = play(answer, 60)
    restored = call("restore_match", saved)
    assert restored["view"] == answer["view"] and restored["saved"] == saved
    assert restored["settings"] == answer["settings"]
    assert {k: answer["settings"][k] for k in ("game", "length", "clock")} == {"game": game, "length": length,
                                                                             "clock": None}
    assert answer["settings"]["level"] == (level or answer["settings"]["level"])
    assert restored["news"] == [] and restored["steps"] == []
    assert play(restored, 60)["saved"] == onward["saved"]


def test_a_seedless_match_draws_a_seed_the_save_keeps():
    first = call("new_match", "one-deal")
    assert json.loads(first["saved"])["seed"] != json.loads(call("new_match", "one-deal")["saved"])["seed"]


@pytest.mark.parametrize("saved", [
    "", "null", "[]", "{}", "not json",
    '{"v":1,"game":"pishe-pasha","length":"one-deal","seed":1,"clock":null,"level":null,'
    '"timeouts":0,"autopilot":false,"moves":[[[0,"give"]]]}',       # not a legal move there
    '{"v":1,"game":"chess","length":"one-deal","seed":1,"clock":null,"level":null,'
    '"timeouts":0,"autopilot":false,"moves":[[]]}',
    '{"v":1,"game":"pishe-pasha","length":"one-deal","seed":-1,"clock":null,"level":null,'
    '"timeouts":0,"autopilot":false,"moves":[[]]}',
    '{"v":1,"game":"pishe-pasha","length":"one-deal","seed":1,"clock":null,"level":null,'
    '"timeouts":0,"autopilot":false,"moves":[[["0","turn"]]]}',
])
def test_a_save_that_is_not_one_is_refused_and_changes_nothing(saved):
    before = call("new_match", "one-deal", 3)
    answer = json.loads(web.restore_match(saved))
    assert answer["error"].startswith("the saved match cannot be read")
    assert call("current") == {**before, "news": [], "said": []}


# ---- the page ----------------------------------------------------------------------


def kept_match(page) -> dict:
    """The match the tab keeps, but the lines said (a restored page adds to them)."""
    kept = json.loads(page.evaluate(f"sessionStorage.getItem({KEY!r})"))
    del kept["said"]
    return kept


def table_and_match(page) -> tuple[dict, dict]:
    """The table as it shows (but the live region, which a restored page adds to: its lines
    said come back, checked below) and the match kept (:func:`kept_match`)."""
    table = read_table(page)
    del table["announced"]
    return table, kept_match(page)


def test_reload_back_forward_and_a_discarded_tab_keep_the_match(page, site, console_errors):
    errors = console_errors(page)
    open_table(page, site, "delay=0&seed=390")
    expected, _ = settle(local("new_match", "one-deal", 390))
    for _ in range(8):
        action = choose(expected["view"]["legal"])
        press(page, page.get_by_role("button", name=BUTTON[action], exact=True).click)
        expected, _ = settle(local("act", action))
    assert_shows(read_table(page), expected["view"])
    before = table_and_match(page)
    assert page.evaluate("Object.keys(localStorage)") == ["pishe.game"]     # the game the page opens on next

    def back_ready():
        expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
        wait_idle(page)

    said = read_table(page)["announced"]
    page.reload()
    back_ready()
    assert table_and_match(page) == before
    assert read_table(page)["announced"][:len(said)] == said      # the lines said, back

    page.goto(site.url + "signaling.json")
    page.go_back()
    back_ready()
    assert table_and_match(page) == before
    page.go_forward()
    page.go_back()
    back_ready()
    assert table_and_match(page) == before

    # The match goes on from there as it would have: the same deck, the same computer.
    action = choose(expected["view"]["legal"])
    press(page, page.get_by_role("button", name=BUTTON[action], exact=True).click)
    expected, _ = settle(local("act", action))
    assert_shows(read_table(page), expected["view"])
    after = table_and_match(page)

    # A discarded tab comes back as a new page with the tab's sessionStorage.
    kept = page.evaluate("JSON.stringify(Object.entries(sessionStorage))")
    context = page.context
    page.close()
    restored = context.new_page()
    try:
        errors += console_errors(restored)
        restored.goto(site.url + "signaling.json")
        restored.evaluate(f"for (const [k, v] of JSON.parse({kept!r})) sessionStorage.setItem(k, v)")
        open_table(restored, site, "delay=0&seed=390&game=pishe-pasha")  # the tab's address: it names its game
        assert table_and_match(restored) == after
    finally:
        restored.close()

    # A closed tab's next visit (a new tab: nothing in its sessionStorage) starts afresh.
    fresh = context.new_page()
    try:
        open_table(fresh, site, "delay=0&seed=390")
        assert_shows(read_table(fresh), settle(local("new_match", "one-deal", 390))[0]["view"])
        # A Pişti match comes back too, mid-deck: its game chosen, the same table.
        press(fresh, fresh.get_by_role("radio", name="Pişti", exact=True).check, PISTI)
        press(fresh, fresh.locator('[data-game="pisti"] [data-hand] button[aria-disabled="false"]').first.click, PISTI)
        mid_deck = fresh.evaluate(PISTI_TABLE), kept_match(fresh)
        assert len(mid_deck[0]["hand"]) == 3
        fresh.reload()
        expect(fresh.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
        wait_idle(fresh)
        expect(fresh.get_by_role("radio", name="Pişti", exact=True)).to_be_checked()
        assert (fresh.evaluate(PISTI_TABLE), kept_match(fresh)) == mid_deck
    finally:
        fresh.close()
    assert errors == []
