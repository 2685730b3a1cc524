"""Several guests at one table: Pişti's four seats through the protocol, in memory.

The host plays seat 0; guests sit in some of the other seats (one guest in seat
2 or 1, or three guests in seats 1, 2 and 3) and the game's computer plays the
rest (``Host.computer_step``). Whole decks go through the messages; every
guest checks every deck (``verified``); every message each guest receives is
checked, at the moment it is made, never to name a card hidden from that
guest's seat; the deck is dealt only once every guest has sent its part of the
shuffle, and a forged list of parts is caught; bad input from a guest gets an
error reply to its connection only and changes nothing. (``test_protocol.py``
covers the two-seat table of Pishe Pasha in depth.)
"""

from __future__ import annotations

import json
import pickle
import random

import pytest

from pishe.cards import DECK
from pishe.table.fair import derive_deck
from pishe.table.game import get_game, names_card
from pishe.table.protocol import HOST_SEAT, VERIFIED, Guest, Host, Outcome

PISTI = get_game("pisti")


def snapshot(host: Host) -> bytes:
    """The host's whole state (engine, bots, connections included) as bytes to compare."""
    return pickle.dumps(host)


class Table:
    """A host and its guests' pages joined in memory; a page's connection is its key in ``pages``.

    Every message the host makes is checked as soon as it is made (before any is
    delivered) against the cards hidden from the seat it goes to at that moment.
    """

    def __init__(self, game_id: str, guest_seats, seed: int, length=None):
        self.host = Host(game_id, length, random.Random(seed), guest_seats)
        self.game = self.host.game
        self.rng = random.Random(seed + 1)
        self.pages: dict = {}            # conn -> Guest
        self.errors: list = []           # (conn, reason) of every refusal
        self.received: dict = {}         # conn -> messages checked and delivered
        self._conns = 100                # connection numbers: each new channel gets a new one
        self.last_hello: Outcome | None = None

    # -- the channels ---------------------------------------------------------------------

    def open(self, guest: Guest | None = None) -> int:
        """A page (``guest``, or a new one) opens a new channel to the host, saying nothing
        yet; returns its connection."""
        self._conns += 1
        self.pages[self._conns] = guest if guest is not None else Guest(rng=random.Random(self.rng.random()))
        return self._conns

    def join(self, guest: Guest | None = None) -> int:
        """A page opens a new channel to the host and says hello; returns its connection."""
        conn = self.open(guest)
        outcome = self.last_hello = self.send(conn, self.pages[conn].hello())
        assert outcome.error is None, outcome.error
        return conn

    def drop(self, conn: int) -> None:
        """The channel closes."""
        self.host.disconnect(conn)
        del self.pages[conn]

    def conn_of(self, seat: int) -> int:
        return self.host.guests[seat].conn

    def page(self, seat: int) -> Guest:
        return self.pages[self.conn_of(seat)]

    def seat_of(self, conn):
        return next((s for s, g in self.host.guests.items() if g.conn == conn), None)

    # -- messages -------------------------------------------------------------------------

    def send(self, conn: int, text) -> Outcome:
        """A message from the page on ``conn`` to the host; the answers are delivered."""
        outcome = self.host.receive(text, conn)
        if outcome.error is not None:
            self.errors.append((conn, outcome.error))
            assert [to for to, _ in outcome.send] == [conn]     # an error goes to its sender only
        self.deliver(outcome.send)
        return outcome

    def hidden(self, seat) -> set:
        """The text forms of the cards ``seat`` may not see now (every card for no seat)."""
        match = self.host.match
        if match is None:
            return set()
        if seat is None:
            return {str(c) for c in DECK}
        return {str(c) for c in self.game.hidden_cards(match.deal, seat)}

    def check(self, conn: int, text: str) -> None:
        seat = self.seat_of(conn)
        data = json.loads(text)
        hidden = self.hidden(seat)
        if names_card(data, hidden):
            leaked = sorted(c for c in hidden if names_card(data, {c}))
            raise AssertionError(f"a card hidden from seat {seat} sent to it: {leaked} in {text}")

    def deliver(self, pairs) -> None:
        """The host's ``(conn, text)`` pairs to the pages, each checked first; replies go back."""
        pairs = list(pairs)
        for conn, text in pairs:             # all made by one call: check them as they are now
            self.check(conn, text)
        for conn, text in pairs:
            self.received[conn] = self.received.get(conn, 0) + 1
            outcome = self.pages[conn].receive(text)
            for reply in outcome.send:
                self.send(conn, reply)

    # -- play -----------------------------------------------------------------------------

    def move(self) -> None:
        """One move of whoever is to play: a computer, the host or a guest (through its page)."""
        host, rng = self.host, self.rng
        if host.computer_seat() is not None:
            self.deliver(host.computer_step().send)
            return
        turn = host.match.deal.turn
        if turn == HOST_SEAT:
            self.deliver(host.act(rng.choice(host.view()["legal"])).send)
            return
        view = self.page(turn).view()
        assert view["seat"] == turn and view["turn"] == turn and view["legal"]
        self.guest_move(turn, rng.choice(view["legal"]))

    def guest_move(self, seat: int, action: str) -> None:
        """The page at ``seat`` asks for ``action``; the host accepts it."""
        outcome = self.send(self.conn_of(seat), self.page(seat).intent(action))
        assert outcome.error is None, outcome.error

    def play_deck(self, between=None) -> None:
        """Play the deck in play to its end; ``between()`` runs after every move."""
        while self.host.phase == "playing":
            self.move()
            if between is not None:
                between()

    def next_deck(self) -> None:
        """The host or a guest asks for the next deck."""
        if self.rng.random() < 0.5 or not self.host.guests:
            self.deliver(self.host.next_deal().send)
        else:
            seat = self.rng.choice(sorted(self.host.guests))
            outcome = self.send(self.conn_of(seat), self.page(seat).next_deal())
            assert outcome.error is None, outcome.error

    def assert_in_step(self) -> None:
        """Every connected guest sees what the host says its seat sees, and has checked the deck."""
        host = self.host
        for seat, kept in host.guests.items():
            if kept.conn is None:
                continue
            page = self.pages[kept.conn]
            assert page.seat == seat and page.view() == json.loads(json.dumps(host.view(seat)))
            if host.phase in ("deal-over", "match-over"):
                assert (page.verification, page.verification_deal) == (VERIFIED, host.match.deal_number)


def seated(game_id: str, guest_seats, seed: int, length=None) -> Table:
    """A table whose guests have all joined (in seat order) and whose first deck is dealt."""
    table = Table(game_id, guest_seats, seed, length)
    for _ in guest_seats:
        table.join()
    assert table.host.phase == "playing" and table.errors == []
    return table


# -- whole decks --------------------------------------------------------------------------


@pytest.mark.parametrize("game_id,guest_seats,decks", [
    ("pisti", [2], 3), ("pisti", [1], 3), ("pisti", [1, 2, 3], 3), ("pishe-pasha", [1], 2), ("pisti-2", [1], 3),
])
def test_whole_decks_through_the_messages(game_id, guest_seats, decks):
    table = seated(game_id, guest_seats, seed=len(guest_seats) * 10 + guest_seats[0],
                   length="first-to-100" if game_id == "pishe-pasha" else "151")
    host = table.host
    assert sorted(host.guests) == guest_seats
    assert {table.seat_of(c) for c in table.pages} == set(guest_seats)   # seats in the order of hellos
    roles = [s["role"] for s in host.status()["seats"]]
    assert roles == ["host" if s == HOST_SEAT else "guest" if s in guest_seats else "computer"
                     for s in range(table.game.seats)]
    computers = 0
    for deck in range(1, decks + 1):
        assert host.match.deal_number == deck
        while host.phase == "playing":
            computers += host.computer_seat() is not None
            table.move()
        table.assert_in_step()
        assert host.phase == "deal-over", "the match ended before the decks the test plays"
        if deck < decks:
            table.next_deck()
            assert host.phase == "playing"
    assert table.errors == []
    assert computers > 0 if len(guest_seats) < table.game.seats - 1 else computers == 0
    for seat in guest_seats:
        mine = table.page(seat).view()["match"]
        assert mine["scores"] == host.match.scores and mine["deal"] == decks
        assert table.page(seat).status()["game"] == game_id


def test_three_guests_play_a_whole_match_dropping_and_coming_back():
    """Pages drop at random moments and come back on a new channel (the same page, or one
    reloaded from its save); the host page reloads too. Every deck is still verified by
    every guest, and nothing hidden is ever sent."""
    table = seated("pisti", [1, 2, 3], seed=7, length="51")
    rng = random.Random(8)
    away: dict = {}                       # seat -> the page that dropped, or its save (a reload)
    events = {"drops": 0, "reloads": 0, "host reloads": 0}

    def come_back(seat):
        page = away.pop(seat)
        if isinstance(page, str):
            events["reloads"] += 1
            page = Guest.restore(page, random.Random(rng.random()))
        conn = table.join(page)
        assert table.seat_of(conn) == seat

    def between():
        host = table.host
        if rng.random() < 0.03 and len(away) < 3:
            seat = rng.choice([s for s in (1, 2, 3) if s not in away])
            page = table.page(seat)
            away[seat] = page if rng.random() < 0.5 else page.save()
            table.drop(table.conn_of(seat))
            events["drops"] += 1
        for seat in sorted(away):             # back at once when the table waits for it
            if rng.random() < 0.2 or (host.phase == "playing" and host.match.deal.turn == seat) \
                    or len(host.actions) == 24:
                come_back(seat)
        planned = (host.match.deal_number, len(host.actions)) == (1, 25)
        if not away and (rng.random() < 0.01 or planned):
            events["host reloads"] += 1
            pages = {seat: table.page(seat) for seat in (1, 2, 3)}
            for seat in (1, 2, 3):
                table.drop(table.conn_of(seat))
            again = Host.restore(host.save(), random.Random(rng.random()))
            assert again.status() == host.status() and again.match.results == host.match.results
            assert all(again.view(s) == host.view(s) for s in range(4))
            table.host = again
            for seat in (1, 2, 3):
                away[seat] = pages[seat]
                come_back(seat)

    while True:
        table.play_deck(between)
        for seat in sorted(away):
            come_back(seat)
        table.assert_in_step()
        if table.host.phase == "match-over":
            break
        table.next_deck()
        assert table.host.phase == "playing"
    assert events["drops"] > 2 and events["reloads"] > 0 and events["host reloads"] > 0
    assert table.errors == []
    assert table.host.match.deal_number >= 2
    for seat in (1, 2, 3):
        assert table.page(seat).phase == "match-over"
        assert table.page(seat).view()["match"]["winner"] == table.host.match.winner


# -- secrets --------------------------------------------------------------------------------


def test_no_message_names_a_card_hidden_from_its_seat():
    """The check of every message is real: hands differ between seats, each guest is told
    its own cards, and a message naming another seat's card would be caught."""
    table = seated("pisti", [1, 2, 3], seed=11)
    host = table.host
    hands = {s: {str(c) for c in host.match.deal.hands[s]} for s in range(4)}
    for seat in (1, 2, 3):
        view = table.page(seat).view()
        assert {c["code"] for c in view["hand"]} == hands[seat]
        assert table.hidden(seat) >= set().union(*(hands[s] for s in range(4) if s != seat))
        assert not table.hidden(seat) & hands[seat]
    other = sorted(hands[2])[0]
    with pytest.raises(AssertionError, match="hidden from seat 1"):
        table.check(table.conn_of(1), json.dumps({"type": "view", "hand": [{"code": other}]}))
    table.check(table.conn_of(2), json.dumps({"type": "view", "hand": [{"code": other}]}))
    table.play_deck()                         # every message of the deck checked on the way
    assert table.errors == [] and sum(table.received.values()) > 3 * 48
    # Packets dealt during the deck were shown with their cards to their own seat only.
    for seat in (1, 2, 3):
        packets = [shown for group in table.page(seat).deal_record(1).shown for shown in group
                   if shown["kind"] == "packet"]
        assert packets and all(("cards" in shown) == (shown["seat"] == seat) for shown in packets)


def test_a_reconnecting_guest_is_resent_only_the_moves_it_lacks():
    table = seated("pisti", [1, 2, 3], seed=12)
    host = table.host
    while len(host.actions) < 9 or host.match.deal.turn != 3:
        table.move()
    held = len(host.actions)
    page = table.page(2)
    table.drop(table.conn_of(2))
    while host.match.deal.turn != 2:          # seats 3, 0 and 1 play on while it is away
        table.move()
    done = len(host.actions)
    assert done == held + 3
    table.join(page)                          # the same page: it gets only the moves it lacks
    kinds = [json.loads(text)["type"] for _, text in table.last_hello.send]
    assert kinds == ["welcome", "view"]
    view = json.loads(table.last_hello.send[1][1])
    assert view["from"] == held and len(view["actions"]) == len(view["steps"]) == done - held
    assert view["actions"] == host.actions[held:] and view["dealt"] == []
    table.play_deck()
    table.assert_in_step()
    assert table.errors == []


# -- the fair deck with several guests -------------------------------------------------------


def test_the_deck_waits_for_every_guests_part_in_seat_order():
    """Every guest commits to its part first; once all have, the host fixes the list (seat
    order) and sends it to each; only then does each reveal its part, and the deck is
    dealt once the last has come."""
    host = Host("pisti", None, random.Random(21), [1, 2, 3])
    pages, held = {}, {}
    for seat in (1, 2, 3):
        page = pages[seat] = Guest(rng=random.Random(seat))
        welcome, commit = [t for _, t in host.receive(page.hello(), 10 + seat).send]
        assert json.loads(welcome)["seat"] == seat and json.loads(commit)["type"] == "deal-commit"
        page.receive(welcome)
        (held[seat],) = page.receive(commit).send       # the page's deal-part, kept back for now
    committed = {s: json.loads(m)["commitment"] for s, m in held.items()}
    for seat in (3, 1):                       # the commitments come in any order; the list waits
        before = host.save()
        outcome = host.receive(held[seat], 10 + seat)
        assert outcome == Outcome([], []) and host.phase == "dealing" and host.match is None
        assert host.save() != before          # the commitment is kept (a reloaded host keeps it too)
        assert Host.restore(host.save()).phase == "dealing"
    # Seat 1's page, whose commitment has come, drops and comes back: it is not asked again.
    host.disconnect(11)
    outcome = host.receive(pages[1].hello(), 21)
    assert [json.loads(t)["type"] for _, t in outcome.send] == ["welcome"]
    pages[1].receive(outcome.send[0][1])
    outcome = host.receive(held[2], 12)       # the last commitment: the list is fixed and sent
    assert host.phase == "dealing" and outcome.error is None
    assert sorted(c for c, _ in outcome.send) == [12, 13, 21]
    reveals = {}
    for conn, text in outcome.send:
        message = json.loads(text)
        assert message["type"] == "deal-parts" and message["parts"] == [[s, committed[s]] for s in (1, 2, 3)]
        seat = {12: 2, 13: 3, 21: 1}[conn]
        (reveals[seat],) = pages[seat].receive(text).send
    parts = {s: json.loads(m)["contribution"] for s, m in reveals.items()}
    assert len(set(parts.values())) == 3
    for seat in (3, 1):
        assert host.receive(reveals[seat], {1: 21, 3: 13}[seat]) == Outcome([], [])
    outcome = host.receive(reveals[2], 12)    # the last part: the deck is dealt
    assert host.phase == "playing" and outcome.error is None
    for conn, text in outcome.send:
        view = json.loads(text)
        assert view["type"] == "view" and view["fair"]["contributions"] == [parts[1], parts[2], parts[3]]
        pages[{12: 2, 13: 3, 21: 1}[conn]].receive(text)
    # The deck is the one derived from the seed and the parts in seat order, and no other.
    deck = derive_deck(host.dealing.seed, [parts[1], parts[2], parts[3]], "pisti")
    fresh = PISTI.new_deal(deck, host.match.dealer)
    assert fresh.hands == host.match.deal.hands and fresh.stock == host.match.deal.stock
    assert derive_deck(host.dealing.seed, [parts[3], parts[1], parts[2]], "pisti") != deck
    assert all(page.verification is None and page.phase in ("playing",) for page in pages.values())


def test_every_guest_verifies_a_deck_dealt_from_all_their_parts():
    table = seated("pisti", [1, 2, 3], seed=22)
    host = table.host
    parts = host.dealing.parts()
    host.dealing.contributions.clear()        # the accessors hand out copies: nothing changes
    table.page(1).deal_record(1).contributions.clear()
    for seat in (1, 2, 3):
        record = table.page(seat).deal_record(1)
        assert record.contributions == parts and parts[seat - 1] == record.contribution
    assert host.dealing.parts() == parts
    table.play_deck()
    table.assert_in_step()
    assert table.errors == []


def test_the_next_deck_waits_for_a_guest_who_is_away():
    table = seated("pisti", [1, 2, 3], seed=23)
    host = table.host
    table.play_deck()
    page = table.page(3)
    table.drop(table.conn_of(3))
    table.deliver(host.next_deal().send)
    assert host.phase == "dealing"            # seats 1 and 2 sent their parts; seat 3 is away
    assert host.waiting_for() == [3] and host.status()["deal"] == 2
    table.join(page)                          # back: it is sent the commitment and answers
    assert host.phase == "playing" and host.match.deal_number == 2
    table.play_deck()
    table.assert_in_step()
    assert table.errors == []


@pytest.mark.parametrize("forgery", ["a part replaced", "parts reordered", "a part left out"])
def test_a_forged_list_of_parts_is_caught_by_the_guests(forgery):
    """The host shows the guests another list of parts than the one fixed before any was
    revealed: every guest says so at once (each holds the fixed list, and every part must be
    the one its seat committed to), and no check of the deck passes."""
    table = seated("pisti", [1, 2, 3], seed=24)
    host = table.host
    assert all(table.page(s).verification is None for s in (1, 2, 3))

    def forge(text: str) -> str:
        data = json.loads(text)
        if data["type"] == "view":          # its list of parts, seats 1, 2 and 3 in order
            fair = data["fair"]
            if forgery == "a part replaced":
                fair["contributions"][1] = "cd" * 32
            elif forgery == "parts reordered":
                fair["contributions"].reverse()
            else:
                del fair["contributions"][1], fair["parts"][1]
        return json.dumps(data)

    # Each page comes back (as after a drop) and is resent the state with the forged list.
    for seat in (1, 2, 3):
        conn = table.conn_of(seat)
        table.deliver([(to, forge(text)) for to, text in host.receive(table.page(seat).hello(), conn).send])
    for seat in (1, 2, 3):
        assert table.page(seat).verification.startswith("Deck 1 is not fair: ")     # Pişti's word
    table.play_deck()
    for seat in (1, 2, 3):
        page = table.page(seat)
        assert page.verification_deal == 1 and page.verification.startswith("Deck 1 is not fair: ")


# -- bad input from a guest ---------------------------------------------------------------------


def _mid_deck(seed: int = 31) -> Table:
    """Three guests, a deck in play, seat 2 (a guest) to move, every seat holding cards."""
    table = seated("pisti", [1, 2, 3], seed=seed)
    host = table.host
    while not (host.phase == "playing" and host.match.deal.turn == 2 and len(host.actions) > 5):
        table.move()
    return table


def _act(table: Table, seat: int, action: str, seq=None) -> str:
    page = table.page(seat)
    return json.dumps({"v": 3, "game": "pisti", "type": "act",
                       "seq": page.seq if seq is None else seq, "action": action})


def _bad_inputs(table: Table) -> dict:
    """name -> (seat whose page sends it, text, error code)."""
    host = table.host
    deck = host.match.deal
    mine = str(deck.hands[2][0])
    theirs = str(deck.hands[1][0])
    played = str(host.match.deal.pile[-1]) if deck.pile else str(deck.hands[3][0])
    seq2 = table.page(2).seq
    return {
        "replayed seq": (2, _act(table, 2, mine, seq2 - 1), "replayed-message"),
        "seq ahead": (2, _act(table, 2, mine, seq2 + 1), "out-of-order-message"),
        "someone else's token": (2, json.dumps({"v": 3, "game": "pisti", "type": "hello",
                                                "token": host.guests[1].token, "have": None}),
                                 "seat-taken"),
        "a made-up token": (2, json.dumps({"v": 3, "game": "pisti", "type": "hello",
                                           "token": "ab" * 16, "have": None}), "unknown-token"),
        "no token from a seated page": (3, json.dumps({"v": 3, "game": "pisti", "type": "hello",
                                                       "token": None, "have": None}), "seat-taken"),
        "an action for another seat": (1, _act(table, 1, theirs), "not-your-turn"),
        "a seat named": (2, json.dumps({"v": 3, "game": "pisti", "type": "act", "seq": seq2,
                                        "action": mine, "seat": 2}), "malformed-message"),
        "a card in another hand": (2, _act(table, 2, theirs), "card-not-in-hand"),
        "a card on the pile": (2, _act(table, 2, played), "card-not-in-hand"),
        "a card of no deck": (2, _act(table, 2, "1Z"), "unknown-action"),
        "another game's action": (2, _act(table, 2, "give"), "unknown-action"),
        "another game": (2, json.dumps({"v": 3, "game": "pishe-pasha", "type": "act", "seq": seq2,
                                        "action": mine}), "wrong-game"),
        "a part mid-deck": (3, json.dumps({"v": 3, "game": "pisti", "type": "deal-seed",
                                           "seq": table.page(3).seq, "deal": 1, "contribution": "00" * 32}),
                            "wrong-phase"),
        "a next deck mid-deck": (1, json.dumps({"v": 3, "game": "pisti", "type": "next-deal",
                                                "seq": table.page(1).seq, "deal": 1}), "deal-not-over"),
    }


BAD = ["replayed seq", "seq ahead", "someone else's token", "a made-up token", "no token from a seated page",
       "an action for another seat", "a seat named", "a card in another hand", "a card on the pile",
       "a card of no deck", "another game's action", "another game", "a part mid-deck",
       "a next deck mid-deck"]


def test_the_bad_inputs_are_all_tried():
    assert list(_bad_inputs(_mid_deck())) == BAD


@pytest.mark.parametrize("name", BAD)
def test_bad_input_from_a_guest_gets_an_error_and_changes_nothing(name):
    table = _mid_deck()
    host = table.host
    seat, text, code = _bad_inputs(table)[name]
    conn = table.conn_of(seat)
    before, saved = snapshot(host), host.save()
    conns = {s: g.conn for s, g in host.guests.items()}
    outcome = host.receive(text, conn)
    ((to, reply),) = outcome.send
    error = json.loads(reply)
    assert to == conn and error["type"] == "error" and error["code"] == code, error
    assert error["reason"] == outcome.error and error["next_seq"] == host.guests[seat].next_seq
    assert host.save() == saved and snapshot(host) == before
    assert {s: g.conn for s, g in host.guests.items()} == conns
    # The page takes the error in its stride, and the deck plays on to a verified end. (A
    # refused hello is not delivered: the page did not say it, and would join afresh.)
    if json.loads(text)["type"] != "hello":
        table.deliver(outcome.send)
    table.play_deck()
    table.assert_in_step()


def test_a_connection_with_no_seat_is_not_heard():
    table = _mid_deck()
    host = table.host
    before, saved = snapshot(host), host.save()
    seq = table.page(2).seq
    for text in [_act(table, 2, str(host.match.deal.hands[2][0]), seq),
                 json.dumps({"v": 3, "game": "pisti", "type": "next-deal", "seq": 0, "deal": 1})]:
        outcome = host.receive(text, 999)
        ((to, reply),) = outcome.send
        error = json.loads(reply)
        assert to == 999 and error["code"] == "not-connected" and error["next_seq"] is None
        assert host.save() == saved and snapshot(host) == before
    # A fourth page finds every guest seat taken.
    outcome = host.receive(Guest().hello(), 999)
    assert json.loads(outcome.send[0][1])["code"] == "seat-taken" and snapshot(host) == before


def test_a_guest_is_sent_only_its_own_seat():
    """Each page's view is of its own seat, and nothing a guest sends reaches another page."""
    table = _mid_deck(seed=32)
    host = table.host
    conn = table.conn_of(2)
    outcome = host.receive(table.page(2).intent(table.page(2).view()["legal"][0]), conn)
    assert outcome.error is None
    assert {c for c, _ in outcome.send} == {table.conn_of(s) for s in (1, 2, 3)}
    for c, text in outcome.send:
        assert json.loads(text)["view"]["seat"] == table.seat_of(c)
    table.deliver(outcome.send)
    table.play_deck()
    table.assert_in_step()
