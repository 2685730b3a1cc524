"""A cheating host against real guests' pages: what it rewrites on the wire ends in "Deal N
is not fair" or an abort the page counts and shows, never "verified".

Each test is an attack a host's page could make on the no-peek deal's wire: the real
host's messages tampered with on their way to real :class:`Guest` pages (Pishe Pasha's
table and Pişti's with three guests), or crafted messages: a relayed message rewritten, a
seat token refused on a live connection, the clock changed mid-match, a new match begun
mid-deal, an abort named on a live connection, words and nesting in its messages, and the
old deal's messages (a downgrade). The tests of issue 28's rewriting host (resent logs,
deal numbers, signatures) are in ``test_rewriting_host.py``.
"""

from __future__ import annotations

import json

import pytest

from pishe.table import lang
from pishe.table.game import get_game
from pishe.table.protocol import (
    MAX_HOST_MESSAGE, VERIFIED, Guest, MessageTooDeepError, MessageTooLongError, RemovedDealError,
)
from pishe.table.protocol.guest import REFUSALS
from pishe.table.protocol import wire
from pishe.table.protocol.wire import write
from test_table_protocol import Table

#: The tables attacked: Pishe Pasha with its one guest, Pişti with three.
TABLES = [("pishe-pasha", [1]), ("pisti", [1, 2, 3])]
#: What a cheating host writes wherever it can write words.
FORGED = "Deal 1 verified"


def not_fair(guest: Guest, deal: int = 1) -> str:
    """The guest's warning about ``deal``, checked to be one (and its status to say so)."""
    status = guest.status()
    assert status["verification_deal"] == deal, status
    word = get_game(status["game"]).deal_name                 # the game's own: Pişti's "Deck"
    assert status["verification"].startswith(f"{word} {deal} is not fair: "), status["verification"]
    return status["verification"]


class Tampering(Table):
    """A table whose host rewrites its messages on their way: ``tamper(conn, data)`` may
    change a message's JSON data in place, or return ``False`` to drop it. A deal's messages
    are tampered with in its first try only: a try found not fair ends at once on every page
    and is dealt again, which a host that cheats on every try would do for ever."""

    tamper = None

    def deliver(self, pairs) -> None:
        out = []
        for conn, text in pairs:
            data = json.loads(text)
            if data.get("tries", 0) == 0 and self.tamper is not None and self.tamper(conn, data) is False:
                continue
            out.append((conn, json.dumps(data)))
        super().deliver(out)


def tampering(game_id: str, guest_seats, seed: int = 5, length=None) -> Tampering:
    table = Tampering(game_id, guest_seats, seed, length)
    for _ in guest_seats:
        table.join()
    assert table.host.phase == "playing"
    return table


def until_turn(table: Table, seat: int) -> None:
    """Play on until ``seat`` is to move."""
    host = table.host
    while not (host.phase == "playing" and host.match.deal.turn == seat):
        table.move()


def welcome_of(table: Table, seat: int) -> dict:
    """The welcome the host would send seat ``seat``'s page now (the host's own message)."""
    return next(json.loads(t) for c, t in table.host.receive(table.page(seat).hello(), table.conn_of(seat)).send
                if json.loads(t)["type"] == "welcome")


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
@pytest.mark.parametrize("kind", ["np-shuffle", "np-lock"])
def test_a_rewritten_deck_in_a_relayed_message_is_not_fair_on_every_page(game_id, guest_seats, kind):
    """The host swaps two cards of its own shuffled or locked deck on its way to the friends'
    pages (other than the one it took in itself): the deal cannot come out verified on any
    friend's page."""
    table = Tampering(game_id, guest_seats, 5, "one-deal" if game_id == "pishe-pasha" else "151")

    def swap(conn, data):
        message = data.get("message") if data["type"] == "np" else None
        if message and message["type"] == kind and message["seat"] == 0:
            deck = message["deck"]
            deck[0], deck[1] = deck[1], deck[0]

    table.tamper = swap
    for _ in guest_seats:
        table.join()
    for _ in range(200):
        if table.host.phase != "playing":
            break
        try:
            table.move()
        except (AssertionError, IndexError):
            break                            # a page that cannot open its card has no move to make
    for seat in guest_seats:
        assert table.page(seat).verification != VERIFIED


def test_a_token_refused_on_a_live_connection_is_called_out():
    """Refusing the seat token is how a host gets a page to join afresh: on a live
    connection it is the host's doing; after this page's own hello it may be honest."""
    table = tampering("pisti", [1, 2, 3])
    page = table.page(3)
    table.move()
    page.receive(write("pisti", "error", reason=FORGED, code="unknown-token", ref=None, next_seq=page.seq))
    assert "refused this page's seat token while it was connected" in not_fair(page)
    back = table.page(2)
    back.hello()                                            # back from away: the seat may be given on
    back.receive(write("pisti", "error", reason=FORGED, code="unknown-token", ref=None, next_seq=back.seq))
    assert back.status()["verification"] is None


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_the_clock_is_fixed_for_the_match(game_id, guest_seats):
    """A new welcome on a live connection that sets the clock to 1 s: the changed clock is
    called out, and the page keeps the clock the match began with."""
    table = Tampering(game_id, guest_seats, 5, None)
    table.host.seating.clock = 30
    for _ in guest_seats:
        table.join()
    seat = guest_seats[0]
    page = table.page(seat)
    welcome = welcome_of(table, seat)
    assert welcome["clock"] == 30
    page.receive(json.dumps({**welcome, "clock": 1}))
    assert "changed the clock" in not_fair(page)
    assert page.status()["clock"] == 30


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_a_new_match_mid_deal_is_an_abort_by_the_host(game_id, guest_seats):
    """A welcome with a new match id while a deal is in play ends that deal on the page as
    aborted by the host, counted and shown; the count survives the new match."""
    table = tampering(game_id, guest_seats)
    table.move()
    for seat in guest_seats:
        page = table.page(seat)
        page.receive(json.dumps({**welcome_of(table, seat), "match_id": "cd" * 16}))
        assert page.status()["aborts"] == 1
        assert "the host started another match" in page.status()["verification"]
        assert page.status()["verification_deal"] == 1


def test_an_abort_line_is_worded_in_the_pages_language():
    """A Turkish page reads the abort line in Turkish (worded when the page learns of it)."""
    table = tampering("pisti", [1, 2, 3])
    page = table.page(1)
    lang.set_language("tr")
    try:
        page.receive(write("pisti", "np-abort", deal=1, seats=[1]))
        assert page.status()["verification"] == ("El 1 durduruldu: masayı kuran onu yeniden başlattı (bu "
                                                 "masada durdurulup yeniden dağıtılan: 1).")
    finally:
        lang.set_language("en")


def test_a_host_refusal_is_worded_by_the_guest():
    table = tampering("pishe-pasha", [1])
    page = table.page(1)
    assert page.status()["length_name"] == get_game("pishe-pasha").lengths[table.host.length].name
    outcome = page.receive(write("pishe-pasha", "error", reason=FORGED, code="not-your-turn", ref=None, next_seq=None))
    assert outcome.error == REFUSALS["not-your-turn"]
    outcome = page.receive(write("pishe-pasha", "error", reason=FORGED, code="made-up", ref=None, next_seq=None))
    assert outcome.error == "The host refused a message of yours."


def test_deep_nesting_and_length_are_refused_before_parsing():
    table = tampering("pisti", [1, 2, 3])
    page = table.page(1)
    saved = page.save()
    for text in ("[" * 5000 + "]" * 5000, '{"v":4,"a":' + "[" * 17 + "]" * 17 + "}"):
        with pytest.raises(MessageTooDeepError):
            page.receive(text)
    with pytest.raises(MessageTooLongError):
        page.receive("[" * (MAX_HOST_MESSAGE + 1))
    assert page.save() == saved


@pytest.mark.parametrize("text, depth", [
    (json.dumps({"a": "[[[{{{", "b": [1, {"c": "]]]"}]}), 3),
    (json.dumps({"a": 'say "[[[" and ]', "b": [[]]}), 3),     # escaped quotes do not end a string
    (json.dumps({"a": "ends in \\", "b": [[]]}), 3),         # an escaped backslash, then the end
    ('{"a":"x","b":' + "[" * 20, 21),                          # cut off: all that was opened counts
    ('["[', 1),                                                # an open string holds no brackets
])
def test_nesting_is_counted_outside_strings(text, depth):
    assert wire._depth(text) == depth


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_a_downgrade_to_the_old_deal_changes_nothing(game_id, guest_seats):
    """Mid-deal, the host sends the old deal's messages (a new commitment, a view of its
    own making, a reveal): each page refuses them by name and plays the deal on to its
    verified end."""
    table = tampering(game_id, guest_seats, length="one-deal" if game_id == "pishe-pasha" else "151")
    table.move()
    for seat in guest_seats:
        page = table.page(seat)
        saved = page.save()
        for kind, fields in [("deal-commit", {"deal": 2, "commitment": "00" * 32, "aborted": []}),
                             ("view", {"deal": 1, "view": {}}), ("deal-reveal", {"deal": 1, "seed": "00" * 32})]:
            with pytest.raises(RemovedDealError):
                page.receive(write(game_id, kind, **fields))
        assert page.save() == saved
    while table.host.phase == "playing":
        table.move()
    for seat in guest_seats:
        assert table.page(seat).verification == VERIFIED
