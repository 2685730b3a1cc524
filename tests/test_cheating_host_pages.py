"""Issue 28 on the wire between real pages: a host page that rewrites what it relays.

The host's page is a real page at a friends' table of Pishe Pasha; this test plays its cheating
side on purpose, sending down the host page's own data channel (the wire tap's
``window.__wire.send``, tests/test_friend.py) what a page whose code was changed would. The
guest's page is an honest real page. Each test checks what the guest's page shows, by its
visible lines: not fair naming the host, or an abort by the host, counted, and never
"verified". Each match is cut short a few moves into its first deal.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

# test_friend's `table` fixture, on its `profiles` (made again for this module).
from test_friend import Table, no_errors, profiles, table  # noqa: F401

SEND = "(text) => window.__wire.send(text)"


def started(table: Table, host_moves: int) -> tuple[dict, dict]:
    """A one-deal match of Pishe Pasha, connected and played until the host's page has made
    ``host_moves`` moves and the guest's page shows the same board."""
    table.open_host("one-deal")
    table.join(table.invite_link())
    h, g = table.sync()
    while sum(1 for _deal, seat, _action in table.actions if seat == 0) < host_moves:
        h, g = table.act(h["turn"], h, g)
    return h, g


def guest_wire(table: Table) -> list:
    """What the guest's page received and sent, in order: ``[kind, message]``."""
    return [[kind, json.loads(text)] for kind, text in table.guest.evaluate("window.__wire.both")]


def try_in_play(wire: list) -> tuple[dict, list]:
    """The last ``np-deal`` the guest's page received, and the host's log of that try as the
    guest's page can rebuild it: the log the ``np-deal`` carried, then every message of the
    try that page received or sent, in order."""
    at = max(i for i, (kind, m) in enumerate(wire) if kind == "received" and m["type"] == "np-deal")
    deal = wire[at][1]
    log = list(deal["log"]) + [m["message"] for _kind, m in wire[at + 1:]
                               if m["type"] == "np" and [m["deal"], m["tries"]] == [deal["deal"], deal["tries"]]]
    return deal, log


def fair_line(table: Table):
    return table.guest.locator("[data-fair]")


def test_a_resent_log_taking_back_the_hosts_move_is_not_fair_naming_the_host(table: Table):
    """The host's page sends its ``np-deal`` for the try in play again, its last move taken out
    of the log: the guest's page says the deal is not fair, naming the host, at once. The deal
    is dealt again (the guest's page stopped it for everyone), and the line stays: never
    "verified". Cheated on so twice in the match, the guest's page takes no new try."""
    cheated_at, _g = started(table, 2)
    deal, log = try_in_play(guest_wire(table))
    cut = max(i for i, m in enumerate(log) if m["seat"] == 0 and m["type"] == "np-act")
    forged = {**deal, "log": log[:cut] + log[cut + 1:]}
    table.host.evaluate(SEND, json.dumps(forged, separators=(",", ":")))
    line = fair_line(table)
    expect(line).to_have_text(re.compile(r"^Deal 1 is not fair: the host sent its log again with messages "
                                         r"(changed|missing) .*\(the host\)"), timeout=20_000)
    expect(line).to_have_attribute("role", "alert")
    # The guest's page stopped the try for everyone: the host's page deals it again, and the
    # guest's page plays the new try with the line still naming the host.
    table.guest.wait_for_function(
        "(t) => window.__wire.received.some((m) => { const d = JSON.parse(m); return d.type === 'np-deal' && d.tries > t; })",
        arg=deal["tries"], timeout=20_000)
    h, g = table.sync(before=cheated_at)         # the new try's board, on both pages
    expect(line).to_contain_text("(the host)")
    assert "verified" not in line.text_content()
    # The host cheats so again on the new try: the second time in the match, the guest's page
    # takes no new try from it, says so, and offers to leave.
    before = len(table.actions)
    while sum(1 for _deal, seat, _action in table.actions[before:] if seat == 0) < 2:
        h, g = table.act(h["turn"], h, g)
    again, log = try_in_play(guest_wire(table))
    assert again["tries"] == deal["tries"] + 1
    cut = max(i for i, m in enumerate(log) if m["seat"] == 0 and m["type"] == "np-act")
    table.host.evaluate(SEND, json.dumps({**again, "log": log[:cut]}, separators=(",", ":")))
    expect(line).to_have_text("This page found the host not fair twice in this match: it takes no new deal from "
                              "the host. You may leave the table.", timeout=20_000)
    expect(table.guest.get_by_role("button", name="Leave the table", exact=True)).to_be_visible()
    assert "verified" not in line.text_content()
    no_errors(table)


def test_a_new_match_id_mid_deal_is_an_abort_by_the_host_counted(table: Table):
    """The host's page welcomes the guest's page again mid-deal, naming a new match: the guest's
    page ends the deal in play as aborted by the host, counted, and says so."""
    started(table, 1)
    wire = guest_wire(table)
    welcome = [m for kind, m in wire if kind == "received" and m["type"] == "welcome"][-1]
    seq = max(m["seq"] for kind, m in wire if kind == "sent" and "seq" in m) + 1
    again = {**welcome, "seq": seq, "match_id": "ab" * 16 if welcome["match_id"] != "ab" * 16 else "cd" * 16}
    table.host.evaluate(SEND, json.dumps(again, separators=(",", ":")))
    expect(fair_line(table)).to_contain_text(
        "Deal 1 was stopped: the host started another match (stopped and dealt again at this table: 1).",
        timeout=20_000)
    assert "verified" not in fair_line(table).text_content()
    no_errors(table)
