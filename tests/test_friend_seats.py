"""The people at a friends' table and the computers that stand in for them, in memory:
the host's clock's timeouts (the table plays the computer's card, marked in the log;
three in a row and a computer keeps the seat until Take over or a card played),
Deal now and a silent page (a computer plays the seat), Leave the table (a computer
for good, and the next deck is not held up), and everyone seeing who sits where.
Every guest still verifies every deck. (A guest's own timeouts and a lost page's
hold, which abort the deal it took its keys from: ``test_nopeek_table.py``.)
"""

from __future__ import annotations

import json

import pytest

from pishe.errors import InvalidMatchLengthError, PisheError
from pishe.table.protocol import HOST_SEAT, VERIFIED, Guest, Host
from pishe.table.protocol.host import NotAGuestSeatError
from pishe.table.protocol.wire import VERSION, WrongPhaseError
from test_table_protocol import Table, seated

CLOCK = 15


class Time:
    """A clock the test moves on: every guest page's, so that their clocks run out when the host's does."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def clocked(guest_seats, seed: int) -> tuple:
    """A seated Pişti table with a clock, its guests' pages reading ``Time``."""
    import random

    time = Time()
    table = Table("pisti", guest_seats, seed)
    table.host.seating.clock = CLOCK
    for _ in guest_seats:
        table.join(Guest(rng=random.Random(table.rng.random())))
    return table, time


def seat_info(host: Host, seat: int) -> dict:
    return host.status()["seats"][seat]


def to_turn(table, seat: int) -> None:
    """Play on until it is ``seat``'s turn."""
    while table.host.match.deal.turn != seat:
        table.move()


def test_playing_a_card_takes_the_seat_back_and_the_host_times_out_too():
    table, time = clocked([2], seed=8)
    host = table.host
    for _ in range(3):
        to_turn(table, HOST_SEAT)
        table.deliver(host.timeout().send)
    assert seat_info(host, HOST_SEAT)["autopilot"]
    to_turn(table, HOST_SEAT)
    assert host.computer_seat() == HOST_SEAT
    table.deliver(host.act(host.view()["legal"][0]).send)   # a card played by hand
    assert not seat_info(host, HOST_SEAT)["autopilot"]
    table.play_deck()
    table.assert_in_step()


def test_a_guest_who_leaves_is_played_by_a_computer_for_good():
    table = seated("pisti", [1, 3], seed=3)
    host = table.host
    conn = table.conn_of(3)
    outcome = table.send(conn, table.page(3).leave())
    assert outcome.error is None and seat_info(host, 3)["left"]
    table.drop(conn)
    table.play_deck()
    # The next deck is dealt with the guest who is still here.
    table.deliver(host.next_deal().send)
    assert host.phase == "playing"
    # The seat cannot be taken again by a new page, nor after the host's tab reloads.
    refused = host.receive(Guest().hello(), 999)
    assert refused.error is not None and seat_info(host, 3)["left"]
    assert Host.restore(host.save()).seats()[3]["left"] is True


def test_fuzz_from_every_guest_changes_nothing_when_refused():
    """MESSAGES random and broken messages from the three guests' connections (and one
    with no seat) as a Pişti match goes on: the host never raises, and every refused
    message leaves its whole state (engine, seats, bots) exactly as it was."""
    import pickle
    import random

    from test_protocol_fuzz import MESSAGES, Fuzzer, random_value

    rng = random.Random(99)
    table = seated("pisti", [1, 2, 3], seed=21)
    host = table.host
    breaker = Fuzzer(rng, None)          # its mutate() breaks a message; it needs nothing else
    cards = ["AS", "10H", "JC", "2C", "QD", "XX", "", None]
    refused = 0
    # The host pickled before each message. A refused message left it as it was (the test
    # checks so), so the pickle taken after it is the next one's `before`: the host is
    # pickled again only after something changed it (half the pickling, most of the time).
    before = None
    for n in range(MESSAGES):
        seat = rng.choice([1, 2, 3, None])
        conn = table.conn_of(seat) if seat is not None else 999
        seq = (host.guests[seat].next_seq if seat else 0) + rng.choice([0, -1, 1, 7])
        message = rng.choice([
            {"type": "act", "seq": seq, "action": rng.choice(cards)},
            {"type": "take-over", "seq": seq + rng.choice([1, -1])},
            {"type": "leave", "seq": seq + rng.choice([1, -1, 3])},
            {"type": "next-deal", "seq": seq, "deal": host.status()["deal"] + rng.choice([0, 1, -1])},
            {"type": "deal-seed", "seq": seq, "deal": host.status()["deal"], "contribution": "ab" * 32},
            {"type": "hello", "token": rng.choice([None, "ab" * 16])},
            {"type": "name", "seq": seq, "name": rng.choice([None, "Ayşe", "x" * 21, " Ali", "<b>", 5, ""])},
        ])
        message = {"v": VERSION, "game": "pisti", **message}
        pick = rng.randrange(10)
        if pick < 5:
            text = json.dumps(breaker.mutate(message))
        elif pick < 7:
            text = json.dumps(message)
        elif pick < 9:
            text = json.dumps(random_value(rng))
        else:
            text = "[" * rng.randrange(1, 5000)
        if before is None:
            before = pickle.dumps(host)
        outcome = host.receive(text, conn)
        if outcome.error is not None:
            refused += 1
            # The state as it was, pickled: also the next message's `before`.
            assert pickle.dumps(host) == before, (text, outcome.error)
        else:
            before = None
            if seat is not None:
                # The fuzzer spoke for that seat's page: the page counts its messages on from there,
                # as a page learns where: from the host's refusal of one it numbered out of turn.
                table.send(conn, json.dumps({"v": 3, "game": "pisti", "type": "name", "seq": -1, "name": None}))
                assert table.page(seat).seq == host.guests[seat].next_seq
                table.deliver(outcome.send)
        if n % 25 == 0 and host.phase == "playing":
            table.move()
            before = None
        elif n % 25 == 0 and host.phase == "deal-over":
            table.deliver(host.next_deal().send)
            before = None
    assert refused > MESSAGES * 0.9


def test_a_page_sits_at_the_seat_its_invite_was_for():
    """The host's page numbers each seat's channel by the seat: whoever says hello first,
    the page on channel 3 gets seat 3, on channel 1 seat 1."""
    host = Host("pisti", "101", None, [1, 2, 3])
    for conn in (3, 1, 2):
        welcome = json.loads(host.receive(Guest().hello(), conn).send[0][1])
        assert welcome["seat"] == conn


def test_deal_now_seats_computers_where_no_friend_came_and_a_late_friend_plays_from_the_next_deck():
    table = Table("pisti", [1, 2, 3], seed=31)
    host = table.host
    with pytest.raises(WrongPhaseError):
        seated("pisti", [1], seed=2).host.deal_now()            # nothing is being dealt
    table.join()                                                 # only seat 1's friend comes
    assert host.phase == "dealing" and host.waiting_for() == [2, 3]
    assert host.status()["waiting_for"] == [2, 3]
    table.deliver(host.deal_now().send)
    assert host.phase == "playing" and host.waiting_for() in ([], [1])
    assert [seat_info(host, s)["away"] for s in (1, 2, 3)] == [False, True, True]
    # The host's tab reloads: the seats Deal now gave to computers are still theirs.
    assert [Host.restore(host.save()).seats()[s]["away"] for s in (1, 2, 3)] == [False, True, True]
    page1 = table.page(1)
    for _ in range(5):
        table.move()
    # Seat 3's friend opens its link mid-deck: seated, but a computer plays the seat until
    # the next deck, and its page cannot play for it.
    late = Guest()
    conn = 3                          # the page numbers each seat's channel by its seat
    table.pages[conn] = late
    table.send(conn, late.hello())
    assert table.seat_of(conn) == 3 and seat_info(host, 3)["away"]
    to_turn(table, 3)
    assert host.computer_seat() == 3
    assert late.sits_out()
    with pytest.raises(WrongPhaseError):
        late.move("AS")                                          # it holds no cards of this deck
    table.play_deck()
    assert page1.verification == VERIFIED
    table.deliver(host.next_deal().send)
    # The next deck: seat 3 is its friend's page's, seat 2 still the host page's computer's.
    assert host.phase == "playing" and host.np_try["pages"] == [0, 1, 0, 3]
    assert [seat_info(host, s)["away"] for s in (1, 2, 3)] == [False, True, False]
    table.play_deck()
    assert late.verification == VERIFIED and page1.verification == VERIFIED


def test_a_silent_page_is_named_then_played_by_a_computer_until_it_plays_again():
    table = Table("pisti", [1, 2], seed=41)
    host = table.host
    quiet = Guest()
    conn = 1                     # seat 1's invite; not one of the table's pages: nothing reaches it
    # Seat 1's page says hello but never sends its part of the dealing.
    welcome = host.receive(quiet.hello(), conn)
    for _, text in welcome.send:
        quiet.receive(text)                                      # its replies are never sent
    table.join()
    assert host.phase == "dealing" and host.waiting_for() == [1]
    assert host.silent(2).send == []                             # not waited on: nothing changes
    with pytest.raises(NotAGuestSeatError):
        host.silent(3)
    table.deliver(host.silent(1).send)                           # its hold ran out
    assert host.phase == "playing" and seat_info(host, 1)["away"]
    to_turn(table, 1)
    assert host.computer_seat() == 1
    table.move()


def test_a_seat_that_left_cannot_act_again():
    table = seated("pisti", [1, 2], seed=13)
    host = table.host
    conn = table.conn_of(2)
    page = table.page(2)
    assert table.send(conn, page.leave()).error is None
    to_turn(table, 2)
    before = host.save()
    refused = host.receive(json.dumps({"v": VERSION, "game": "pisti", "type": "take-over",
                                       "seq": host.guests[2].next_seq}), conn)
    assert refused.error == "You left the table: a computer plays this seat for good."
    assert json.loads(refused.send[0][1])["code"] == "seat-left" and host.save() == before


def test_play_again_starts_a_new_match_with_the_same_friends_in_the_same_seats():
    table = seated("pisti", [1, 2, 3], seed=17, length="51")
    host = table.host
    with pytest.raises(WrongPhaseError):
        host.play_again()                                      # the match is on
    while host.phase != "match-over":
        table.play_deck()
        if host.phase == "deal-over":
            table.next_deck()
    first_id, pages = host.match_id, {s: table.page(s) for s in (1, 2, 3)}
    with pytest.raises(InvalidMatchLengthError):
        host.play_again("52", None)                            # no such length: nothing changes
    # The host's settings chosen during the match: another length, a clock.
    table.deliver(host.play_again("101", 30).send)
    # Dealt at once: every friend sent its part of the new match's first deck.
    assert host.phase == "playing" and host.match_id != first_id and host.match.deal_number == 1
    assert (host.length, host.clock) == ("101", 30) and table.page(2).status()["length"] == "101"
    assert host.match.scores == [0, 0] or list(host.match.scores) == [0, 0]
    assert {s: table.page(s) for s in (1, 2, 3)} == pages     # the same pages in the same seats
    table.play_deck()
    table.assert_in_step()
    assert all(page.verification == VERIFIED for page in pages.values())


def test_friends_name_their_seats_as_player_text_checked_and_shown_to_everyone():
    table = seated("pisti", [1, 2], seed=23)
    host = table.host
    page = table.page(1)
    assert table.send(table.conn_of(1), page.name("Ayşe <b>")).error is None
    table.deliver(host.set_name("Mehmet").send)
    assert [s["name"] for s in host.seats()] == ["Mehmet", "Ayşe <b>", None, None]
    assert [s["name"] for s in table.page(2).status()["seats"]] == ["Mehmet", "Ayşe <b>", None, None]
    # The host's tab reloads: the names are kept.
    assert [s["name"] for s in Host.restore(host.save()).seats()] == ["Mehmet", "Ayşe <b>", None, None]
    # Never inside the table's own sentences: the views name seats by where they sit.
    assert "Ayşe" not in json.dumps(host.view(2)) and "Mehmet" not in json.dumps(table.page(2).view())
    # Too long, blank, padded, a line break, not text: refused by the page itself, and by the host.
    for bad in ("x" * 21, "", " Ali", "a\nb", 5):
        with pytest.raises(PisheError):
            page.name(bad)
        before = host.save(), host.seats()
        message = json.dumps({"v": VERSION, "game": "pisti", "type": "name", "seq": host.guests[1].next_seq,
                              "name": bad})
        refused = host.receive(message, table.conn_of(1))
        assert json.loads(refused.send[0][1])["code"] == "malformed-message"
        assert (host.save(), host.seats()) == before
    with pytest.raises(PisheError):
        host.set_name("x" * 21)
    assert table.send(table.conn_of(1), page.name(None)).error is None and host.seats()[1]["name"] is None
