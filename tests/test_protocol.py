"""The table against a friend: a Pishe Pasha Host and its Guest connected in memory.

Whole matches between bots go through the protocol objects; after every
message to the guest, no card still hidden in a stock appears in it; both
sides agree on the score; every deal is verified, and the check fails when
the host cheats. Bad input gets an error and changes nothing.
(``test_table_protocol.py`` seats several guests at a Pişti table.)
"""

from __future__ import annotations

import doctest
import json
import pickle
import random
import re
from types import SimpleNamespace

import pytest

from pishe import (
    BOTS, DECK, Card, InvalidMatchLengthError, InvalidStepError, MatchOverError, UnknownActionError,
    UnknownGameError, seat_view,
)
from pishe.table import lang
from pishe.table.fair import derive_deck, part_commitment
from pishe.games.pasha.view import step_from_json, step_to_json
from pishe.table.protocol.guest import REFUSALS
from pishe.table.protocol import (
    HOST_SEAT, MAX_GUEST_MESSAGE, VERSION, VERIFIED, CorruptSaveError, Guest, Host,
    MalformedMessageError, NotConnectedError, Outcome, UnknownMessageTypeError,
    UnsupportedVersionError, WrongGameError, WrongPhaseError, error_code,
)
from pishe.table.protocol.wire import sentence

#: The guest's seat at a two-seat table.
GUEST_SEAT = 1
#: The connection the tests' guest page is on (the host page numbers its connections).
CONN = 1

# -- helpers shared with test_protocol_fuzz.py -------------------------------------------

_CODE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([CDHS])(?![0-9A-Za-z])")
_LABEL = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])")
_NAME = re.compile(r"\b(ace|10|[2-9]|jack|queen|king) of (clubs|diamonds|hearts|spades)\b")
_SYMBOL_SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
_WORD_RANK = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}


def cards_in(data) -> set:
    """Every card a JSON value mentions: codes ("10H"), labels ("10♥"), names ("ace of clubs")."""
    text = json.dumps(data, ensure_ascii=False)        # one pass over every key and value
    return ({Card.parse(r + s) for r, s in set(_CODE.findall(text))}
            | {Card.parse(r + _SYMBOL_SUIT[s]) for r, s in set(_LABEL.findall(text))}
            | {Card.parse(_WORD_RANK.get(r, r) + s[0].upper()) for r, s in set(_NAME.findall(text))})


def hidden_cards(host: Host) -> set:
    """Every card in either stock now, turned before and recycled or not: no message may name one."""
    if host.match is None:
        return set()
    return {c for stock in host.match.deal.stocks for c in stock}


def as_seat_view(view: dict) -> SimpleNamespace:
    """What the bots read of a SeatView, taken from the view's JSON (as a page would have it)."""
    give = view["give_card"]
    return SimpleNamespace(legal=tuple(view["legal"]),
                           give_card=Card.parse(give["code"]) if give else None,
                           foundations={p["suit"]: p["count"] for p in view["suit_piles"]})


def logged(host: Host) -> list:
    """Every step of the deal in play, in order (the dealing's, then each action's)."""
    return [step for group in host.deal_steps for step in group]


def texts(send) -> list:
    """The texts of a host's ``(conn, text)`` pairs, all of them for the guest's connection."""
    assert all(conn == CONN for conn, _ in send), send
    return [text for _, text in send]


def resent(host: Host, guest: Guest, have=None) -> list:
    """What ``host`` sends the page of ``guest``'s seat coming back on its connection holding
    ``have`` of the deal (``None``: nothing): the welcome, then the deal in play. The guest's
    own page is not told."""
    hello = json.dumps({"v": VERSION, "game": host.game.id, "type": "hello", "token": guest.token, "have": have})
    return texts(host.receive(hello, CONN).send)


class Link:
    """A host and a guest joined in memory (connection ``CONN``), checking every message to the
    guest. A cheating host's ``tamper(data)`` may change a message's JSON data in place on its
    way to the guest, or return ``False`` to drop it."""

    tamper = None

    def __init__(self, host: Host, guest: Guest):
        self.host, self.guest = host, guest
        self.to_guest = 0
        self.errors: list[str] = []

    def to_host(self, text: str) -> Outcome:
        outcome = self.host.receive(text, CONN)
        if outcome.error:
            self.errors.append(outcome.error)
        self.deliver(outcome.send)
        return outcome

    def deliver(self, messages) -> None:
        """Hand the host's ``(conn, text)`` pairs to the guest, and its replies back."""
        for text in texts(messages):
            self.check(text)
            if self.tamper is not None:
                data = json.loads(text)
                if self.tamper(data) is False:
                    continue
                text = json.dumps(data)
            self.to_guest += 1
            outcome = self.guest.receive(text)
            for reply in outcome.send:
                self.to_host(reply)

    def check(self, text: str) -> None:
        leaked = cards_in(json.loads(text)) & hidden_cards(self.host)
        assert not leaked, f"stock cards {sorted(map(str, leaked))} sent to the guest: {text}"

    def connect(self) -> None:
        outcome = self.to_host(self.guest.hello())
        assert outcome.error is None, outcome.error


def play(link: Link, bots, rng: random.Random, on_step=None) -> None:
    """Play the match to its end, each seat's bot reading its own page's view."""
    while True:
        host, guest = link.host, link.guest     # a reloaded page is another Host or Guest
        view = host.view()
        if host.phase == "match-over":
            return
        if host.phase == "deal-over":
            if rng.random() < 0.5:
                link.deliver(host.next_deal().send)
            else:
                assert link.to_host(guest.next_deal()).error is None
            continue
        if view["turn"] == HOST_SEAT:
            link.deliver(host.act(bots[HOST_SEAT](as_seat_view(view))).send)
        else:
            mine = guest.view()
            assert mine["turn"] == GUEST_SEAT and mine["seat"] == GUEST_SEAT
            assert link.to_host(guest.intent(bots[GUEST_SEAT](as_seat_view(mine)))).error is None
        if on_step is not None:
            on_step()


def new_link(length="one-deal", seed=0) -> Link:
    link = Link(Host("pishe-pasha", length, random.Random(seed)), Guest(rng=random.Random(seed + 1)))
    link.connect()
    return link


def snapshot(host: Host) -> bytes:
    """The host's whole state, engine included, as bytes to compare."""
    return pickle.dumps(host)


# -- whole matches -------------------------------------------------------------------------

# (never-give against hold-king played close matches of 30-odd deals: 44,362 steps in
# all, 17,105 with never-give against no-give-two-above, each bot still in either seat.)
PAIRS = [("always-give", "always-give"), ("always-give", "never-give"),
         ("hold-king", "no-give-two-above"), ("never-give", "no-give-two-above")]
# 8 matches: every pair of bots in either seat, the three lengths taken in turn.
LENGTHS = ("one-deal", "first-to-50", "first-to-100")
MATCHES = [(LENGTHS[seed % 3], pair, seed) for seed, pair in enumerate(
    pair[::side] for side in (1, -1) for pair in PAIRS)]


@pytest.mark.parametrize("length,pair,seed", MATCHES)
def test_bots_play_whole_matches_through_the_protocol(length, pair, seed):
    link = new_link(length, seed)
    host, guest = link.host, link.guest
    bots = [BOTS[name] for name in pair]
    checked = []

    def after_step():
        if host.phase in ("deal-over", "match-over") and host.match.deal_number not in checked:
            checked.append(host.match.deal_number)
            assert guest.verification == VERIFIED and guest.verification_deal == host.match.deal_number

    play(link, bots, random.Random(seed), after_step)
    assert checked == list(range(1, host.match.deal_number + 1))
    assert link.errors == []
    assert guest.phase == "match-over"
    mine, theirs = guest.view()["match"], host.view()["match"]
    assert mine["scores"] == theirs["scores"] == host.match.scores
    assert mine["winner"] == theirs["winner"] == host.match.winner
    assert mine["length"] == theirs["length"] == length
    assert guest.status()["length_name"] == host.status()["length_name"] == mine["length_name"]
    assert host.view()["seat"] == HOST_SEAT and guest.view()["seat"] == GUEST_SEAT
    assert guest.view() == host.view(GUEST_SEAT) and guest.view()["names"] == ["Friend", "You"]
    assert guest.status()["game"] == host.status()["game"] == "pishe-pasha"


def test_the_guest_is_shown_the_steps_in_its_own_words():
    link = new_link(seed=7)
    host, guest = link.host, link.guest
    shown = []
    while host.phase == "playing":
        if host.view()["turn"] == HOST_SEAT:
            outcome = host.act(host.view()["legal"][0])
            for text in texts(outcome.send):
                shown += guest.receive(text).steps
        else:
            outcome = host.receive(guest.intent(guest.view()["legal"][0]))
            for text in texts(outcome.send):
                shown += guest.receive(text).steps
    assert shown == [s.describe(GUEST_SEAT) for s in logged(host)]
    assert any(text.startswith("They ") for text in shown)
    assert any(text.startswith("You turn the ") for text in shown)


def test_a_deal_waits_for_the_guest_and_both_parts_of_the_shuffle():
    host = Host("pishe-pasha", "first-to-50", random.Random(1))
    assert host.phase == "dealing" and host.view() is None
    assert host.status()["length_name"] == "First to 50"
    with pytest.raises(WrongPhaseError, match="not dealt yet"):
        host.act("turn")
    assert host.computer_seat() is None                   # both seats are people's
    guest = Guest(rng=random.Random(2))
    assert guest.game is None and json.loads(guest.hello())["game"] is None   # it learns the game
    welcome, commit = texts(host.receive(guest.hello(), CONN).send)
    assert json.loads(welcome)["length"] == "first-to-50"
    here = {"autopilot": False, "away": False, "left": False, "name": None}
    assert json.loads(welcome)["seats"] == [{"seat": 0, "role": "host", "connected": True, **here},
                                            {"seat": 1, "role": "guest", "connected": True, **here}]
    assert guest.receive(welcome).send == []
    assert guest.phase == "dealing" and guest.game.id == "pishe-pasha" and guest.seat == GUEST_SEAT
    (part_message,) = guest.receive(commit).send
    committed = json.loads(part_message)          # first its commitment to its part...
    assert committed["type"] == "deal-part" and committed["deal"] == 1 and committed["v"] == VERSION == 3
    (parts,) = texts(host.receive(part_message, CONN).send)
    assert json.loads(parts)["parts"] == [[GUEST_SEAT, committed["commitment"]]]
    (seed_message,) = guest.receive(parts).send   # ...then, every part fixed, the part itself
    sent = json.loads(seed_message)
    assert sent["type"] == "deal-seed" and sent["deal"] == 1 and sent["seq"] == 1
    assert part_commitment(sent["contribution"], "pishe-pasha", host.match_id, 1, GUEST_SEAT) == committed["commitment"]
    (view,) = texts(host.receive(seed_message, CONN).send)
    message = json.loads(view)
    assert message["fair"]["contributions"] == [sent["contribution"]]
    assert message["fair"]["parts"] == [[GUEST_SEAT, committed["commitment"]]]
    assert (message["from"], message["actions"], message["dealt"], message["steps"]) == (0, [], [], [])
    guest.receive(view)
    assert host.phase == guest.phase == "playing"


# -- the fair deal -------------------------------------------------------------------------


def _play_until(link: Link, bots, stop) -> None:
    host, guest = link.host, link.guest
    while not stop():
        view = host.view()
        if view["turn"] == HOST_SEAT:
            link.deliver(host.act(bots[0](as_seat_view(view))).send)
        else:
            link.to_host(guest.intent(bots[1](as_seat_view(guest.view()))))


BOTH_GIVE = [BOTS["always-give"], BOTS["always-give"]]


def test_a_changed_seed_fails_the_check():
    link = new_link(seed=3)
    host, guest = link.host, link.guest
    _play_until(link, BOTH_GIVE, lambda: len(logged(host)) > 20)
    link.tamper = lambda data: data["type"] != "deal-reveal" or data.update(seed="ab" * 32)   # another seed
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    assert guest.verification_deal == 1
    assert guest.verification.startswith("Deal 1 is not fair: ")
    assert "does not match the commitment" in guest.verification


@pytest.mark.parametrize("seed", range(6))
def test_a_swapped_card_fails_the_check(seed):
    link = new_link(seed=seed)
    host, guest = link.host, link.guest
    _play_until(link, BOTH_GIVE, lambda: len(logged(host)) > 10 + 7 * seed)
    stocks = host.match.deal.stocks
    mover = host.match.deal.turn
    if len(stocks[mover]) < 2:
        pytest.skip("no stock card left to swap")
    # The next card the seat to move turns is swapped with one deep in the other stock.
    other = stocks[1 - mover] or stocks[mover]
    stocks[mover][-1], other[0] = other[0], stocks[mover][-1]
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    assert guest.verification.startswith("Deal 1 is not fair: "), guest.verification
    assert "the deal fixed at the start gives" in guest.verification


def test_a_deck_not_from_the_contribution_fails_the_check():
    link = Link(Host("pishe-pasha", "one-deal", random.Random(4)), Guest(rng=random.Random(5)))
    host, guest = link.host, link.guest
    welcome, commit = texts(host.receive(guest.hello(), CONN).send)
    guest.receive(welcome)
    (part,) = guest.receive(commit).send
    (parts,) = texts(host.receive(part, CONN).send)
    (seed_message,) = guest.receive(parts).send
    forged = json.dumps({**json.loads(seed_message), "contribution": "cd" * 32})
    assert host.receive(forged, CONN).error == "That part of the shuffle is not the one you committed to."
    # The host names the guest's part but deals from a deck it chose.
    host.receive(seed_message, CONN)
    host.match.deal = host.game.new_deal(derive_deck(host.dealing.seed, ["cd" * 32]), host.match.dealer)
    # (Pishe Pasha's dealing shows no steps: the deal's record needs no change.)
    link.deliver([(CONN, text) for text in resent(host, guest)])
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    assert guest.verification.startswith("Deal 1 is not fair: ")


def test_a_new_commitment_before_the_reveal_costs_nothing_after_it_is_an_abort():
    host, guest = Host(rng=random.Random(6)), Guest(rng=random.Random(7))
    welcome, commit = texts(host.receive(guest.hello(), CONN).send)
    guest.receive(welcome)
    (first,) = guest.receive(commit).send
    assert guest.receive(commit).send == [first.replace('"seq":0', '"seq":1')]     # the same answer again
    other = json.dumps({**json.loads(commit), "commitment": "ef" * 32})
    (fresh,) = guest.receive(other).send            # the host saw nothing: a fresh part, no harm
    assert json.loads(fresh)["commitment"] != json.loads(first)["commitment"]
    assert guest.status()["verification"] is None and guest.status()["aborts"] == 0
    parts = _message(type="deal-parts", deal=1, parts=[[GUEST_SEAT, json.loads(fresh)["commitment"]]])
    (reveal,) = guest.receive(parts).send
    again = json.dumps({**json.loads(commit), "commitment": "12" * 32})
    (third,) = guest.receive(again).send            # the part was seen and not dealt: an abort
    assert json.loads(reveal)["contribution"] not in third
    assert guest.status()["aborts"] == 1
    assert guest.verification == ("Deal 1 was aborted: the host shuffled it again after seeing your "
                                  "part (aborted shuffles at this table: 1).")


def test_a_deal_dealt_without_the_guests_part_is_flagged():
    host, guest = Host(rng=random.Random(8)), Guest(rng=random.Random(9))
    welcome, commit = texts(host.receive(guest.hello(), CONN).send)
    guest.receive(welcome)
    guest.receive(commit)                           # its commitment never reaches the host
    made_up = part_commitment("01" * 32, "pishe-pasha", host.match_id, 1, GUEST_SEAT)
    assert host.receive(_message(type="deal-part", seq=0, deal=1, commitment=made_up), CONN).error is None
    assert host.receive(_message(type="deal-seed", seq=1, deal=1, contribution="01" * 32), CONN).error is None
    (view,) = resent(host, guest)[1:]
    guest.receive(view)
    assert "without using your part of the shuffle, while you were connected" in guest.verification


def test_an_unrevealed_deal_is_flagged_when_the_next_begins():
    link = new_link("first-to-100", seed=10)
    host, guest = link.host, link.guest
    link.tamper = lambda data: data["type"] != "deal-reveal"      # the seed of deal 1 never comes
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    assert guest.verification is None and "without revealing the seed" in guest.status()["verification"]
    link.tamper = None
    link.deliver(host.next_deal().send)
    assert guest.verification_deal == 1 and "without revealing the seed of deal 1" in guest.verification


# -- dropped connections --------------------------------------------------------------------


@pytest.mark.parametrize("how", ["same page", "reloaded page"])
def test_a_dropped_connection_loses_nothing(how):
    rng = random.Random(11)
    link = new_link("first-to-50", seed=11)
    host = link.host
    drops = 0

    def maybe_drop():
        nonlocal drops
        if rng.random() < 0.03:
            drops += 1
            host.disconnect(CONN)
            assert not host.connected and host.status()["seats"][GUEST_SEAT]["connected"] is False
            if host.phase == "playing" and host.view()["turn"] == HOST_SEAT:
                assert host.act(host.view()["legal"][0]).send == []     # the host plays on alone
            if how == "reloaded page":
                link.guest = Guest.restore(link.guest.save(), random.Random(drops))
            link.connect()
            assert host.connected
            assert link.guest.view() == json.loads(json.dumps(
                seat_view(host.match, GUEST_SEAT, ["Friend", "You"]).to_json()))
        if host.phase in ("deal-over", "match-over"):
            assert link.guest.verification == VERIFIED
            assert link.guest.verification_deal == host.match.deal_number

    play(link, BOTH_GIVE, rng, maybe_drop)
    assert drops > 3
    assert link.errors == []
    assert link.guest.view()["match"]["scores"] == host.match.scores


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_a_reloaded_host_page_loses_nothing(seed):
    """The host's page reloads at random moments: its table comes back from Host.save()
    (seeds, the guest's parts, the actions), the guest says hello again and play goes on."""
    rng = random.Random(seed)
    link = new_link("first-to-50", seed=seed)
    reloads = 0

    def maybe_reload():
        nonlocal reloads
        host = link.host
        if host.phase in ("deal-over", "match-over"):
            assert link.guest.verification == VERIFIED
        if rng.random() < 0.05:
            reloads += 1
            host.disconnect(CONN)
            again = Host.restore(host.save(), random.Random(seed * 100 + reloads))
            assert (again.view(), again.status(), again.match.results) == \
                (host.view(), host.status(), host.match.results)
            link.host = again
            link.connect()

    play(link, BOTH_GIVE, rng, maybe_reload)
    assert reloads > 3
    assert link.errors == []
    assert link.guest.view()["match"]["scores"] == link.host.match.scores


def test_a_host_reloaded_while_dealing_deals_with_the_guests_part():
    link = new_link("first-to-50", seed=31)
    host = link.host
    while host.phase != "deal-over":
        if host.view()["turn"] == HOST_SEAT:
            link.deliver(host.act(host.view()["legal"][0]).send)
        else:
            link.to_host(link.guest.intent(link.guest.view()["legal"][0]))
    host.disconnect(CONN)
    assert host.next_deal().send == []                # the guest is away: deal 2 waits for it
    link.host = Host.restore(host.save(), random.Random(5))
    assert link.host.phase == "dealing" and link.host.status()["deal"] == 2
    link.connect()
    assert link.host.phase == "playing" and link.host.match.deal_number == 2
    assert link.guest.verification == VERIFIED and link.errors == []


@pytest.mark.parametrize("damage", [
    lambda saved: "not json",
    lambda saved: saved.replace('"role":"host"', '"role":"guest"'),
    lambda saved: saved.replace('"actions":[[0,"turn"]', '"actions":[[1,"turn"]'),
    lambda saved: saved.replace('"actions":[[0,"turn"]', '"actions":[[0,"give"]'),
    lambda saved: saved.replace('"number":1', '"number":2'),
    lambda saved: re.sub(r'"seed":"[0-9a-f]+"', '"seed":"zz"', saved),
    lambda saved: saved.replace('"contributions":[[1,', '"contributions":[[0,'),
    lambda saved: saved.replace('"game":"pishe-pasha"', '"game":"chess"'),
    lambda saved: saved.replace('"guests":[[1,', '"guests":[[2,'),
])
def test_a_damaged_host_save_is_refused(damage):
    link = new_link(seed=41)
    link.deliver(link.host.act("turn").send)         # seat 0, the host, leads deal 1
    saved = link.host.save()
    assert '"actions":[[0,"turn"]]' in saved and '"contributions":[[1,' in saved
    Host.restore(saved)
    with pytest.raises(CorruptSaveError):
        Host.restore(damage(saved))


def test_a_drop_while_dealing_reuses_the_same_contribution():
    host, guest = Host(rng=random.Random(12)), Guest(rng=random.Random(13))
    welcome, commit = texts(host.receive(guest.hello(), CONN).send)
    guest.receive(welcome)
    (lost,) = guest.receive(commit).send        # never arrives
    host.disconnect(CONN)
    welcome, commit = texts(host.receive(guest.hello(), CONN).send)      # a new channel
    guest.receive(welcome)
    (again,) = guest.receive(commit).send
    assert json.loads(again) == json.loads(lost)  # the same seq (from the welcome), the same commitment
    (parts,) = texts(host.receive(again, CONN).send)
    (lost,) = guest.receive(parts).send           # the part itself is lost too
    host.disconnect(CONN)
    welcome, parts = texts(host.receive(guest.hello(), CONN).send)
    guest.receive(welcome)
    (again,) = guest.receive(parts).send
    assert json.loads(again) == json.loads(lost)
    (view,) = texts(host.receive(again, CONN).send)
    guest.receive(view)
    assert host.phase == guest.phase == "playing"


def test_a_fresh_page_with_the_token_resumes_but_cannot_check_that_deal():
    link = new_link("first-to-50", seed=14)
    host = link.host
    _play_until(link, BOTH_GIVE, lambda: len(logged(host)) > 30)
    host.disconnect(CONN)
    link.guest = Guest(link.guest.token, random.Random(15))
    link.connect()
    assert link.guest.seat == GUEST_SEAT
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    assert link.guest.verification == ("Deal 1 is not fair for this page: it was dealt without its part "
                                       "of the shuffle (this page was not at the table when the parts "
                                       "were fixed).")
    link.deliver(host.next_deal().send)
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    assert link.guest.verification == VERIFIED and link.guest.verification_deal == 2


def _code(outcome: Outcome) -> str:
    (pair,) = outcome.send
    return json.loads(pair[1])["code"]


def test_seat_tokens():
    link = new_link(seed=16)
    host, guest = link.host, link.guest
    token = guest.token
    before = snapshot(host)
    outcome = host.receive(Guest().hello(), 2)                # another page, seat held
    assert outcome.send[0][0] == 2                            # the reply goes to its connection
    assert _code(outcome) == "seat-taken" and snapshot(host) == before
    outcome = host.receive(Guest("0" * 32).hello(), 2)
    assert _code(outcome) == "unknown-token" and snapshot(host) == before
    outcome = host.receive(Guest().hello(), CONN)             # the seated page cannot take another
    assert _code(outcome) == "seat-taken" and snapshot(host) == before
    assert host.receive(guest.hello(), CONN).error is None    # resync on the same connection
    host.disconnect(CONN)
    newcomer = Link(host, Guest(rng=random.Random(17)))
    newcomer.connect()                                    # the seat is free again: a new token
    assert newcomer.guest.token not in (None, token)
    host.disconnect(CONN)
    stale = Link(host, Guest(token, random.Random(18)))
    stale.to_host(stale.guest.hello())                    # refused, then joins afresh
    assert stale.errors and stale.guest.token not in (None, token)
    assert stale.guest.phase == "playing"


def test_a_reloaded_page_takes_its_seat_back_on_a_new_connection():
    """A page that reloads opens a new connection before the old one is seen to close:
    its token takes the seat over, and the old connection is no longer heard."""
    link = new_link(seed=32)
    host = link.host
    again = Guest.restore(link.guest.save(), random.Random(33))
    outcome = host.receive(again.hello(), 2)
    assert outcome.error is None and {conn for conn, _ in outcome.send} == {2}
    assert host.guests[GUEST_SEAT].conn == 2
    before = snapshot(host)
    outcome = host.receive(link.guest.intent("turn"), CONN)
    assert _code(outcome) == "not-connected" and snapshot(host) == before
    host.disconnect(CONN)                                 # the old channel closes at last
    assert host.guests[GUEST_SEAT].conn == 2 and host.connected


# -- bad input from the guest ---------------------------------------------------------------


def _message(**fields) -> str:
    return json.dumps({"v": 3, "game": "pishe-pasha", **fields})


def _ready_link() -> Link:
    """A deal in progress with the guest to move (seq 2 next: its part's commitment and
    the part itself were 0 and 1)."""
    for seed in range(100):
        link = new_link(seed=seed)
        if link.host.view()["turn"] == HOST_SEAT:
            link.deliver(link.host.act("turn").send)
        if link.host.view()["turn"] == GUEST_SEAT and link.host.phase == "playing":
            return link
    raise AssertionError("no deal where the guest moves second")


BAD = {
    "too long": ("x" * (MAX_GUEST_MESSAGE + 1), "message-too-long", None),
    "too long in bytes": (_message(type="hello", token=None, pad="♠" * 1400), "message-too-long", None),
    "not JSON": ('{"v": 3, "game"', "malformed-message", None),
    "not an object": ("[1, 2]", "malformed-message", None),
    "NaN": ('{"v": NaN}', "malformed-message", None),
    "deep": ("[" * 2000 + "]" * 2000, "message-too-deep", None),
    "deep in a field": (_message(type="act", seq=2, action=json.loads("[" * 17 + "]" * 17)), "message-too-deep", None),
    "duplicate key": ('{"v": 3, "v": 3, "game": "pishe-pasha", "type": "act", "seq": 2, "action": "turn"}',
                      "malformed-message", None),
    "no version": (json.dumps({"game": "pishe-pasha", "type": "act", "seq": 2, "action": "turn"}),
                   "malformed-message", None),
    "version true": (json.dumps({"v": True, "game": "pishe-pasha", "type": "act", "seq": 2,
                                 "action": "turn"}), "malformed-message", None),
    "old version": (json.dumps({"v": 1, "game": "pishe-pasha", "type": "act", "seq": 2,
                                "action": "turn"}), "unsupported-version", None),
    "wrong version": (json.dumps({"v": 4, "game": "pishe-pasha", "type": "act", "seq": 2,
                                  "action": "turn"}), "unsupported-version", None),
    "wrong game": (json.dumps({"v": 3, "game": "pisti", "type": "act", "seq": 2, "action": "turn"}),
                   "wrong-game", None),
    "no game": (json.dumps({"v": 3, "game": None, "type": "act", "seq": 2, "action": "turn"}),
                "wrong-game", None),
    "game missing": (json.dumps({"v": 3, "type": "act", "seq": 2, "action": "turn"}), "wrong-game", None),
    "hello without its game": (json.dumps({"v": 3, "type": "hello", "token": None, "have": None}),
                               "wrong-game", None),
    "hello of another game": (json.dumps({"v": 3, "game": "pisti", "type": "hello", "token": None,
                                          "have": None}), "wrong-game", None),
    "unknown type": (_message(type="cheat", seq=2), "unknown-message-type", None),
    "host's type": (_message(type="view", seq=2), "unknown-message-type", None),
    "replayed": (_message(type="act", seq=0, action="turn"), "replayed-message", 0),
    "out of order": (_message(type="act", seq=3, action="turn"), "out-of-order-message", 3),
    "seq as text": (_message(type="act", seq="2", action="turn"), "malformed-message", None),
    "unknown field": (_message(type="act", seq=2, action="turn", card="AS"), "malformed-message", 2),
    "a seat named": (_message(type="act", seq=2, action="turn", seat=0), "malformed-message", 2),
    "missing field": (_message(type="act", seq=2), "malformed-message", 2),
    "unknown action": (_message(type="act", seq=2, action="steal"), "unknown-action", 2),
    "another game's action": (_message(type="act", seq=2, action="7H"), "unknown-action", 2),
    "illegal keep": (_message(type="act", seq=2, action="keep"), "keep-not-allowed", 2),
    "seed mid-deal": (_message(type="deal-seed", seq=2, deal=1, contribution="00" * 32),
                      "wrong-phase", 2),
    "next deal mid-deal": (_message(type="next-deal", seq=2, deal=1), "deal-not-over", 2),
    "bad token": (_message(type="hello", token="not a token", have=None), "malformed-message", None),
    "old have": (_message(type="hello", token=None, have={"deal": 1, "steps": 0}), "malformed-message", None),
    "not text": (b'{"v": 3}', "malformed-message", None),
}


@pytest.mark.parametrize("name", BAD)
def test_bad_input_gets_an_error_and_changes_nothing(name):
    text, code, ref = BAD[name]
    link = _ready_link()
    host = link.host
    before, saved = snapshot(host), host.save()
    outcome = host.receive(text, CONN)
    ((conn, reply),) = outcome.send
    error = json.loads(reply)
    assert conn == CONN
    assert error["type"] == "error" and error["code"] == code, error
    assert error["ref"] == ref and error["next_seq"] == 2
    assert error["reason"] == outcome.error and error["reason"][0].isupper()
    assert snapshot(host) == before and host.save() == saved
    # The guest takes the error in its stride and plays on, saying it in its own words.
    assert link.guest.receive(reply).error == {**REFUSALS, **host.game.refusals}[code]


def test_out_of_turn_is_refused():
    link = _ready_link()
    host = link.host
    before = snapshot(host)
    with pytest.raises(Exception, match="not your turn"):
        host.act("turn")
    assert snapshot(host) == before
    outcome = link.to_host(link.guest.intent("turn"))     # the guest's turn: fine
    assert outcome.error is None
    while host.phase == "playing" and host.view()["turn"] == GUEST_SEAT:
        link.to_host(link.guest.intent(link.guest.view()["legal"][0]))
    if host.phase == "playing":
        before = snapshot(host)
        outcome = host.receive(link.guest.intent("turn"), CONN)
        assert _code(outcome) == "not-your-turn" and snapshot(host) == before


def test_messages_before_hello_are_refused():
    host = Host(rng=random.Random(19))
    before = snapshot(host)
    outcome = host.receive(_message(type="act", seq=0, action="turn"), CONN)
    assert _code(outcome) == "not-connected" and snapshot(host) == before
    assert json.loads(outcome.send[0][1])["next_seq"] is None      # no seat on this connection


def test_the_guest_recovers_its_seq_after_an_error():
    link = _ready_link()
    guest = link.guest
    link.to_host(guest.intent("keep"))                  # refused: seq 1 is still next
    assert link.errors
    assert link.to_host(guest.intent("turn")).error is None


# -- the guest's side -----------------------------------------------------------------------


def test_the_guest_refuses_what_a_host_should_never_send():
    link = new_link(seed=20)
    guest = link.guest
    saved = guest.save()
    view = json.loads(resent(link.host, guest)[1])
    for text, error in [
        ("{", MalformedMessageError),
        (_message(type="hello", token=None), UnknownMessageTypeError),
        (json.dumps({"v": 9, "game": "pishe-pasha", "type": "view"}), UnsupportedVersionError),
        (json.dumps({**view, "v": 1}), UnsupportedVersionError),
        (json.dumps({**view, "game": "pisti"}), WrongGameError),
        (_message(type="view", deal=1, view={}, steps=[], fair={}, **{"from": 0}), MalformedMessageError),
        (json.dumps({**view, "steps": [[]]}), MalformedMessageError),       # a move's steps, no move
        (json.dumps({**view, "view": {**view["view"], "seat": 0}}), MalformedMessageError),
        (json.dumps({**view, "actions": [[0, "turn"]], "steps": [[{"kind": "turn"}]]}),
         MalformedMessageError),
        (json.dumps({**view, "actions": [[5, "turn"]], "steps": [[]]}), MalformedMessageError),
        (json.dumps({**view, "actions": [[0, "steal"]], "steps": [[]]}), MalformedMessageError),
        (_message(type="deal-reveal", deal=1, seed="XYZ"), MalformedMessageError),
    ]:
        with pytest.raises(error):
            guest.receive(text)
        assert guest.save() == saved
    with pytest.raises(NotConnectedError):
        Guest().receive(_message(type="deal-commit", deal=1, commitment="00" * 32, aborted=[]))
    welcome = json.loads(texts(Host(rng=random.Random(20)).receive(Guest().hello(), CONN).send)[0])
    for game in ("chess", None, "missing"):
        data = {k: v for k, v in welcome.items() if k != "game" or game != "missing"}
        with pytest.raises(MalformedMessageError, match="names no game"):
            Guest().receive(json.dumps({**data, "game": game} if game != "missing" else data))
    with pytest.raises(NotConnectedError):
        Guest().intent("turn")


@pytest.mark.parametrize("resumed", [True, False])
def test_a_gap_in_the_steps_leaves_the_deal_unchecked_but_playable(resumed):
    link = new_link(seed=21)
    host, guest = link.host, link.guest
    _play_until(link, BOTH_GIVE, lambda: len(logged(host)) > 5)
    if resumed:
        guest.hello()                               # this page came back: it may have missed moves
    view = json.loads(resent(host, guest)[1])
    view["from"] = 99
    assert guest.receive(json.dumps(view)).send == []
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    # The host sends every move a page lacks, even back from away: a gap is the host's doing.
    assert guest.verification == "Deal 1 is not fair: the host skipped moves it had not shown you."


def test_a_resuming_guest_gets_only_the_moves_it_lacks():
    link = new_link(seed=23)
    host, guest = link.host, link.guest
    _play_until(link, BOTH_GIVE, lambda: len(logged(host)) > 12)
    held = len(guest.deal_record(1).actions)
    assert json.loads(guest.hello())["have"] == {"deal": 1, "actions": held}
    host.disconnect(CONN)
    welcome, view = texts(host.receive(guest.hello(), CONN).send)
    message = json.loads(view)
    assert message["from"] == held and message["actions"] == message["steps"] == message["dealt"] == []


def test_a_guest_reloaded_from_an_older_save_gets_the_moves_since_and_checks_the_deal():
    link = new_link(seed=34)
    host = link.host
    _play_until(link, BOTH_GIVE, lambda: len(host.actions) >= 4)
    saved, held = link.guest.save(), len(host.actions)
    _play_until(link, BOTH_GIVE, lambda: len(host.actions) >= held + 3)
    done = len(host.actions)
    host.disconnect(CONN)
    link.guest = Guest.restore(saved, random.Random(35), link.guest.ledger())    # kept after every call
    outcome = link.to_host(link.guest.hello())
    message = json.loads(outcome.send[1][1])
    assert message["from"] == held and message["actions"] == host.actions[held:done]
    assert len(message["steps"]) == done - held and message["dealt"] == []
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    assert link.guest.verification == VERIFIED and link.errors == []


def test_save_and_restore():
    link = new_link(seed=22)
    guest = link.guest
    again = Guest.restore(guest.save())
    assert again.save() == guest.save()
    assert again.status() == {**guest.status(), "phase": "connecting"}
    for bad in ["", "[]", "{}", json.dumps({**json.loads(guest.save()), "deals": [{"number": 1}]}),
                json.dumps({**json.loads(guest.save()), "v": 1}),
                json.dumps({**json.loads(guest.save()), "game": "chess"})]:
        with pytest.raises(CorruptSaveError):
            Guest.restore(bad)


def test_steps_round_trip_as_json():
    link = new_link(seed=23)
    _play_until(link, BOTH_GIVE, lambda: link.host.phase != "playing")
    for step in logged(link.host):
        assert step_from_json(json.loads(json.dumps(step_to_json(step)))) == step
    bad = {"seat": 0, "kind": "turn", "card": "1S", "onto": None, "outcome": None, "count": 0}
    with pytest.raises(InvalidStepError):
        step_from_json(bad)
    # A guest refuses a view with a step it cannot read, changing nothing.
    other = new_link(seed=24)
    view = json.loads(resent(other.host, other.guest)[1])
    saved = other.guest.save()
    with pytest.raises(MalformedMessageError, match="cannot be read"):
        other.guest.receive(json.dumps({**view, "dealt": [bad]}))
    assert other.guest.save() == saved


def test_the_examples_in_the_docstrings():
    import pishe.table.protocol
    import pishe.table.protocol.wire
    assert doctest.testmod(pishe.table.protocol).failed == 0
    assert doctest.testmod(pishe.table.protocol.wire).failed == 0


def test_error_codes_are_named_by_cause():
    assert error_code(UnsupportedVersionError()) == "unsupported-version"


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


def test_cards_in_finds_every_form():
    assert cards_in({"a": ["10H", "Give the 6♠ to their 7♦", "ace of clubs"], "b": "0H 1S AX"}) == {
        Card.parse(c) for c in ("10H", "6S", "7D", "AC")}
    assert cards_in(["".join(map(str, DECK))]) == set()     # run together: no card stands alone


def test_deals_come_one_at_a_time():
    link = new_link("first-to-50", seed=24)
    host, guest = link.host, link.guest
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    before = snapshot(host)
    outcome = host.receive(_message(type="next-deal", seq=guest.seq, deal=2), CONN)
    assert "not the deal that just ended" in outcome.error and snapshot(host) == before
    assert host.next_deal().send                        # the guest has not answered yet
    with pytest.raises(WrongPhaseError, match="already being dealt"):
        host.next_deal()
    before = snapshot(host)
    outcome = host.receive(_message(type="deal-seed", seq=guest.seq, deal=3, contribution="00" * 32), CONN)
    assert outcome.error == "Deal 2 is being dealt, not deal 3." and snapshot(host) == before
    outcome = host.receive(guest.next_deal(), CONN)
    assert outcome.error == "Deal 2 is already being dealt."


def test_nothing_follows_the_end_of_the_match():
    link = new_link("one-deal", seed=25)
    host, guest = link.host, link.guest
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    assert host.phase == guest.phase == "match-over"
    with pytest.raises(MatchOverError):
        host.next_deal()
    before = snapshot(host)
    outcome = host.receive(guest.next_deal(), CONN)
    assert _code(outcome) == "match-over" and snapshot(host) == before


def test_the_guest_checks_its_own_arguments():
    with pytest.raises(InvalidMatchLengthError):
        Host("pishe-pasha", "two-deals")
    with pytest.raises(UnknownGameError):
        Host("chess")
    with pytest.raises(ValueError):
        Host("pishe-pasha", guest_seats=[0])             # the host's own seat
    with pytest.raises(MalformedMessageError):
        Guest("not a token")
    guest = Guest()
    with pytest.raises(WrongPhaseError):
        guest.next_deal()
    with pytest.raises(NotConnectedError):
        guest.intent("turn")
    link = new_link(seed=26)
    with pytest.raises(UnknownActionError):
        link.guest.intent("steal")


def test_a_host_that_rewrites_steps_is_flagged_and_stays_flagged():
    link = new_link(seed=27)
    host, guest = link.host, link.guest
    _play_until(link, BOTH_GIVE, lambda: len(logged(host)) > 8)
    message = json.loads(resent(host, guest, {"deal": 1, "actions": 0})[1])
    assert message["from"] == 0 and len(message["steps"]) == len(host.actions)
    k = next(k for k, group in enumerate(message["steps"]) if k >= 2 and group)
    message["steps"][k][0]["count"] = 7
    guest.receive(json.dumps(message))
    warning = "Deal 1 is not fair: the host changed the account of moves it had sent."
    assert guest.verification == warning
    _play_until(link, BOTH_GIVE, lambda: host.phase != "playing")
    assert guest.verification == warning and guest.verification_deal == 1


def test_a_host_that_rewrites_a_move_is_flagged():
    link = new_link(seed=27)
    host, guest = link.host, link.guest
    _play_until(link, BOTH_GIVE, lambda: len(host.actions) > 4)
    message = json.loads(resent(host, guest, {"deal": 1, "actions": 0})[1])
    seat, action = message["actions"][1]
    message["actions"][1] = [1 - seat, action]
    guest.receive(json.dumps(message))
    assert guest.verification == "Deal 1 is not fair: the host changed the account of moves it had sent."


def test_a_commitment_after_the_deal_is_flagged():
    link = new_link(seed=28)
    host, guest = link.host, link.guest
    guest.receive(json.dumps({"v": 3, "game": "pishe-pasha", "type": "deal-commit", "deal": 1,
                              "commitment": host.dealing.commitment, "aborted": []}))
    assert guest.verification == ("Deal 1 is not fair: the host asked for your part of the shuffle after "
                                  "dealing the cards.")


def test_a_reveal_of_a_deal_never_seen_cannot_be_checked():
    link = new_link(seed=29)
    link.guest.receive(_message(type="deal-reveal", deal=5, seed="00" * 32))
    assert link.guest.verification == "Deal 5 could not be checked: this page did not see it played."


def test_the_leak_check_would_catch_a_stock_card():
    link = new_link(seed=30)
    hidden = hidden_cards(link.host)
    assert len(hidden) == 52
    assert hidden == link.host.game.hidden_cards(link.host.match.deal, GUEST_SEAT)
    card = sorted(hidden)[0]
    for leak in (str(card), card.display(), card.to_json()["name"]):
        with pytest.raises(AssertionError, match="sent to the guest"):
            link.check(json.dumps({"type": "view", "note": f"psst: {leak}"}))
