"""Protecting a match and the deal's end on the computer table, in Chromium, by the
buttons' accessible names: the confirmation before a match in progress is thrown
away (New match, its key N, Invite a friend, another game), the leave-page prompt
only mid-match, single-key shortcuts switched off, the result banner's buttons and
focus, the live region's news, and a whole deal by Tab and Enter alone."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# The computer table's helpers and its returning visitor (conftest's persistent profile, kept for the session).
from table_waits import press
from test_page import (  # noqa: F401  (returning_visitor, site and page are fixtures)
    BOOT_MS, PASHA, RESULTS, assert_shows, choose, finish_animations, local, open_table, page,
    read_table, returning_visitor, settle, site,
)

SEED = 390  # a one-deal match you lead: 46 moves, gives and a recycle among them

FOCUSED_ACTION = "document.activeElement && document.activeElement.dataset.action || null"


def play_by_tab_and_enter(page: Page, expected: dict) -> tuple[dict, int, int]:
    """Play the deal to its end with Tab, Shift+Tab and Enter alone, a person's simple
    play (`choose`); return the last view, the keys pressed and the moves made."""
    presses = moves = 0
    order = ["turn", "give", "keep"]  # the buttons' order on the page
    while not expected["view"]["deal_result"]:
        action = choose(expected["view"]["legal"])
        while (focused := page.evaluate(FOCUSED_ACTION)) != action:
            back = focused in order and order.index(focused) > order.index(action)
            page.keyboard.press("Shift+Tab" if back else "Tab")
            presses += 1
        press(page, lambda: page.keyboard.press("Enter"))
        presses += 1
        moves += 1
        expected, _ = settle(local("act", action))
    return expected["view"], presses, moves


def announced(page: Page) -> list[str]:
    return page.locator("[data-announce] p").all_text_contents()


def in_progress(page: Page) -> bool:
    return page.evaluate("document.body.dataset.inProgress") == "true"


def test_a_whole_deal_by_tab_and_enter_then_the_banner_and_the_shortcuts_switch(page: Page, site, console_errors):
    """Counting key presses: the focus goes where the next move is, never left on a
    disabled button. At the deal's end the banner takes the focus on Play again, and the
    live region says the result and the score. Shortcuts switched off do nothing."""
    errors = console_errors(page)
    open_table(page, site, f"delay=0&seed={SEED}")
    expected, news = settle(local("new_match", "one-deal", SEED))
    assert announced(page) == [*news, "Your turn."] and news == ["Deal 1 is dealt. Dealer: Computer."]
    view, presses, moves = play_by_tab_and_enter(page, expected)
    print(f"a deal by Tab and Enter: {presses} presses for {moves} moves")
    assert view["deal_result"] and moves > 20
    # The first move's Tabs pass the header's settings (High contrast, Sounds, Fast computers,
    # shortcuts, language). Before: 125 presses for 99 moves of seed 2 (the focus stayed on Give).
    assert presses <= moves + 8

    # The match is over: the banner offers Play again and has the focus; Next deal is hidden.
    banner = page.locator(PASHA + " [data-result]")
    again = banner.get_by_role("button", name="Play again", exact=True)
    expect(again).to_be_focused()
    expect(banner.get_by_role("button", name="Next deal")).to_be_hidden()
    scores = view["match"]["scores"]
    assert announced(page)[-2:] == [view["status"], f"Match over. Final score: You {scores[0]}, Computer {scores[1]}."]
    assert not in_progress(page)
    # The turn logs stay in sight beside the banner, not under it.
    overlap = page.evaluate("""() => {
      const a = document.querySelector('[data-game="pishe-pasha"] [data-result]').getBoundingClientRect();
      return [...document.querySelectorAll('[data-game="pishe-pasha"] .turn-list')].some((list) => {
        const b = list.getBoundingClientRect();
        return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      });
    }""")
    assert not overlap
    RESULTS.mkdir(exist_ok=True)
    finish_animations(page)  # the banner's entrance (an endless glow would never finish: left out)
    page.screenshot(path=str(RESULTS / "deal-end-banner.png"))

    # Enter on it deals a new match at once (nothing in progress to ask about); the keyboard stays on the table.
    press(page, lambda: page.keyboard.press("Enter"))
    expect(page.get_by_role("dialog")).to_be_hidden()
    expect(page.get_by_role("button", name="Turn a card", exact=True)).to_be_focused()
    expected, _ = settle(local("new_match", "one-deal", SEED))
    assert_shows(read_table(page), expected["view"])
    assert announced(page)[-2:] == ["Deal 1 is dealt. Dealer: Computer.", "Your turn."]

    # Single-key shortcuts off: the keys do nothing and are no longer declared or shown.
    switch = page.get_by_role("switch", name="Single-key shortcuts", exact=True)
    expect(switch).to_be_checked()
    switch.uncheck()
    turn = page.get_by_role("button", name="Turn a card", exact=True)
    expect(turn).not_to_have_attribute("aria-keyshortcuts", "T")
    expect(page.locator(PASHA + " .btn-turn kbd")).to_be_hidden()
    page.keyboard.press("t")
    page.keyboard.press("n")
    press(page, turn.click)  # one turn in all: t did nothing before it
    expected, _ = settle(local("act", "turn"))
    assert_shows(read_table(page), expected["view"])
    expect(page.get_by_role("dialog")).to_be_hidden()  # nor did n
    # On again: T turns a card.
    switch.check()
    expect(turn).to_have_attribute("aria-keyshortcuts", "T")
    action = choose(expected["view"]["legal"])
    press(page, lambda: page.keyboard.press(action[0]))
    expected, _ = settle(local("act", action))
    assert_shows(read_table(page), expected["view"])
    assert errors == []


def confirm_dialog(page: Page, text: str, ok: str):
    """The confirmation the page shows: its text, its two buttons, Keep playing focused."""
    dialog = page.get_by_role("dialog", name="Leave the match you are playing?", exact=True)
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(text)
    expect(dialog.get_by_role("button", name="Keep playing", exact=True)).to_be_focused()
    return dialog, dialog.get_by_role("button", name=ok, exact=True)


def test_a_match_in_progress_is_never_thrown_away_without_asking(page: Page, site, console_errors):
    """New match, its key N, Invite a friend and another game ask first mid-match (Escape
    and Keep playing keep it, the other button goes on). The browser's leave-page prompt
    never comes: the tab keeps its match (test_keep_match), and a closed tab ends it."""
    errors = console_errors(page)
    prompts: list[str] = []

    def answer_prompt(dialog) -> None:
        prompts.append(dialog.type)
        dialog.dismiss()  # stay on the page

    page.on("dialog", answer_prompt)
    open_table(page, site, f"delay=0&seed={SEED}")
    new_match = page.get_by_role("button", name="New match", exact=True)
    # Nothing played yet: New match deals at once.
    assert not in_progress(page)
    press(page, new_match.click)
    expect(page.get_by_role("dialog")).to_be_hidden()
    press(page, page.get_by_role("button", name="Turn a card", exact=True).click)
    assert in_progress(page)
    table = read_table(page)

    # New match: Escape, then Keep playing, keep the match; the focus returns to the button.
    new_match.click()
    confirm_dialog(page, "A new match starts from nothing", "Start a new match")
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_be_hidden()
    expect(new_match).to_be_focused()
    new_match.click()
    dialog, _ = confirm_dialog(page, "A new match starts from nothing", "Start a new match")
    dialog.get_by_role("button", name="Keep playing", exact=True).click()
    expect(dialog).to_be_hidden()
    # Another game: asked too; kept, the game choice stays.
    page.get_by_role("radio", name="Pişti", exact=True).check()
    dialog, _ = confirm_dialog(page, "Another game starts a new match", "Change the game")
    page.keyboard.press("Escape")
    expect(page.get_by_role("radio", name="Pishe Pasha", exact=True)).to_be_checked()
    # Invite a friend: kept.
    invite = page.get_by_role("button", name="Invite a friend", exact=True)
    invite.click()
    dialog, _ = confirm_dialog(page, "Inviting a friend ends this match", "Invite a friend")
    dialog.get_by_role("button", name="Keep playing", exact=True).click()
    assert read_table(page) == table and in_progress(page)
    assert page.evaluate("document.body.dataset.table") == "computer"

    # The key N asks too; the dialog's own button starts the new match.
    page.keyboard.press("n")
    _, start = confirm_dialog(page, "A new match starts from nothing", "Start a new match")
    press(page, start.click)
    expected, _ = settle(local("new_match", "one-deal", SEED))
    assert_shows(read_table(page), expected["view"])
    assert not in_progress(page)

    # Invite a friend, confirmed mid-match, opens the friend's table.
    press(page, lambda: page.keyboard.press("t"))
    assert in_progress(page)
    invite.click()
    _, go = confirm_dialog(page, "Inviting a friend ends this match", "Invite a friend")
    go.click()
    expect(page.get_by_role("heading", name="Playing a friend", exact=True)).to_be_visible()
    assert page.evaluate("document.body.dataset.table") == "friend"
    # Back at the computer's table, a new match (its call may wait behind the invite's
    # QR code, whose library installs on first use: a longer wait than a move's).
    page.get_by_role("button", name="Leave the table", exact=True).click()
    page.wait_for_function("document.body.dataset.table === 'computer' && document.body.dataset.inProgress === 'false'"
                           " && document.body.dataset.idle === 'true'", timeout=BOOT_MS)

    # Closing the tab asks nothing; nothing was stored but the tab's own match and its game.
    assert page.evaluate("Object.keys(localStorage)") == ["pishe.game"]
    page.close(run_before_unload=True)
    page.wait_for_event("close")
    assert prompts == []
    assert errors == []
