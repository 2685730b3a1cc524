"""No-peek dealing at a friends' table: the real Host and Guests carrying the np-* messages.

The pages are joined in memory by ``test_table_protocol``'s :class:`Table` (every message
checked, before it is delivered, never to name a card but a move's). No page
knows the deck: each guest makes its own view from its own engine, the host's page runs the
one match on the cards opened to it, and every page checks the whole deal at its end.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pishe.cards import DECK
from pishe.table.group import group
from pishe.table.nopeek import card_points
from pishe.table.protocol import Guest, Host
from pishe.table.protocol.nopeek_deal import dealer_of
from pishe.table.protocol.wire import VERIFIED

from test_table_protocol import Table

ROOT = Path(__file__).resolve().parent.parent


def seated(game_id, guest_seats, seed, length=None) -> Table:
    table = Table(game_id, guest_seats, seed, length)
    for _ in guest_seats:
        table.join()
    assert table.host.phase == "playing" and table.errors == [], table.errors
    return table


def _whole_deals():
    """Every registered game and variant: a friend across the table (seat 1 of two) for two deals,
    and in a game of more seats a friend at every seat for one; each in its shortest match."""
    from pishe.table.game import games

    cases = []
    for game in games():
        length = min(game.lengths, key=lambda name: game.lengths[name].max_deals or 1_000)
        cases.append((game.id, [game.seats // 2], 2, length))
        if game.seats > 2:
            cases.append((game.id, list(range(1, game.seats)), 1, length))
    return cases


# Batak's following rules rest on a whole hand, which a page holds as stand-ins but its own
# (Game.replay): the deal goes on on every page, and the end check judges them.
@pytest.mark.parametrize("game_id, guest_seats, deals, length", _whole_deals())
def test_whole_deals_no_page_knowing_the_deck(game_id, guest_seats, deals, length):
    table = seated(game_id, guest_seats, seed=5, length=length)
    host = table.host
    for deal in range(1, deals + 1):
        assert host.match.deal_number == deal
        while host.phase == "playing":
            table.move()
        assert host.phase == ("match-over" if host.match.over else "deal-over")
        assert host.status()["verification"] == VERIFIED
        for seat in guest_seats:
            page = table.page(seat)
            assert (page.verification, page.verification_deal) == (VERIFIED, deal)
            assert page.view()["match"]["scores"] == host.view()["match"]["scores"]
            assert page.phase == host.phase
        if host.phase == "match-over":
            break
        if deal < deals:
            table.deliver(host.next_deal().send)
    if host.phase == "match-over":          # the same friends again: a new match, dealt no-peek
        table.deliver(host.play_again().send)
        assert host.phase == "playing" and host.match.deal_number == 1 and host.match.results == []
        assert table.page(guest_seats[0]).phase == "playing"
    assert table.errors == []


def test_a_page_gone_mid_deal_aborts_it_by_name_and_a_computer_deals_in_its_seat():
    """After its hold, a page gone mid-deal has taken its keys: every other page shows the deal
    aborted by that seat, named; the deal is dealt again with the host page's computer there."""
    table = seated("pisti", [1, 2, 3], seed=9, length="151")
    host = table.host
    for _ in range(6):
        table.move()
    gone = table.page(2)
    table.drop(table.conn_of(2))
    assert host.phase == "playing"
    table.deliver(host.hold_over(2).send)
    assert host.aborts == [[1, [2]]]
    # Back with its seat token mid-deal, its tab reloaded: the computer plays this deal out, the
    # friend the next.
    conn = table.join(Guest.restore(gone.save(), random.Random(8), gone.ledger()))
    back = table.pages[conn]
    gone.hello()                                 # the same, its tab kept open
    for text in (text for to, text in table.last_hello.send if to == conn):
        gone.receive(text)
    assert host.seats()[2]["away"] and host.guests[2].joining and table.errors == []
    for seat in (1, 3):
        status = table.page(seat).status()
        assert status["aborts"] == 1
        assert status["verification"] == ("Deck 1 was stopped: " + ("Right" if seat == 1 else "Left")
                                          + " left before it was over (stopped and dealt again "
                                            "at this table: 1).")
    # The page back is told as the others were: the same line, named (its own seat) and counted.
    for page in (back, gone):
        # It sits the deal out: its seat's place at the table, and when it plays again.
        assert page.sits_out() and page.phase == "playing"
        view = page.view()
        assert view["seat"] == 2 and view["hand"] == [] and view["names"][2] == "You"
        assert view["status"] == "A computer plays your seat for now: you play when the next deck is dealt."
        assert page.status()["aborts"] == 1
        assert page.status()["verification"] == ("Deck 1 was stopped: your page was gone before it was "
                                                 "over (stopped and dealt again at this table: 1).")
    assert host.phase == "playing" and host.match.deal_number == 1 and host.computer_seat() in (None, 2)
    assert host.status()["computers_note"] and table.page(1).status()["computers_note"]
    while host.phase == "playing":
        table.move()
    assert host.actions and any(seat == 2 and mark == ["computer"] for seat, _t, *mark in host.actions)
    for seat in (1, 3):
        assert table.page(seat).verification == VERIFIED
    assert host.status()["verification"] == VERIFIED and table.errors == []
    assert back.sits_out() and back.view()["seat"] == 2 and back.view()["hand"] == []
    table.deliver(host.next_deal().send)
    assert not host.seats()[2]["away"] and host.np_try["pages"][2] == 2 and host.phase == "playing"
    assert not back.sits_out() and back.phase == "playing" and len(back.view()["hand"]) == 4


def test_a_friend_new_to_a_computers_seat_mid_deal_sees_its_place_and_plays_from_the_next():
    """The host dealt without a friend who had not come (Deal now): that seat is the host page's
    computer's for the deal. The friend's page, come mid-deal, shows its own seat's place at the
    table and says when it plays (in its language); the host's page says the computer has it."""
    from pishe.table import lang

    table = Table("pisti", [1, 2, 3], 12, "151")
    host = table.host
    table.join()
    table.join()
    table.deliver(host.deal_now().send)
    assert host.phase == "playing" and host.np_try["pages"][3] == 0
    table.move()
    page = table.page(table.seat_of(table.join()))
    assert page.seat == 3 and host.guests[3].joining and table.errors == []
    assert page.sits_out() and page.phase == "playing" and page.status()["deal"] is None
    view = page.view()
    assert (view["seat"], view["names"][3], view["hand"]) == (3, "You", [])
    assert view["status"] == "A computer plays your seat for now: you play when the next deck is dealt."
    lang.set_language("tr")
    try:
        assert page.view()["status"] == ("Şimdilik senin yerine bilgisayar oynuyor; sonraki el dağıtılınca "
                                         "sen oynarsın.")
    finally:
        lang.set_language("en")
    assert host.status()["computers_note"]


def test_both_pages_come_back_from_a_reload_mid_deal_and_finish_it():
    """The host's page and a guest's page are saved mid-deal and restored: each rebuilds its
    part of the deal from its own secret and the deal's log, and the deal ends verified."""
    table = seated("pishe-pasha", [1], seed=3, length="first-to-100")
    host = table.host
    for _ in range(5):
        table.move()
    conn = table.conn_of(1)
    guest = table.pages[conn]
    saved, ledger = guest.save(), guest.ledger()
    table.host = host = Host.restore(host.save(), random.Random(4))
    table.pages.clear()
    table.join(Guest.restore(saved, random.Random(5), ledger))
    assert host.phase == "playing" and table.errors == []
    while host.phase == "playing":
        table.move()
    assert host.status()["verification"] == VERIFIED
    assert table.page(1).verification == VERIFIED and table.errors == []


def test_the_host_waits_on_a_friends_keys_and_its_silence_aborts_the_deal():
    """The host's page turns a card: it waits on its friend's key for it (the table names the
    friend, and the page's silence hold runs on it); a friend silent past its hold aborts the
    deal by name, and a computer deals in its seat. Over, the deal waits on the secrets."""
    table = seated("pishe-pasha", [1], seed=3, length="first-to-100")
    host = table.host
    while not (host.match.deal.turn == 0 and host.view()["legal"] == ["turn"]):
        table.move()
    assert host.waiting_for() == []
    held = host.act("turn").send                 # not delivered: the friend's page is silent
    assert host.view()["legal"] == [] and host.waiting_for() == [1]
    table.deliver(host.silent(1).send)
    assert host.aborts == [[1, [1]]] and host.match.deal_number == 1 and host.phase == "playing"
    assert held and host.waiting_for() == [] and table.errors == []


def test_a_friend_back_on_a_new_page_mid_deal_aborts_the_try_at_once_and_deals_it_again():
    """A friend's tab is closed mid-deal (its secret with it) and a new tab takes the seat:
    the try in play is aborted by that seat at once, named, and dealt again with the new page,
    which plays it to a verified end."""
    table = seated("pishe-pasha", [1], seed=6, length="first-to-100")
    host = table.host
    for _ in range(6):
        table.move()
    table.drop(table.conn_of(1))
    table.join()                                 # a new tab: no token, no secret
    assert host.aborts == [[1, [1]]] and host.phase == "playing" and host.match.deal_number == 1
    assert host.status()["verification"] == ("Deal 1 was stopped: Friend left before it was over "
                                             "(stopped and dealt again at this table: 1).")
    assert host.np_try["tries"] == 1 and host.actions == [] and table.errors == []
    while host.phase == "playing":
        table.move()
    assert host.status()["verification"] == VERIFIED and table.page(1).verification == VERIFIED
    assert table.errors == []


def test_a_friends_page_plays_its_own_timeout_and_an_abort_in_its_name_is_the_hosts_doing():
    """Only a friend's page knows its seat's cards: when its clock runs out, it plays the first
    legal move of its own view; the host's page does nothing for that seat. Only a page back
    from away (said hello, no deal's message since) reads an abort naming its own seat as its
    own: on a live connection the host that says so is the one who began the deck again."""
    from pishe.table.protocol.wire import write

    table = seated("pisti", [2], seed=4, length="151")
    host = table.host
    while host.match.deal.turn != 2:
        table.move()
    assert host.timeout().send == []
    page = table.page(2)
    first = page.view()["legal"][0]
    for text in page.timeout().send:
        assert table.send(table.conn_of(2), text).error is None
    assert host.actions[-1] == [2, first, "timeout"] and page.timeout().send == []
    page.receive(write("pisti", "np-abort", deal=1, seats=[2]))
    assert page.status()["verification"] == ("Deck 1 was stopped: the host began it again (stopped and "
                                             "dealt again at this table: 1).")
    assert page.sits_out() and page.view()["status"] == ("A computer plays your seat for now: you play when "
                                                         "the next deck is dealt.")


class Recorded(Host):
    """The host, keeping every call the test makes on it (its page's input), to be replayed
    alone in another interpreter (tests/heap_search.py)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = []

    def receive(self, message, conn=1):
        self.calls.append(["receive", message, conn])
        return super().receive(message, conn)

    def act(self, action):
        self.calls.append(["act", action])
        return super().act(action)


def _mid_deal(game_id: str, guest_seats: list, length: str, moves: int) -> tuple:
    """A table of every friend's page, ``moves`` into its first deal, its host recording its
    calls; the cards the host's page never could see, known to the test from every page's
    secret (which it reads from the saves and ledgers the pages keep)."""
    from nopeek_wire import rebuilt_deck

    table = Table(game_id, guest_seats, 21, length)
    host = table.host = Recorded(game_id, length, random.Random(21), guest_seats)
    for _ in guest_seats:
        table.join()
    for _ in range(moves):
        table.move()
    assert host.phase == "playing" and table.errors == []
    saved = json.loads(host.save())["nopeek"]["deal"]
    secrets = [{"type": "np-reveal", "seat": 0, "secret": saved["secret"]}]
    for seat in guest_seats:
        deal, tries, secret, _checked = json.loads(table.page(seat).ledger())["np"]
        assert (deal, tries) == (1, saved["tries"])
        secrets.append({"type": "np-reveal", "seat": seat, "secret": secret})
    cards = rebuilt_deck(game_id, host.match_id, 1, saved["tries"], saved["log"] + secrets)
    game, hosted = table.game, [s for s, page in enumerate(host.np_try["pages"]) if page == 0]
    state = game.new_deal(list(cards), dealer_of(game, 1))
    seen = set()
    for seat, text, *_mark in [[None, None], *host.actions]:
        if seat is not None:
            state.apply(game.parse_action(text), seat)
        seen |= {str(c) for c in cards if any(c not in game.hidden_cards(state, s) for s in hosted)}
    hidden = {str(c) for c in cards} - seen
    assert len(hidden) > 20
    return host, hidden, {"game": game_id, "length": length, "seed": 21, "guest_seats": guest_seats,
                          "match_id": host.match_id, "calls": host.calls, "plant": sorted(hidden)[0]}


def test_mid_deal_no_open_form_of_a_hidden_card_is_in_the_host_pages_memory():
    """Mid-deal, in both games, the host's page is made again alone in a fresh interpreter from
    what it was sent (as its worker runs alone in its tab), and its whole heap is searched:
    every object the garbage collector tracks and every object they refer to. No card its
    seat may not have seen is there in an open form: not the card (outside the public tables
    and the engine's stand-ins, which its knowledge alone fixes), its text, its point or the
    point's hex; nor in its save; nor can its keys open one. A copy of each form of one hidden
    card, planted in a module, is found: the search sees what it looks for."""
    tables = [_mid_deal("pishe-pasha", [1], "first-to-100", 14), _mid_deal("pisti", [1, 2, 3], "151", 10)]
    heap = subprocess.run([sys.executable, str(Path(__file__).with_name("heap_search.py"))], text=True,
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          input=json.dumps([data for _host, _hidden, data in tables]))
    assert heap.returncode == 0, heap.stderr
    for (host, hidden, data), line in zip(tables, heap.stdout.splitlines(), strict=True):
        result, plant = json.loads(line), data["plant"]
        assert result["save"] == host.save()          # the same host, made again from what it was sent
        found = result["found"]
        assert found[plant] == ["card", "hex", "point", "text"]
        assert {c for c in found if c in hidden} == {plant}, {c: found[c] for c in found if c in hidden}
        assert not hidden & set(result["known"]) and not hidden & set(result["openable"])
        # What the host's page was opened is there: the search sees the cards the page holds.
        assert result["known"] and all("card" in found[c] for c in result["known"])
        assert not any(f'"{c}"' in host.save() for c in hidden)
        points = dict(zip(map(str, DECK), card_points(group(), data["game"])))
        assert not any(points[c].hex() in host.save() for c in hidden)


def test_while_dealt_the_table_waits_on_the_page_whose_part_is_due():
    table = Table("pisti", [1, 2, 3], 2, "151")
    host = table.host
    table.join()
    assert host.phase == "dealing" and host.waiting_for() == [2, 3]    # pages not come yet
    table.join()
    table.join()
    assert host.phase == "playing" and host.waiting_for() in ([], [host.match.deal.turn])


def skip_the_rules(partial, mover: int, text: str):
    """A changed page's check of its own move: the deal after it, by no following rule."""
    state = partial._play(partial.deck())
    partial.game.replay(state, partial.game.parse_action(text), mover)
    return state


def test_a_friend_who_breaks_battaks_following_rule_is_found_out_at_the_end_by_every_page():
    """A page plays its own cards by the rules its engine checks; one that skips that check
    (a changed page) and plays a card Batak's following rules refuse gets through mid-deal,
    since no other page sees its hand, but the end check replays the deal with every card
    open: not fair, naming that seat, on every page."""
    table = seated("batak", [1, 2], seed=5, length="4")
    cheat = table.page(2)
    cheated = False
    while table.host.phase == "playing":
        view = cheat.view()
        if not cheated and view["turn"] == 2 and view["phase"] == "play":
            refused = [c["code"] for c in view["hand"] if not c["playable"]]
            if refused:
                seat = cheat._np
                # The changed page: its own move replayed as another's (no following rules).
                seat.partial.trial = lambda mover, text: skip_the_rules(seat.partial, mover, text)
                for text in cheat.move(refused[0]).send:
                    table.send(table.conn_of(2), text)
                cheated = True
                continue
        table.move()
    assert cheated
    # Each page names the cheat's seat in its own words: Across, Right, You.
    for page, name in ((table.host, "Across"), (table.page(1), "Right"), (cheat, "You")):
        line = page.status()["verification"]
        assert line != VERIFIED and f"a move the rules refuse (seat: {name})" in line, line


def test_a_host_page_that_breaks_battaks_following_rule_for_its_computer_is_named_at_the_end():
    """The host's page plays its computers' cards; one that skips its own check (a changed
    page) and plays for a computer a card the following rules refuse gets through mid-deal,
    since no other page sees that hand, but the end check finds it out. The friend's page
    names the page that sees for that seat, the host's, not the computer's seat (Left or
    Right from the friend's)."""
    table = seated("batak", [2], seed=5, length="4")
    host = table.host
    cheated = False
    while host.phase == "playing":
        turn = host.match.deal.turn
        view = host.view(turn) if host.computer_seat() == turn else None
        if not cheated and view is not None and view["phase"] == "play":
            refused = [c["code"] for c in view["hand"] if not c["playable"]]
            if refused:
                seat = host._deal.np
                seat.partial.trial = lambda mover, text: skip_the_rules(seat.partial, mover, text)
                host._computer_action = lambda _seat: refused[0]
                table.deliver(host.computer_step().send)
                del host._computer_action
                cheated = True
                continue
        table.move()
    assert cheated
    # Across, from the friend's seat: the host's page, which played that computer's card.
    line = table.page(2).status()["verification"]
    assert line != VERIFIED and line.endswith("a move the rules refuse (seat: Across)"), line
