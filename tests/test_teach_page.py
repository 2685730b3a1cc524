"""What the table teaches a newcomer, on the real page: the goal on the table, the cards
as controls (a whole Pishe Pasha deal played by clicking the cards alone), the give's
target, the card the computer just gave you, and the first deal's hints, shown once each
and dismissible; then Pişti's goal and its first hint, in the same page session (one boot).

Which pile is a control comes from the view (its places' `clicks`): the test reads it
from the page, as a person reads what is highlighted, and clicks the card by its name."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from pishe.games.pasha.view import GOAL, HINTS
from pishe.games.pisti.view import GOAL as PISTI_GOAL, HINTS as PISTI_HINTS
from table_waits import press, wait_idle
from test_page import PASHA, RESULTS, open_table, page, returning_visitor, site  # noqa: F401

SEED = 390  # a one-deal match you lead, with gives and a recycle on the way, in 46 clicks

# The piles as the page paints them: what a click on each does, the highlights, the hint.
READ_PILES = """(root) => {
  const pile = (place, kind) => root.querySelector(`[data-place="${place}"] [data-pile="${kind}"]`);
  const click = (p) => (p.hidden ? null : p.dataset.click || null);
  const hint = root.querySelector("[data-hint]");
  return {
    stock: click(pile("bottom", "stock")),
    turned: click(pile("bottom", "turned")),
    pile: click(pile("bottom", "discard")),
    theirs: click(pile("top", "discard")),
    target: pile("top", "discard").classList.contains("target"),
    given: pile("bottom", "discard").classList.contains("given"),
    givenLabel: pile("bottom", "discard").getAttribute("aria-label"),
    hint: hint.hidden ? null : hint.dataset.key,
    hintText: hint.querySelector("[data-hint-text]").textContent,
    over: !root.querySelector("[data-result]").hidden,
  };
}"""


def piles(page: Page) -> dict:
    return page.locator(PASHA).evaluate(READ_PILES)


def test_a_whole_deal_by_the_cards_alone_with_hints_and_highlights(page: Page, site, console_errors):  # noqa: F811
    errors = console_errors(page)
    open_table(page, site, f"delay=0&seed={SEED}")
    table = page.locator(PASHA)
    expect(table.locator("[data-goal]")).to_have_text(GOAL)

    # You lead: the first turn's hint, dismissed at once with its button.
    state = piles(page)
    assert state["hint"] == "turn" and state["hintText"] == HINTS["turn"]
    assert state["stock"] == "turn" and not state["target"]
    table.get_by_role("button", name="Got it").click()
    expect(table.locator("[data-hint]")).to_be_hidden()

    my_stock = table.get_by_role("figure", name=re.compile(r"^Your stock"))
    my_pile = table.get_by_role("figure", name=re.compile(r"^Your pile"))
    turned = table.get_by_role("figure", name=re.compile(r"^Your turned card"))
    clicks, hints, gives, given = 0, [], 0, 0
    while not (state := piles(page))["over"]:
        # The give's target is lit exactly when a give is possible, and clicking it gives.
        can_give = "give" in (state["turned"], state["pile"])
        assert state["target"] == can_give == (state["theirs"] == "give"), state
        if state["given"]:
            given += 1
            assert "just given to you" in state["givenLabel"]
        if state["hint"] and (not hints or hints[-1] != state["hint"]):
            hints.append(state["hint"])
            assert state["hintText"] == HINTS[state["hint"]]
            if state["hint"] == "give_or_keep":  # the hint, the target lit: kept as an artifact
                RESULTS.mkdir(exist_ok=True)
                page.screenshot(path=str(RESULTS / "teach-give-or-keep.png"))
        # Always give when you can (the turned card, else your pile's top), else turn.
        card = turned if state["turned"] == "give" else my_pile if state["pile"] == "give" else my_stock
        assert state["stock"] == "turn" or card is not my_stock, state
        gives += card is not my_stock
        press(page, card.click)
        clicks += 1
    print(f"\na whole deal by the cards alone: {clicks} clicks ({gives} gives); hints shown: {hints}; "
          f"views with a card just given to you: {given}")
    assert clicks > 20 and gives > 0 and given > 0
    # Each hint once, at its moment, the first turn's not again after it was dismissed.
    assert len(hints) == len(set(hints)) and "turn" not in hints
    assert {"give", "give_or_keep"} <= set(hints)
    expect(table.locator("[data-hint]")).to_be_hidden()
    expect(table.locator("[data-result]")).to_be_visible()

    # Pişti, in the same page: its goal, and its first hint at your first turn.
    page.get_by_role("radio", name="Pişti", exact=True).check()
    pisti = page.locator('[data-game="pisti"]')
    wait_idle(page)
    expect(pisti.locator("[data-goal]")).to_have_text(PISTI_GOAL)
    expect(pisti.locator("[data-hint-text]")).to_have_text(PISTI_HINTS["play"])
    hand = pisti.get_by_role("button", name=re.compile(r"^Play "))
    expect(hand).to_have_count(4)
    hand.first.click()
    expect(pisti.locator("[data-hint]")).to_be_hidden()
    assert errors == []
