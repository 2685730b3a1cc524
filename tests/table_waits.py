"""Waiting on the page's table, as every browser test of a table does: the page is idle
(no call to its worker in flight, the computers done moving) and, after something that asks
the worker, its table is painted anew. One wait, in one round trip to the page."""

from __future__ import annotations

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

#: The page's first table (a page shows one game's at a time; the others are hidden).
ANY_TABLE = "[data-pishe-table]"

_IDLE = "document.body.dataset.idle === 'true'"

# Repainted since `before` (its paint count then) and idle, both at once: the count only grows,
# so this is the moment both waits one after the other would end at.
_REPAINTED = """([table, before]) => (document.querySelector(table).dataset.paints || '0') !== before
  && document.body.dataset.idle === 'true'"""

# What the page was doing, for a wait that failed (once, only under load).
_STATE = """(table) => ({paints: document.querySelector(table).dataset.paints,
  body: {...document.body.dataset}, dialog: Boolean(document.querySelector('dialog[open]')),
  focus: document.activeElement && document.activeElement.outerHTML.slice(0, 120),
  status: [...document.querySelectorAll('[data-status], [data-error]')].map((e) => e.textContent.trim())})"""


def wait_idle(page: Page, timeout: float = 30_000) -> None:
    """Wait until no call is in flight and the computers have stopped moving."""
    page.wait_for_function(_IDLE, timeout=timeout)


def paints(page: Page, table: str = ANY_TABLE) -> str:
    """How many times the table (a CSS selector) has been painted, as the page counts."""
    return page.evaluate(f"document.querySelector({table!r}).dataset.paints || '0'")


def press(page: Page, do, table: str = ANY_TABLE, timeout: float = 30_000) -> None:
    """Do something that asks the worker (``do()``: a click, a key, a choice) and wait until
    the table (a CSS selector) is painted anew and the page is idle."""
    before = paints(page, table)
    do()
    try:
        page.wait_for_function(_REPAINTED, arg=[table, before], timeout=timeout)
    except PlaywrightTimeoutError:
        raise AssertionError(f"{table} not repainted and settled within {timeout / 1000:.0f} s "
                             f"(paints before: {before}): {page.evaluate(_STATE, table)}") from None
