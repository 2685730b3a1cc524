"""A host and its guests' pages through the protocol, in memory, for every game.

The host plays seat 0; guests sit in some of the other seats and the game's computer
plays the rest (``Host.computer_step``). Every deal is dealt no-peek: each page shuffles
and locks the deck, each guest makes its own view from its own engine, and every page
checks the whole deal at its end (``verified``). Every message each page receives is
checked, at the moment it is made, never to name a card (but a move once made); bad
input from a guest gets an error reply to its connection only and changes nothing, a
message of the removed commit-and-reveal deal included. (``test_nopeek_table.py`` covers
aborts, reloads and what the host page's memory holds.)
"""

from __future__ import annotations

import json
import pickle
import random

import pytest

from pishe.cards import DECK
from pishe.table.game import get_game, names_card
from pishe.table.protocol import HOST_SEAT, VERIFIED, VERSION, Guest, Host, Outcome

PISTI = get_game("pisti")


def snapshot(host: Host) -> bytes:
    """The host's whole state (engine, bots, connections included) as bytes to compare."""
    return pickle.dumps(host)


class Table:
    """A host and its guests' pages joined in memory; a page's connection is its key in ``pages``.

    Every message the host makes is checked as soon as it is made (before any is
    delivered) never to name a card (:meth:`check`).
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
        self.queue: list = []            # (conn, text) made by the host, not yet delivered
        self.delivering = False

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

    @staticmethod
    def check(conn: int, text: str) -> None:
        """No message names a card: a no-peek deal's messages carry points and keys, never a
        card, but for the moves (public once made: ``np-act``'s ``action``)."""
        data = json.loads(text)
        logged = [data.get("message")] + list(data.get("log") or [])
        for message in logged:
            if isinstance(message, dict) and message.get("type") == "np-act":
                message.pop("action", None)
        if names_card(data, {str(c) for c in DECK}):
            leaked = sorted(c for c in map(str, DECK) if names_card(data, {c}))
            raise AssertionError(f"a card sent to connection {conn}: {leaked} in {text}")

    def deliver(self, pairs) -> None:
        """The host's ``(conn, text)`` pairs to the pages, each checked first (all made by one
        call: checked as they are now); replies go back. As the channels do: each
        connection's messages in the order the host sent them (an answer's consequences
        wait behind what was sent before it)."""
        pairs = list(pairs)
        for conn, text in pairs:
            self.check(conn, text)
        self.queue.extend(pairs)
        if self.delivering:
            return
        self.delivering = True
        try:
            while self.queue:
                conn, text = self.queue.pop(0)
                if conn in self.pages:
                    self.received[conn] = self.received.get(conn, 0) + 1
                    for reply in self.pages[conn].receive(text).send:
                        self.send(conn, reply)
        finally:
            self.delivering = False

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
        """The page at ``seat`` makes ``action`` with its keys; the host takes every message of it."""
        for text in self.page(seat).move(action).send:
            assert self.send(self.conn_of(seat), text).error is None

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


# -- whole deals ----------------------------------------------------------------------------


def _variants():
    """Every registered game and variant, with its guest seats: one friend, and (in a game
    of more seats) a friend at every seat."""
    from pishe.table.game import games

    out = []
    for game in games():
        out.append((game.id, [1]))
        if game.seats > 2:
            out.append((game.id, list(range(1, game.seats))))
    return out


@pytest.mark.parametrize("game_id,guest_seats", _variants())
def test_whole_deals_through_the_messages(game_id, guest_seats):
    """Two deals of every game and variant (a one-deal match where the game has one) through
    the messages: every page verifies every deal, and every page's view is its own seat's."""
    game = get_game(game_id)
    short = "one-deal" if "one-deal" in game.lengths else game.default_length
    table = seated(game_id, guest_seats, seed=len(guest_seats) * 10 + guest_seats[0], length=short)
    host = table.host
    assert sorted(host.guests) == guest_seats
    assert {table.seat_of(c) for c in table.pages} == set(guest_seats)   # seats in the order of hellos
    roles = [s["role"] for s in host.status()["seats"]]
    assert roles == ["host" if s == HOST_SEAT else "guest" if s in guest_seats else "computer"
                     for s in range(table.game.seats)]
    for deal in (1, 2):
        assert host.match.deal_number == deal
        table.play_deck()
        table.assert_in_step()
        if host.phase == "match-over":
            break
        table.next_deck()
        assert host.phase == "playing"
    assert table.errors == []
    for seat in guest_seats:
        mine = table.page(seat).view()["match"]
        assert mine["scores"] == host.view()["match"]["scores"] and mine["deal"] == host.match.deal_number
        assert table.page(seat).status()["game"] == game_id


def test_three_guests_play_a_whole_match_dropping_and_coming_back():
    """Pages drop at random moments and come back on a new channel (the same page, or one
    reloaded from its save); the host page reloads too. Every deck is still verified by
    every guest, and nothing hidden is ever sent."""
    table = seated("pisti", [1, 2, 3], seed=7, length="51")
    rng = random.Random(8)
    away: dict = {}                       # seat -> the page that dropped, or its save and ledger (a reload)
    events = {"drops": 0, "reloads": 0, "host reloads": 0}

    def come_back(seat):
        page = away.pop(seat)
        if isinstance(page, tuple):
            events["reloads"] += 1
            page = Guest.restore(page[0], random.Random(rng.random()), page[1])
        conn = table.join(page)
        assert table.seat_of(conn) == seat

    def between():
        host = table.host
        if rng.random() < 0.03 and len(away) < 3:
            seat = rng.choice([s for s in (1, 2, 3) if s not in away])
            page = table.page(seat)
            away[seat] = page if rng.random() < 0.5 else (page.save(), page.ledger())
            table.drop(table.conn_of(seat))
            events["drops"] += 1
        for seat in sorted(away):             # back at once when the table waits for it
            if rng.random() < 0.2 or seat in host.waiting_for() or len(host.actions) == 24:
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
    assert table.host.match.deal_number >= 2 and table.host.aborts == []
    for seat in (1, 2, 3):
        assert table.page(seat).phase == "match-over"
        assert table.page(seat).view()["match"]["winner"] == table.host.match.winner


# -- secrets --------------------------------------------------------------------------------


def test_no_message_names_a_card():
    """The check of every message is real: each guest's page shows its own cards (four, none
    of another's), a message naming a card would be caught, a move's action would not."""
    table = seated("pisti", [1, 2, 3], seed=11)
    hands = {s: {c["code"] for c in table.page(s).view()["hand"]} for s in (1, 2, 3)}
    assert all(len(h) == 4 for h in hands.values()) and len(set().union(*hands.values())) == 12
    other = sorted(hands[2])[0]
    with pytest.raises(AssertionError, match="a card sent to connection"):
        table.check(table.conn_of(1), json.dumps({"type": "np", "hand": [{"code": other}]}))
    table.check(table.conn_of(1), json.dumps({"type": "np", "message": {"type": "np-act", "action": other}}))
    table.play_deck()                         # every message of the deck checked on the way
    assert table.errors == [] and sum(table.received.values()) > 3 * 48


def test_a_page_back_on_a_new_channel_is_resent_the_deal_and_plays_on():
    """A page that drops mid-deal and comes back (its tab kept) is welcomed and resent the
    deal's try with its log: it rebuilds its seat, sends only what the others never got,
    and the deal ends verified on every page."""
    table = seated("pisti", [1, 2, 3], seed=12)
    host = table.host
    while len(host.actions) < 9 or host.match.deal.turn != 3:
        table.move()
    page = table.page(2)
    table.drop(table.conn_of(2))
    table.move()                              # seat 3 plays on while it is away
    assert 2 in host.waiting_for() or host.match.deal.turn != 2
    table.join(page)
    kinds = [json.loads(text)["type"] for to, text in table.last_hello.send if to == table.conn_of(2)]
    assert kinds[:2] == ["welcome", "np-deal"]
    assert page.view()["match"]["deal"] == 1 and len(host.actions) > 10
    table.play_deck()
    table.assert_in_step()
    assert table.errors == [] and host.aborts == []


def test_the_next_deck_waits_for_a_guest_who_is_away():
    table = seated("pisti", [1, 2, 3], seed=23)
    host = table.host
    table.play_deck()
    page = table.page(3)
    table.drop(table.conn_of(3))
    table.deliver(host.next_deal().send)
    assert host.phase == "dealing"            # seats 1 and 2 are here; seat 3's page is not
    assert host.waiting_for() == [3] and host.status()["deal"] == 2
    table.join(page)                          # back: the deck is dealt with it
    assert host.phase == "playing" and host.match.deal_number == 2
    table.play_deck()
    table.assert_in_step()
    assert table.errors == []


# -- bad input from a guest ---------------------------------------------------------------------


def _mid_deck(seed: int = 31) -> Table:
    """Three guests, a deck in play, seat 2 (a guest) to move, every seat holding cards."""
    table = seated("pisti", [1, 2, 3], seed=seed)
    host = table.host
    while not (host.phase == "playing" and host.match.deal.turn == 2 and len(host.actions) > 5):
        table.move()
    return table


def _message(**fields) -> str:
    return json.dumps({"v": VERSION, "game": "pisti", **fields})


def _move_message(table: Table, seat: int, seq=None) -> dict:
    """The message seat ``seat``'s page would send for its first legal move (made on a copy of
    the page: the page itself is not changed)."""
    import copy

    text = copy.deepcopy(table.page(seat)).move(table.page(seat).view()["legal"][0]).send[0]   # its np-act
    data = json.loads(text)
    if seq is not None:
        data["seq"] = seq
    return data


def _bad_inputs(table: Table) -> dict:
    """name -> (seat whose page sends it, text, error code)."""
    host = table.host
    seq2 = table.page(2).seq
    move = _move_message(table, 2)
    card = table.page(2).view()["legal"][0]
    return {
        "replayed seq": (2, json.dumps({**move, "seq": seq2 - 1}), "replayed-message"),
        "seq ahead": (2, json.dumps({**move, "seq": seq2 + 1}), "out-of-order-message"),
        "someone else's token": (2, _message(type="hello", token=host.guests[1].token), "seat-taken"),
        "a made-up token": (2, _message(type="hello", token="ab" * 16), "unknown-token"),
        "no token from a seated page": (3, _message(type="hello", token=None), "seat-taken"),
        "another seat's move": (1, json.dumps({**move, "seq": table.page(1).seq}), "malformed-message"),
        "a move for another deal": (2, json.dumps({**move, "deal": 2}), "wrong-phase"),
        "a field too many": (2, json.dumps({**move, "seat": 2}), "malformed-message"),
        "another game": (2, json.dumps({**move, "game": "pishe-pasha"}), "wrong-game"),
        "another version": (2, json.dumps({**move, "v": 3}), "unsupported-version"),
        "an old intent": (2, _message(type="act", seq=seq2, action=card), "removed-deal"),
        "an old part of the shuffle": (3, _message(type="deal-seed", seq=table.page(3).seq, deal=1,
                                                   contribution="00" * 32), "removed-deal"),
        "a next deck mid-deck": (1, _message(type="next-deal", seq=table.page(1).seq, deal=1), "deal-not-over"),
    }


BAD = ["replayed seq", "seq ahead", "someone else's token", "a made-up token", "no token from a seated page",
       "another seat's move", "a move for another deal", "a field too many", "another game", "another version",
       "an old intent", "an old part of the shuffle", "a next deck mid-deck"]


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
    for text in [json.dumps(_move_message(table, 2)), _message(type="next-deal", seq=0, deal=1)]:
        outcome = host.receive(text, 999)
        ((to, reply),) = outcome.send
        error = json.loads(reply)
        assert to == 999 and error["code"] == "not-connected" and error["next_seq"] is None
        assert host.save() == saved and snapshot(host) == before
    # A fourth page finds every guest seat taken.
    outcome = host.receive(Guest().hello(), 999)
    assert json.loads(outcome.send[0][1])["code"] == "seat-taken" and snapshot(host) == before


def test_a_guests_message_is_relayed_to_the_others_only():
    """A guest's move goes to every other page of the deal, never back to its own."""
    table = _mid_deck(seed=32)
    host = table.host
    conn = table.conn_of(2)
    page = table.page(2)
    sent = page.move(page.view()["legal"][0]).send
    outcome = host.receive(sent[0], conn)
    assert outcome.error is None and json.loads(sent[0])["message"]["type"] == "np-act"
    relayed = {c for c, text in outcome.send if json.loads(text).get("message", {}).get("type") == "np-act"}
    assert relayed == {table.conn_of(s) for s in (1, 3)}
    # The host's page may answer the move with keys of its own (cards it opened), to every page.
    assert all(json.loads(text)["message"]["type"] == "np-keys" for c, text in outcome.send if c == conn)
    table.deliver(outcome.send)
    for text in sent[1:]:
        assert table.send(conn, text).error is None
    table.play_deck()
    table.assert_in_step()
