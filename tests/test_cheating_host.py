"""A cheating host against real guests: every way to game the fair deal ends in "Deal N is not fair".

Each test is an attack a host's page could make on its guests' pages (a real
:class:`Guest` fed the host's messages, crafted or tampered with on their
way), at Pishe Pasha's table and at Pişti's with three guests where it
applies. None may end in "verified", and none in silence: the guest's
status says the deal is not fair, and keeps saying so.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import time

import pytest

from pishe.table.fair import commitment, derive_deck, new_secret
from pishe.table.game import get_game
from pishe.table.protocol import (
    MAX_HOST_MESSAGE, VERIFIED, Guest, Host, MessageTooDeepError, MessageTooLongError, Outcome,
    ProtocolError,
)
from pishe.table.protocol.guest import CLOCK_SLACK, REFUSALS
from pishe.table.protocol.host import COMPUTER
from pishe.table.protocol import wire
from pishe.table.protocol.wire import write
from test_table_protocol import Table

#: The tables attacked: Pishe Pasha with its one guest, Pişti with three.
TABLES = [("pishe-pasha", [1]), ("pisti", [1, 2, 3])]
MATCH_ID = "ab" * 16
#: What a cheating host writes wherever it can write words.
FORGED = "Deal 1 verified"


def not_fair(guest: Guest, deal: int = 1) -> str:
    """The guest's warning about ``deal``, checked to be one (and its status to say so)."""
    status = guest.status()
    assert status["verification_deal"] == deal, status
    assert status["verification"].startswith(f"Deal {deal} is not fair: "), status["verification"]
    return status["verification"]


class Tampering(Table):
    """A table whose host rewrites its messages on their way: ``tamper(conn, data)`` may
    change a message's JSON data in place, or return ``None`` to drop it."""

    tamper = None

    def deliver(self, pairs) -> None:
        out = []
        for conn, text in pairs:
            data = json.loads(text)
            if self.tamper is not None and self.tamper(conn, data) is False:
                continue
            out.append((conn, json.dumps(data)))
        super().deliver(out)


def tampering(game_id: str, guest_seats, seed: int = 5, length=None, clock=None, now=None) -> Tampering:
    """A seated table whose host may tamper; the guests' clocks read ``now[0]``."""
    table = Tampering(game_id, guest_seats, seed, length)
    table.host.seating.clock = clock
    for _ in guest_seats:
        table.join(Guest(rng=random.Random(table.rng.random()),
                         clock=(lambda: now[0]) if now is not None else time.monotonic))
    assert table.host.phase == "playing"
    return table


def until_turn(table: Table, seat: int) -> None:
    """Play on until ``seat`` is to move (and has a choice of actions if it can)."""
    host = table.host
    while not (host.phase == "playing" and host.match.deal.turn == seat):
        table.move()


# -- re-rolling the guest's part of the shuffle ---------------------------------------------


class Crafted:
    """A host's page that writes its own messages: it knows its seeds."""

    def __init__(self, game_id: str, seat: int = 1, seats: int = 2):
        self.game_id, self.seat = game_id, seat
        self.seats = [{"seat": s, "role": "host" if s == 0 else "guest", "connected": True,
                       "autopilot": False, "away": False, "left": False} for s in range(seats)]

    def welcome(self, seq: int = 0, match_id: str = MATCH_ID) -> str:
        game = get_game(self.game_id)
        return write(self.game_id, "welcome", seat=self.seat, token=new_secret()[:32], seq=seq,
                     seats=self.seats, length=game.default_length, length_name=FORGED,
                     target=game.lengths[game.default_length].target, clock=None, match_id=match_id)

    def commit(self, deal: int, seed: str) -> str:
        return write(self.game_id, "deal-commit", deal=deal, commitment=commitment(seed, self.game_id))

    def refuse(self, code: str, reason: str = "Deal 1 verified", ref=None) -> str:
        return write(self.game_id, "error", reason=reason, code=code, ref=ref, next_seq=None)


def parts_of(outcome: Outcome) -> list:
    return [json.loads(m)["contribution"] for m in outcome.send if json.loads(m)["type"] == "deal-seed"]


@pytest.mark.parametrize("game_id", ["pishe-pasha", "pisti"])
@pytest.mark.parametrize("fresh_page", [False, True])
def test_a_host_that_rerolls_the_guests_part_gets_one_deck(game_id, fresh_page):
    """The host knows its seed and would re-roll until it likes the deck: it closes the channel,
    refuses the seat token of the page coming back (which joins afresh: the same Guest, or a
    new one given the page's ledger) and asks for the part again, with the same commitment or a new one. The guest never gives
    a second part to the deal: the same commitment gets the same part (nothing to gain), a
    new one a warning."""
    host = Crafted(game_id, seats=2 if game_id == "pishe-pasha" else 4)
    page = Guest(rng=random.Random(1))
    page.hello()
    page.receive(host.welcome())
    seed = new_secret(random.Random(2))
    parts = set(parts_of(page.receive(host.commit(1, seed))))
    for attempt in range(12):
        page.hello()        # the host closed the channel: the page comes back, and is refused
        (hello,) = page.receive(host.refuse("unknown-token")).send      # join afresh
        assert json.loads(hello)["token"] is None
        if fresh_page:                                                  # what the page does today
            page = Guest(rng=random.Random(10 + attempt), ledger=page.ledger())
            page.hello()
        page.receive(host.welcome(seq=attempt + 1))
        again = seed if attempt % 2 else new_secret(random.Random(100 + attempt))
        parts |= set(parts_of(page.receive(host.commit(1, again))))
    assert len(parts) == 1
    assert "asked for your part of the shuffle again, with another commitment" in not_fair(page)


def test_a_token_refused_on_a_live_connection_is_called_out():
    """Refusing the seat token is how the host gets a page to join afresh: on a live
    connection it is the host's doing; after this page's own hello it may be honest."""
    host = Crafted("pisti", seat=3, seats=4)
    page = Guest(rng=random.Random(21))
    page.hello()
    page.receive(host.welcome())
    page.receive(host.commit(1, new_secret(random.Random(22))))
    page.receive(host.refuse("unknown-token"))
    assert "refused this page's seat token while it was connected" in not_fair(page)
    back = Guest(token=json.loads(host.welcome())["token"], rng=random.Random(23))
    back.hello()                                            # back from away: the seat was given on
    back.receive(host.refuse("unknown-token"))
    assert back.status()["verification"] is None


def test_re_rolling_until_the_host_likes_the_deck_is_caught():
    """The attack as a cheating host would run it: for each deal it derives the deck from the
    guest's part, plays it out in its head, and re-rolls while it would not win. Without the
    ledger it won every deal; now it gets one deck a deal (the first it was dealt), and its
    first re-roll is called out for the rest of the match."""
    game = Host("pishe-pasha").game
    host = Crafted("pishe-pasha")
    page = Guest(rng=random.Random(3))
    page.hello()
    page.receive(host.welcome())
    first = None
    for deal in range(1, 11):
        seen = set()
        for attempt in range(8):
            seed = new_secret(random.Random(deal * 100 + attempt))
            got = parts_of(page.receive(host.commit(deal, seed)))
            if not got:
                break                                   # the guest refused to give another part
            seen |= set(got)
            state = game.new_deal(derive_deck(seed, got, game.id), (game.first_dealer + deal - 1) % 2)
            while not state.over:
                state.apply(state.legal_actions()[0], state.turn)
            if state.winner == 0:
                break
            first = first or deal
        assert len(seen) == 1
        page.receive(write("pishe-pasha", "deal-reveal", deal=deal, seed=seed))
    assert first is not None
    assert "with another commitment: it could keep the deck it liked best" in not_fair(page, first)


def test_a_skipped_deal_number_and_a_later_commit_do_not_evict_the_record():
    """The host asks for deal 2's part, then deal 3's without dealing deal 2, then deal 2's
    again with a new commitment: each is called out, and deal 2 gets no second part."""
    host = Crafted("pishe-pasha")
    page = Guest(rng=random.Random(4))
    page.hello()
    page.receive(host.welcome())
    (two,) = parts_of(page.receive(host.commit(2, new_secret(random.Random(5)))))
    parts_of(page.receive(host.commit(3, new_secret(random.Random(6)))))
    assert "the host began deal 3 without revealing the seed of deal 2" in not_fair(page, 2)
    assert parts_of(page.receive(host.commit(2, new_secret(random.Random(7))))) == []
    page = Guest(rng=random.Random(8), ledger=page.ledger())    # even a page joining afresh
    page.receive(host.welcome())
    assert parts_of(page.receive(host.commit(2, new_secret(random.Random(9))))) == []
    not_fair(page, 2)
    skipping = Guest(rng=random.Random(10))
    skipping.receive(host.welcome())
    skipping.receive(host.commit(1, new_secret(random.Random(11))))
    skipping.receive(host.commit(4, new_secret(random.Random(12))))
    assert "the host began deal 4 without revealing the seed of deal 1" in not_fair(skipping, 1)


def test_a_new_match_id_while_a_deal_is_unfinished_is_called_out():
    host = Crafted("pisti", seat=2, seats=4)
    page = Guest(rng=random.Random(13))
    page.receive(host.welcome())
    page.receive(host.commit(1, new_secret(random.Random(14))))
    page.receive(host.welcome(match_id="cd" * 16))
    assert "left it unfinished and started another match" in not_fair(page)


# -- moves the guest did not make ---------------------------------------------------------------


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_a_move_played_for_the_guest_unasked_is_caught(game_id, guest_seats):
    table = tampering(game_id, guest_seats)
    seat = guest_seats[-1]
    until_turn(table, seat)
    host = table.host
    legal = host.view(seat)["legal"]
    table.deliver(host._play(seat, legal[-1]).send)            # the host plays the guest's turn
    assert "for you, which you did not play" in not_fair(table.page(seat))
    table.play_deck()
    not_fair(table.page(seat))
    assert all(table.page(s).verification == VERIFIED for s in guest_seats if s != seat)


def test_keep_swapped_for_give_is_caught():
    """The guest asks to keep its turned card; the host gives it instead."""
    for seed in range(40):
        table = tampering("pishe-pasha", [1], seed=seed)
        host = table.host
        while host.phase == "playing" and not (host.match.deal.turn == 1
                                               and {"give", "keep"} <= set(host.view(1)["legal"])):
            table.move()
        if host.phase == "playing":
            break
    page = table.page(1)
    page.intent("keep")                                         # the host takes it as a give
    host.guests[1].next_seq += 1
    table.deliver(host._play(1, "give").send)
    assert "the host played give for you, which you did not play" in not_fair(page)


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_a_timeout_the_guest_did_not_see_is_caught(game_id, guest_seats):
    now = [1000.0]
    table = tampering(game_id, guest_seats, clock=30, now=now)
    seat = guest_seats[0]
    until_turn(table, seat)
    now[0] += 30 - CLOCK_SLACK - 5                               # the clock has not run out here
    table.deliver(table.host.timeout().send)
    assert "saying your time was up when it was not" in not_fair(table.page(seat))


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_timeouts_and_autopilot_the_guest_saw_are_accepted(game_id, guest_seats):
    """The honest case: the guest's clock runs out three times, then a computer plays the
    seat until the guest plays again; every move is accepted and the deal verified."""
    now = [1000.0]
    table = tampering(game_id, guest_seats, clock=30, now=now)
    seat, host = guest_seats[0], table.host
    timeouts = 0
    while host.phase == "playing":
        if host.clock_seat() == seat and timeouts < 3:
            now[0] += 31
            table.deliver(host.timeout().send)
            timeouts += 1
        else:
            table.move()
    assert timeouts == 3 and any(a[0] == seat and a[2:] == [COMPUTER] for a in host.actions)
    assert table.page(seat).verification == VERIFIED


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_a_computer_playing_a_guest_who_is_there_is_caught(game_id, guest_seats):
    table = tampering(game_id, guest_seats)
    seat = guest_seats[0]
    until_turn(table, seat)
    host = table.host
    table.deliver(host._play(seat, host._computer_action(seat), COMPUTER).send)
    assert "had a computer play" in not_fair(table.page(seat))


def test_a_guest_who_left_accepts_the_computer():
    table = tampering("pisti", [1, 2, 3])
    page = table.page(2)
    table.send(table.conn_of(2), page.leave())
    table.play_deck()
    assert any(a[0] == 2 and a[2:] == [COMPUTER] for a in table.host.actions)
    assert page.verification == VERIFIED


# -- a false board, who leads ---------------------------------------------------------------------


def _hide_give(conn, data):
    if data["type"] == "view" and data["view"]["game"] == "pishe-pasha" and "give" in data["view"]["legal"]:
        data["view"]["legal"].remove("give")
        data["view"]["give_card"] = None


def _wrong_count(conn, data):
    if data["type"] == "view" and data["view"]["game"] == "pisti" and conn == 102:
        data["view"]["deck_count"] += 1


@pytest.mark.parametrize("game_id,guest_seats,tamper,seat", [
    ("pishe-pasha", [1], _hide_give, 1), ("pisti", [1, 2, 3], _wrong_count, 2)])
def test_a_false_board_is_caught_at_the_reveal(game_id, guest_seats, tamper, seat):
    table = tampering(game_id, guest_seats, seed=8)
    table.tamper = tamper
    while table.host.phase == "playing":
        if table.host.match.deal.turn == seat and table.page(seat).view()["legal"] == []:
            table.deliver(table.host._play(seat, table.host.view(seat)["legal"][0]).send)
        else:
            table.move()
    assert "is not the one the deal fixed at the start gives" in not_fair(table.page(seat))


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_who_deals_and_leads_is_checked(game_id, guest_seats):
    table = tampering(game_id, guest_seats)
    host = table.host
    table.tamper = lambda conn, data: data["type"] != "view" or data["view"]["match"].update(
        dealer=(data["view"]["match"]["dealer"] + 1) % host.game.seats)
    table.move()
    for seat in guest_seats:
        assert "deal it, and with it who leads" in not_fair(table.page(seat))


# -- downgrades and silence ----------------------------------------------------------------------


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_a_claimed_gap_on_a_live_connection_is_caught(game_id, guest_seats):
    table = tampering(game_id, guest_seats)
    for _ in range(6):
        table.move()
    seat = guest_seats[-1]
    table.tamper = lambda conn, data: data["type"] != "view" or conn != table.conn_of(seat) or \
        data.update({"from": data["from"] + 2, "actions": data["actions"][2:], "steps": data["steps"][2:]})
    table.move()
    table.move()
    assert "skipped moves it had not shown you, while you were connected" in not_fair(table.page(seat))


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_a_deal_dealt_without_a_commitment_is_caught(game_id, guest_seats):
    table = tampering(game_id, guest_seats, length="first-to-50" if game_id == "pishe-pasha" else "51")
    table.play_deck()
    table.tamper = lambda conn, data: data["type"] != "deal-commit" and None
    table.deliver(table.host.next_deal().send)          # the commitment never reaches the guests
    host = table.host
    for seat in guest_seats:                            # the host deals with parts it made up
        host._pending.contributions[seat] = new_secret(random.Random(seat))
    table.deliver(host._deal_when_ready().send)
    for seat in guest_seats:
        assert "dealt the cards without asking for your part" in not_fair(table.page(seat), 2)


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_a_seed_never_revealed_is_called_out(game_id, guest_seats):
    table = tampering(game_id, guest_seats)
    table.tamper = lambda conn, data: data["type"] != "deal-reveal" and None
    table.play_deck()
    for seat in guest_seats:
        assert "ended it without revealing the seed" in not_fair(table.page(seat))


def test_a_part_lost_while_away_leaves_the_deal_unchecked_never_verified():
    """The honest case next to the one above: a page's part of the shuffle is lost as its
    connection drops, and the host deals without it once the hold is over. Back, the page
    says it could not check the deal: not fair would be a false accusation, verified a lie."""
    table = tampering("pisti", [1, 2, 3], length="51")
    table.play_deck()
    host, page = table.host, table.page(2)
    table.tamper = lambda conn, data: data["type"] != "deal-commit" or conn != table.conn_of(2) or \
        page.receive(json.dumps(data)) and False            # its answer is lost on the way
    table.deliver(host.next_deal().send)
    table.drop(table.conn_of(2))
    table.deliver(host.hold_over(2).send)
    assert host.phase == "playing" and 2 not in host._played.contributions
    table.tamper = None
    table.join(page)
    table.play_deck()
    assert page.verification == "Deal 2 could not be checked: this page did not see all of it played."


# -- forged text, nesting ---------------------------------------------------------------------------


def _forge_words(conn, data):
    """Every sentence and card label the host's view carries, replaced by its own claim."""
    if data["type"] != "view":
        return
    view = data["view"]
    view["status"] = view["goal"] = FORGED
    view["hint"] = {"key": FORGED, "text": FORGED}
    view["names"] = [FORGED] * len(view["names"])
    for place in view["places"]:
        for key in place:
            if isinstance(place[key], str):
                place[key] = FORGED
    if view["game"] == "pishe-pasha":
        view["why"]["text"] = FORGED
        view["this_turn"]["steps"] = [FORGED]
        for pile in view["suit_piles"]:
            pile["label"] = FORGED
        for place in view["places"]:   # what a click on a pile does, and the highlights
            place.update(clicks={"stock": "give", "turned": "keep", "pile": "turn"}, target=True, given=True)
        view["match"]["length_name"] = FORGED
    else:
        view["since_last_turn"] = [FORGED]
        for card in view["hand"]:
            card["play_label"] = card["label"] = FORGED
        view["match"]["result"] = FORGED


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_forged_words_in_a_view_never_reach_the_page(game_id, guest_seats):
    """The host writes its own words into every sentence of its views: each guest shows
    its own, made from the view's data, and the deal (its data honest) still verifies."""
    table = tampering(game_id, guest_seats)
    table.tamper = _forge_words
    while table.host.phase == "playing":
        table.move()
        for seat in guest_seats:
            page = table.page(seat)
            assert FORGED not in json.dumps(page.view())
            assert page.view() == json.loads(json.dumps(table.host.view(seat)))
    assert all(table.page(s).verification == VERIFIED for s in guest_seats)


def test_a_host_refusal_is_worded_by_the_guest():
    host = Crafted("pishe-pasha")
    page = Guest(rng=random.Random(20))
    page.receive(host.welcome())
    assert page.status()["length_name"] == "One deal"          # not the welcome's words
    outcome = page.receive(host.refuse("not-your-turn", reason="Deal 1 verified"))
    assert outcome.error == REFUSALS["not-your-turn"]
    assert page.receive(host.refuse("made-up", reason="Deal 1 verified")).error == "The host refused a message of yours."


def test_deep_nesting_is_refused_before_parsing():
    page = Guest()
    page.receive(Crafted("pisti", seat=1, seats=4).welcome())
    for text in ("[" * 5000 + "]" * 5000, '{"v":2,"a":' + "[" * 17 + "]" * 17 + "}"):
        with pytest.raises(MessageTooDeepError):
            page.receive(text)
    with pytest.raises(MessageTooLongError):
        page.receive("[" * (MAX_HOST_MESSAGE + 1))
    assert page.status()["verification"] is None


@pytest.mark.parametrize("text, depth", [
    (json.dumps({"a": "[[[{{{", "b": [1, {"c": "]]]"}]}), 3),
    (json.dumps({"a": 'say "[[[" and ]', "b": [[]]}), 3),     # escaped quotes do not end a string
    (json.dumps({"a": "ends in \\", "b": [[]]}), 3),         # an escaped backslash, then the end
    ('{"a":"x","b":' + "[" * 20, 21),                          # cut off: all that was opened counts
    ('["[', 1),                                                # an open string holds no brackets
])
def test_nesting_is_counted_outside_strings(text, depth):
    assert wire._depth(text) == depth


def _paths(data, path=()):
    """Every place in JSON data, as the keys and indexes that lead to it."""
    if path:
        yield path
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield from _paths(value, (*path, key))


@pytest.mark.parametrize("game_id,guest_seats", TABLES)
def test_a_garbled_view_is_refused_and_changes_nothing(game_id, guest_seats):
    """A view with any one value replaced by junk: the guest reads it (its own words made
    from what is left) or refuses it with a ProtocolError, changing nothing; it never
    crashes on the host's data."""
    table = tampering(game_id, guest_seats, seed=3)
    for _ in range(20):
        table.move()
    seat, host = guest_seats[0], table.host
    page = table.page(seat)
    record = page._deals[page._view_deal()]
    record.actions, record.shown = record.actions[:-2], record.shown[:-2]    # two moves to come
    host.guests[seat].sent = len(host.actions) - 2
    honest = json.loads(host._view_message(seat))
    rng = random.Random(4)
    places = list(_paths(honest))
    junk = [None, 0, -1, 1.5, "x", "7H", "give", [], {}, True, 10 ** 20, {"code": "ZZ"}, [None]]
    for _ in range(400):
        data = copy.deepcopy(honest)
        *path, last = rng.choice(places)
        target = data
        for key in path:
            target = target[key]
        target[last] = rng.choice(junk)
        guest = copy.deepcopy(page)
        before = pickle.dumps(guest)
        try:
            guest.receive(json.dumps(data))
        except ProtocolError:
            assert pickle.dumps(guest) == before
