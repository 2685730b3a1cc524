"""The table against a friend: a Pishe Pasha Host and its Guest, connected in memory.

What every table's wire does whatever the game: hello and seat tokens, sequence numbers,
errors that change nothing, what a guest refuses from a host, saves, and the one way to
deal: a message, save or hello of the removed commit-and-reveal deal is refused with a
sentence and changes nothing. (``test_table_protocol.py`` plays whole deals of every game.)
"""

from __future__ import annotations

import doctest
import json
import random

import pytest

from pishe import InvalidMatchLengthError, MatchOverError, UnknownActionError, UnknownGameError
from pishe.table import lang
from pishe.table.protocol.guest import REFUSALS
from pishe.table.protocol import (
    HOST_SEAT, MAX_GUEST_MESSAGE, VERSION, CorruptSaveError, Guest, Host,
    MalformedMessageError, NotConnectedError, Outcome, RemovedDealError, UnknownMessageTypeError,
    UnsupportedVersionError, WrongGameError, WrongPhaseError, error_code,
)
from pishe.table.protocol import wire
from pishe.table.protocol.wire import sentence

from test_table_protocol import Table, seated, snapshot

#: The guest's seat at a two-seat table.
GUEST_SEAT = 1


def new_table(length="one-deal", seed=0) -> Table:
    """A Pishe Pasha table whose friend has joined and whose first deal is dealt."""
    return seated("pishe-pasha", [GUEST_SEAT], seed, length)


def _message(**fields) -> str:
    return json.dumps({"v": VERSION, "game": "pishe-pasha", **fields})


def _code(outcome: Outcome) -> str:
    (pair,) = outcome.send
    return json.loads(pair[1])["code"]


def _play_out(table: Table) -> None:
    while table.host.phase == "playing":
        table.move()


def _play_on(table: Table, seat: int, moves: int) -> None:
    """Play on until ``seat`` has made ``moves`` moves (or the deal is over)."""
    while moves and table.host.phase == "playing":
        moves -= table.host.match.deal.turn == seat and table.host.computer_seat() is None
        table.move()


# -- hello and seat tokens ------------------------------------------------------------------


def test_seat_tokens():
    table = new_table(seed=16)
    host, conn = table.host, table.conn_of(GUEST_SEAT)
    guest = table.page(GUEST_SEAT)
    token = guest.token
    before = snapshot(host)
    outcome = host.receive(Guest().hello(), 2)                # another page, seat held
    assert outcome.send[0][0] == 2                            # the reply goes to its connection
    assert _code(outcome) == "seat-taken" and snapshot(host) == before
    outcome = host.receive(Guest("0" * 32).hello(), 2)
    assert _code(outcome) == "unknown-token" and snapshot(host) == before
    outcome = host.receive(Guest().hello(), conn)             # the seated page cannot take another
    assert _code(outcome) == "seat-taken" and snapshot(host) == before
    assert host.receive(guest.hello(), conn).error is None    # resync on the same connection
    table.drop(conn)
    newcomer = table.join()                                   # the seat is free again: a new token
    assert table.pages[newcomer].token not in (None, token)
    table.drop(newcomer)
    stale = table.open(Guest(token, random.Random(18)))
    table.send(stale, table.pages[stale].hello())             # refused, then joins afresh
    assert table.errors and table.pages[stale].token not in (None, token)
    assert table.pages[stale].phase == "playing"


def test_a_reloaded_page_takes_its_seat_back_on_a_new_connection():
    """A page that reloads opens a new connection before the old one is seen to close:
    its token takes the seat over, and the old connection is no longer heard."""
    table = new_table(seed=32)
    host, old = table.host, table.conn_of(GUEST_SEAT)
    page = table.page(GUEST_SEAT)
    again = Guest.restore(page.save(), random.Random(33), page.ledger())
    outcome = host.receive(again.hello(), 2)
    assert outcome.error is None and {conn for conn, _ in outcome.send} == {2}
    assert host.guests[GUEST_SEAT].conn == 2
    before = snapshot(host)
    outcome = host.receive(_message(type="take-over", seq=page.seq), old)
    assert _code(outcome) == "not-connected" and snapshot(host) == before
    host.disconnect(old)                                  # the old channel closes at last
    assert host.guests[GUEST_SEAT].conn == 2 and host.connected


def test_messages_before_hello_are_refused():
    host = Host(rng=random.Random(19))
    before = snapshot(host)
    outcome = host.receive(_message(type="next-deal", seq=0, deal=1), 1)
    assert _code(outcome) == "not-connected" and snapshot(host) == before
    assert json.loads(outcome.send[0][1])["next_seq"] is None      # no seat on this connection


# -- bad input from the guest ---------------------------------------------------------------


def _ready_table() -> Table:
    """A deal in progress with the guest to move."""
    for seed in range(100):
        table = new_table(seed=seed)
        if table.host.view()["turn"] == HOST_SEAT:
            table.deliver(table.host.act(table.host.view()["legal"][0]).send)
        if table.page(GUEST_SEAT).view()["turn"] == GUEST_SEAT and table.host.phase == "playing":
            return table
    raise AssertionError("no deal where the guest moves second")


def _bad(seq: int) -> dict:
    """name -> (text, error code, ref), for a guest whose next message is ``seq``."""
    np = {"type": "np", "seq": seq, "deal": 1, "tries": 0, "message": {"type": "np-keys", "seat": 1, "shares": []}}
    return {
        "too long": ("x" * (MAX_GUEST_MESSAGE + 1), "message-too-long", None),
        "too long in bytes": (_message(type="hello", token=None, pad="♠" * 1400), "message-too-long", None),
        "not JSON": ('{"v": 4, "game"', "malformed-message", None),
        "not an object": ("[1, 2]", "malformed-message", None),
        "NaN": ('{"v": NaN}', "malformed-message", None),
        "deep": ("[" * 2000 + "]" * 2000, "message-too-deep", None),
        "deep in a field": (_message(**{**np, "message": json.loads("[" * 17 + "]" * 17)}), "message-too-deep", None),
        "duplicate key": ('{"v": 4, "v": 4, "game": "pishe-pasha", "type": "take-over", "seq": %d}' % seq,
                          "malformed-message", None),
        "no version": (json.dumps({"game": "pishe-pasha", **np}), "malformed-message", None),
        "version true": (json.dumps({"v": True, "game": "pishe-pasha", **np}), "malformed-message", None),
        "old version": (json.dumps({"v": VERSION - 1, "game": "pishe-pasha", **np}), "unsupported-version", None),
        "wrong version": (json.dumps({"v": VERSION + 1, "game": "pishe-pasha", **np}), "unsupported-version", None),
        "wrong game": (json.dumps({"v": VERSION, "game": "pisti", **np}), "wrong-game", None),
        "no game": (json.dumps({"v": VERSION, "game": None, **np}), "wrong-game", None),
        "game missing": (json.dumps({"v": VERSION, **np}), "wrong-game", None),
        "hello without its game": (json.dumps({"v": VERSION, "type": "hello", "token": None}), "wrong-game", None),
        "hello of another game": (json.dumps({"v": VERSION, "game": "pisti", "type": "hello", "token": None}),
                                  "wrong-game", None),
        "unknown type": (_message(type="cheat", seq=seq), "unknown-message-type", None),
        "host's type": (_message(type="np-deal", seq=seq), "unknown-message-type", None),
        "replayed": (_message(**{**np, "seq": seq - 1}), "replayed-message", seq - 1),
        "out of order": (_message(**{**np, "seq": seq + 1}), "out-of-order-message", seq + 1),
        "seq as text": (_message(**{**np, "seq": str(seq)}), "malformed-message", None),
        "unknown field": (_message(**np, card="AS"), "malformed-message", seq),
        "missing field": (_message(type="np", seq=seq, deal=1), "malformed-message", seq),
        "another seat's message": (_message(**{**np, "message": {**np["message"], "seat": 0}}),
                                   "malformed-message", seq),
        "a message of another deal": (_message(**{**np, "deal": 2}), "wrong-phase", seq),
        "next deal mid-deal": (_message(type="next-deal", seq=seq, deal=1), "deal-not-over", seq),
        "bad token": (_message(type="hello", token="not a token"), "malformed-message", None),
        "an old hello": (_message(type="hello", token=None, have=None), "malformed-message", None),
        "an old intent": (_message(type="act", seq=seq, action="turn"), "removed-deal", None),
        "an old part": (_message(type="deal-part", seq=seq, deal=1, commitment="00" * 32), "removed-deal", None),
        "an old seed": (_message(type="deal-seed", seq=seq, deal=1, contribution="00" * 32), "removed-deal", None),
        "not text": (b'{"v": 4}', "malformed-message", None),
    }


BAD = list(_bad(5))


@pytest.mark.parametrize("name", BAD)
def test_bad_input_gets_an_error_and_changes_nothing(name):
    table = _ready_table()
    host, conn, page = table.host, table.conn_of(GUEST_SEAT), table.page(GUEST_SEAT)
    text, code, ref = _bad(page.seq)[name]
    before, saved = snapshot(host), host.save()
    outcome = host.receive(text, conn)
    ((to, reply),) = outcome.send
    error = json.loads(reply)
    assert to == conn
    assert error["type"] == "error" and error["code"] == code, error
    assert error["ref"] == ref and error["next_seq"] == page.seq
    assert error["reason"] == outcome.error and error["reason"][0].isupper()
    assert snapshot(host) == before and host.save() == saved
    # The guest takes the error in its stride, saying it in its own words, changes nothing and
    # plays on (the deal verifies at its end: test_table_protocol.py's whole deals).
    guest_saved = page.save()
    assert page.receive(reply).error == {**REFUSALS, **host.game.refusals}[code]
    assert page.save() == guest_saved
    _play_on(table, GUEST_SEAT, moves=3)
    assert table.errors == []


def test_a_message_of_the_removed_deal_reads_as_a_sentence():
    """The old deal's messages are refused by name, in the page's language: the host's
    reply, and the guest's own refusal of a host's old message."""
    table = _ready_table()
    outcome = table.host.receive(_message(type="act", seq=table.page(GUEST_SEAT).seq, action="turn"),
                                 table.conn_of(GUEST_SEAT))
    assert outcome.error.startswith("This table deals no-peek only: the old way to deal (commit and reveal)")
    page = table.page(GUEST_SEAT)
    saved = page.save()
    for kind, fields in [("deal-commit", {"deal": 1, "commitment": "00" * 32, "aborted": []}),
                         ("deal-parts", {"deal": 1, "parts": []}), ("deal-reveal", {"deal": 1, "seed": "00" * 32}),
                         ("view", {"deal": 1})]:
        with pytest.raises(RemovedDealError, match="no-peek only"):
            page.receive(_message(type=kind, **fields))
        assert page.save() == saved
    lang.set_language("tr")
    try:
        with pytest.raises(RemovedDealError) as refused:
            page.receive(_message(type="deal-reveal", deal=1, seed="00" * 32))
        assert "no-peek" not in str(refused.value) and str(refused.value) != ""
    finally:
        lang.set_language("en")


def test_a_friend_s_view_is_worded_again_when_its_page_changes_language():
    """A player may change the page's language mid-deal: the friend's page's view (made when
    the host's message came) reads in the new language at once, the same board and moves."""
    page = _ready_table().page(GUEST_SEAT)
    english = page.view()
    lang.set_language("tr")
    try:
        turkish = page.view()
    finally:
        lang.set_language("en")
    assert english is not None and turkish is not None
    assert turkish["names"] != english["names"] and turkish["legal"] == english["legal"]
    assert page.view() == english


def test_out_of_turn_is_refused():
    table = _ready_table()
    host = table.host
    before = snapshot(host)
    with pytest.raises(Exception, match="not your turn"):
        host.act("turn")
    assert snapshot(host) == before


def test_the_guest_recovers_its_seq_after_an_error():
    table = _ready_table()
    page, conn = table.page(GUEST_SEAT), table.conn_of(GUEST_SEAT)
    table.send(conn, _message(type="next-deal", seq=page.seq, deal=1))    # the host refuses it...
    assert table.errors and page.seq == table.host.guests[GUEST_SEAT].next_seq
    page.take_over()                   # ...and its next message is lost on the way: the page counts on
    table.send(conn, page.take_over())
    assert page.seq == table.host.guests[GUEST_SEAT].next_seq            # the error put it right
    assert table.send(conn, page.take_over()).error is None


# -- the guest's side -----------------------------------------------------------------------


def test_the_guest_refuses_what_a_host_should_never_send():
    table = new_table(seed=20)
    page = table.page(GUEST_SEAT)
    saved = page.save()
    deal = json.loads(next(t for _c, t in table.host.receive(page.hello(), table.conn_of(GUEST_SEAT)).send
                           if json.loads(t)["type"] == "np-deal"))
    for text, error in [
        ("{", MalformedMessageError),
        (_message(type="hello", token=None), UnknownMessageTypeError),
        (json.dumps({"v": 9, "game": "pishe-pasha", "type": "np"}), UnsupportedVersionError),
        (json.dumps({**deal, "v": 3}), UnsupportedVersionError),
        (json.dumps({**deal, "game": "pisti"}), WrongGameError),
        (json.dumps({**deal, "pages": [0, 0]}), MalformedMessageError),     # its own seat the host's
        (json.dumps({**deal, "log": "x"}), MalformedMessageError),
        (_message(type="table", seats=[]), MalformedMessageError),
        (_message(type="view", deal=1, view={}), RemovedDealError),
    ]:
        with pytest.raises(error):
            page.receive(text)
        assert page.save() == saved
    with pytest.raises(NotConnectedError):
        Guest().receive(_message(type="np-abort", deal=1, seats=[]))
    welcome = json.loads(Host(rng=random.Random(20)).receive(Guest().hello(), 1).send[0][1])
    for game in ("chess", None, "missing"):
        data = {k: v for k, v in welcome.items() if k != "game" or game != "missing"}
        with pytest.raises(MalformedMessageError, match="names no game"):
            Guest().receive(json.dumps({**data, "game": game} if game != "missing" else data))
    with pytest.raises(NotConnectedError):
        Guest().take_over()


def test_save_and_restore():
    table = new_table(seed=22)
    guest = table.page(GUEST_SEAT)
    again = Guest.restore(guest.save())
    assert again.save() == guest.save()
    # The try is rebuilt from the host's log once it comes: its check code with it.
    assert again.status() == {**guest.status(), "phase": "connecting", "check_code": None}
    for bad in ["", "[]", "{}", json.dumps({**json.loads(guest.save()), "ledger": "{}"}),
                json.dumps({**json.loads(guest.save()), "v": 3}),
                json.dumps({**json.loads(guest.save()), "game": "chess"})]:
        with pytest.raises(CorruptSaveError):
            Guest.restore(bad)


@pytest.mark.parametrize("damage", [
    lambda saved: "not json",
    lambda saved: saved.replace('"role":"host"', '"role":"guest"'),
    lambda saved: saved.replace(f'"v":{VERSION}', '"v":3'),
    lambda saved: saved.replace('"game":"pishe-pasha"', '"game":"chess"'),
    lambda saved: saved.replace('"guests":[[1,', '"guests":[[2,'),
    lambda saved: saved.replace('"type":"np-act",', '"type":"np-act","mark":"cheat",'),
    lambda saved: saved.replace('"pages":[0,1]', '"pages":[1,1]'),
])
def test_a_damaged_host_save_is_refused(damage):
    table = new_table(seed=41)
    table.move()
    saved = table.host.save()
    assert '"type":"np-act",' in saved and '"pages":[0,1]' in saved
    Host.restore(saved)
    with pytest.raises(CorruptSaveError):
        Host.restore(damage(saved))


def test_a_save_of_the_removed_deal_is_refused_with_a_sentence():
    """``Host.restore`` makes nothing of a save without a no-peek deal (the old deal's, whose
    host page knew every card): it says why, in the page's words."""
    saved = json.loads(new_table(seed=42).host.save())
    for old in ({**saved, "nopeek": None}, {k: v for k, v in saved.items() if k != "nopeek"},
                {**saved, "v": 3, "nopeek": None, "played": {"seed": "00" * 32}}):
        with pytest.raises(RemovedDealError, match="no-peek only"):
            Host.restore(json.dumps(old))


def test_the_examples_in_the_docstrings():
    import pishe.table.protocol
    import pishe.table.protocol.wire
    assert doctest.testmod(pishe.table.protocol).failed == 0
    assert doctest.testmod(pishe.table.protocol.wire).failed == 0


def test_error_codes_are_named_by_cause():
    assert error_code(UnsupportedVersionError()) == "unsupported-version"
    assert error_code(RemovedDealError()) == "removed-deal"


def test_an_error_sentence_is_capitalised_by_the_language_s_rules():
    lang.set_language("tr")
    try:
        reason = lang._("the two pages have different versions of the game: reload both.")
        assert reason.startswith("iki ")
        assert sentence(UnsupportedVersionError(reason)) == "İ" + reason[1:]
        assert sentence(UnsupportedVersionError()) == "Unsupported version"    # a code: never by locale
    finally:
        lang.set_language("en")
    assert sentence(UnsupportedVersionError("in English")) == "In English"


def test_deals_come_one_at_a_time():
    table = new_table("first-to-50", seed=24)
    host, page, conn = table.host, table.page(GUEST_SEAT), table.conn_of(GUEST_SEAT)
    _play_out(table)
    before = snapshot(host)
    outcome = host.receive(_message(type="next-deal", seq=page.seq, deal=2), conn)
    assert "not the deal that just ended" in outcome.error and snapshot(host) == before
    host.next_deal()                                    # not delivered: the page has not answered
    with pytest.raises(WrongPhaseError, match="already being dealt"):
        host.next_deal()
    outcome = host.receive(page.next_deal(), conn)
    assert outcome.error == "Deal 2 is already being dealt."


def test_nothing_follows_the_end_of_the_match():
    table = new_table("one-deal", seed=25)
    host, page = table.host, table.page(GUEST_SEAT)
    _play_out(table)
    assert host.phase == page.phase == "match-over"
    with pytest.raises(MatchOverError):
        host.next_deal()
    before = snapshot(host)
    outcome = host.receive(page.next_deal(), table.conn_of(GUEST_SEAT))
    assert _code(outcome) == "match-over" and snapshot(host) == before


def test_the_sides_check_their_own_arguments():
    with pytest.raises(InvalidMatchLengthError):
        Host("pishe-pasha", "two-deals")
    with pytest.raises(UnknownGameError):
        Host("chess")
    with pytest.raises(ValueError):
        Host("pishe-pasha", guest_seats=[0])             # the host's own seat
    with pytest.raises(TypeError):
        Host("pishe-pasha", nopeek=False)               # no other way to deal
    with pytest.raises(MalformedMessageError):
        Guest("not a token")
    guest = Guest()
    with pytest.raises(WrongPhaseError):
        guest.next_deal()
    with pytest.raises(WrongPhaseError):
        guest.move("turn")
    table = new_table(seed=26)
    with pytest.raises(UnknownActionError):
        table.page(GUEST_SEAT).move("steal")


@pytest.mark.parametrize("game_id, guest_seats, english, turkish", [
    ("pishe-pasha", [1], "This deal is over.", "Bu el bitti."),
    ("pisti", [1, 2, 3], "This deck is over.", "Bu el bitti."),
    ("batak", [1, 2, 3], "This deal is over.", "Bu tur bitti."),
])
def test_the_deal_over_refusal_says_the_games_own_word_for_a_deal(game_id, guest_seats, english, turkish):
    """Batak's "el" is a trick: a refusal of the table's is worded with the game's word for a deal."""
    table = Table(game_id, guest_seats, seed=3)
    for _ in guest_seats:
        table.join()
    page = table.page(guest_seats[0])
    refusal = wire.write(table.game.id, "error", reason="anything", code="deal-over", ref=None, next_seq=page.seq)
    assert page.receive(refusal).error == english
    lang.set_language("tr")
    try:
        assert page.receive(refusal).error == turkish
    finally:
        lang.set_language("en")
