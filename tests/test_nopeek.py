"""The no-peek deal (pishe.table.nopeek, partial, nopeek_seat) against the real games, with
honest and cheating pages.

The first tests work on the dealing alone (:class:`Dealer`: shuffle, lock, key shares, the
end check); the rest play whole deals at a table of real pages (:class:`NoPeekSeat`), each
message relayed to every other page in memory as the host's page relays them (a subclass
of :class:`Table` plays a host that changes or holds back what it relays). Every page
decides for itself which cards to open to whom, from its own engine; the test knows the
deck only afterwards, from every secret (:func:`truth`). Nothing here is mocked: the group
is libsodium's, and ``test_backends_give_identical_bytes`` holds @noble/curves (the page's
backend, run under Node) to the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
from pathlib import Path

import pytest

import build
from pishe.cards import DECK, Card
from pishe.table import nopeek
from pishe.table.fair import replay, shown_steps
from pishe.table.game import get_game
from pishe.table.group import SodiumGroup
from pishe.table.nopeek import DealAbortedError, Dealer, NotFairError, check_deal
from pishe.table.nopeek_seat import DealStoppedError, NoPeekSeat

ROOT = Path(__file__).resolve().parent.parent
GROUP = SodiumGroup()
MATCH = "ab" * 16


def deal_table(game, seats=None, deal=1, rng=None, dealers=None):
    """Every seat's Dealer through commit, shuffle and lock, each message seen by every seat."""
    rng = rng or random.Random(7)
    seats = tuple(range(game.seats)) if seats is None else seats
    dealers = dealers or {s: Dealer(GROUP, game.id, MATCH, deal, s, seats, rng=rng) for s in seats}
    for s, d in dealers.items():
        c = d.commitment()
        for other in dealers.values():
            other.take_commitment(s, c["commitment"], c["public"], c["sign"])
    for kind in ("shuffle", "lock"):
        for s in seats:
            out = getattr(dealers[s], kind)()
            for other in dealers.values():
                if other.seat != s:
                    other.take_round(s, kind, out)
    return dealers


def broadcast(dealers, entries):
    """Key shares to every seat but their sender (which recorded its own), as the host relays them."""
    for entry in entries:
        for d in dealers.values():
            if d.seat != entry[1]:
                d.take(entry)


def oracle(game, dealers):
    """The deck, known to the test only (every secret): what the engine deals from."""
    some = next(iter(dealers.values()))
    return check_deal(GROUP, game.id, MATCH, some.deal, some.seats, some.record,
                      {s: d.reveal() for s, d in dealers.items()})


def test_every_seat_takes_part_in_the_order():
    """Two tables that differ in one seat's secret only deal different decks (every seat's
    shuffle counts), and a seat's shuffle follows from its secret alone."""
    game = get_game("pishe-pasha")
    a = deal_table(game, rng=random.Random(1))
    b = {0: Dealer(GROUP, game.id, MATCH, 1, 0, (0, 1), secret=a[0].reveal()),
         1: Dealer(GROUP, game.id, MATCH, 1, 1, (0, 1), rng=random.Random(99))}
    deal_table(game, dealers=b)
    assert b[0].record.shuffled[0] == a[0].record.shuffled[0]
    assert oracle(game, a) != oracle(game, b)


# -- cheating seats: each ends "not fair" (naming the seat) or "aborted" -------------------

class Tracker(Dealer):
    """A seat that puts a card's plain point where it wants it in its shuffle, to know
    where the ace of spades lies."""

    def shuffle(self):
        out = super().shuffle()
        out[0] = nopeek.card_points(GROUP, self.game_id)[DECK.index(Card.parse("AS"))].hex()
        self.record.shuffled[self.seat] = out
        return out


class SkipsItsLock(Dealer):
    """A seat that passes the deck on without its lock round (keeping its shuffle lock on)."""

    def lock(self):
        before = self.record.shuffled[self.seats[-1]] if self.seat == self.seats[0] else \
            self.record.locked[self.seats[self.seats.index(self.seat) - 1]]
        self.record.locked[self.seat] = list(before)
        return list(before)


@pytest.mark.parametrize("cheat", [Tracker, SkipsItsLock])
def test_a_seat_that_does_not_shuffle_or_lock_as_committed_is_named(cheat):
    game = get_game("pisti")
    rng = random.Random(11)
    seats = (0, 1, 2, 3)
    dealers = {s: (cheat if s == 2 else Dealer)(GROUP, game.id, MATCH, 1, s, seats, rng=rng) for s in seats}
    deal_table(game, dealers=dealers)
    secrets = {s: d.reveal() for s, d in dealers.items()}
    for d in dealers.values():
        with pytest.raises(NotFairError) as e:
            check_deal(GROUP, game.id, MATCH, 1, seats, d.record, secrets)
        assert e.value.seat == 2


def test_a_wrong_key_is_seen_at_once_and_named_at_the_end():
    game = get_game("pisti")
    rng = random.Random(13)
    dealers = deal_table(game, rng=rng)
    for sender in (0, 2, 3):
        entry = dealers[sender].share(10, 1, 0)
        if sender == 3:
            entry[3] = "00" * 31 + "01"          # not its key
        broadcast(dealers, [entry])
    with pytest.raises(NotFairError):
        dealers[1].open(10)
    secrets = {s: d.reveal() for s, d in dealers.items()}
    with pytest.raises(NotFairError) as e:
        check_deal(GROUP, game.id, MATCH, 1, dealers[0].seats, dealers[0].record, secrets)
    assert e.value.seat == 3


def test_the_host_cannot_read_or_change_a_key_it_carries():
    """A share masked for seat 1 is no key the host can use (its own pad differs), and a
    share it changes on the way does not open a card."""
    game = get_game("pisti")
    dealers = deal_table(game, rng=random.Random(17))
    entry = dealers[2].share(20, 1, 0)
    keys = nopeek.SeatKeys.derive(GROUP, game.id, MATCH, 1, 2, dealers[2].reveal())   # seat 2's, from its secret
    assert entry[3] != keys.keys[20].hex()
    changed = list(entry)
    changed[3] = (bytes([1]) + bytes.fromhex(entry[3])[1:]).hex() if entry[3][:2] != "01" else "02" + entry[3][2:]
    broadcast(dealers, [changed, dealers[3].share(20, 1, 0), dealers[0].share(20, 1, 0)])
    with pytest.raises(NotFairError):
        dealers[1].open(20)


def test_a_secret_other_than_the_committed_one_is_not_fair():
    """Grinding: a seat that would change its secret after seeing the others' decks."""
    game = get_game("pishe-pasha")
    dealers = deal_table(game, rng=random.Random(23))
    secrets = {s: d.reveal() for s, d in dealers.items()}
    secrets[1] = "0" * 64
    with pytest.raises(NotFairError) as e:
        check_deal(GROUP, game.id, MATCH, 1, (0, 1), dealers[0].record, secrets)
    assert e.value.seat == 1


def test_a_seat_that_keeps_its_secret_aborted_the_deal_by_name():
    game = get_game("pisti")
    dealers = deal_table(game, rng=random.Random(29))
    secrets = {s: d.reveal() for s, d in dealers.items()}
    secrets[3] = None
    with pytest.raises(DealAbortedError) as e:
        check_deal(GROUP, game.id, MATCH, 1, (0, 1, 2, 3), dealers[0].record, secrets)
    assert e.value.seats == (3,)


def test_a_record_round_trips_as_json():
    game = get_game("pishe-pasha")
    dealers = deal_table(game, rng=random.Random(31))
    broadcast(dealers, [dealers[0].share(51, None, 1), dealers[1].share(51, 0, 1)])
    record = dealers[1].record
    assert nopeek.Record.from_json(json.loads(json.dumps(record.to_json()))) == record


# -- the two backends ------------------------------------------------------------------------

NODE_VECTORS = r"""
import { readFileSync } from "node:fs";
const [curvesPath, groupPath, inputPath] = process.argv.slice(2);
const curves = await import(curvesPath);
const { makeGroup } = await import(groupPath);
const g = makeGroup(curves);
const hex = (b) => Buffer.from(b).toString("hex");
const bytes = (h) => new Uint8Array(Buffer.from(h, "hex"));
const input = JSON.parse(readFileSync(inputPath, "utf8"));
const scalars = input.wide.map((w) => g.scalar(bytes(w)));
const points = input.uniform.map((u) => g.cardPoint(bytes(u)));
const each = g.multiplyEach(new Uint8Array(Buffer.concat(scalars)), new Uint8Array(Buffer.concat(points)));
console.log(JSON.stringify({
  points: points.map(hex), scalars: scalars.map(hex),
  inverses: scalars.map((s) => hex(g.invert(s))),
  products: scalars.map((s, i) => hex(g.times(s, scalars[(i + 1) % scalars.length]))),
  bases: scalars.map((s) => hex(g.base(s))),
  multiples: scalars.map((s, i) => hex(g.multiply(s, points[i]))),
  each: hex(each),
  signPublics: input.seeds.map((s) => hex(g.signPublic(bytes(s)))),
  signatures: input.seeds.map((s, i) => hex(g.sign(bytes(s), bytes(input.messages[i])))),
  verified: input.checks.map(([p, m, sig]) => g.verify(bytes(p), bytes(m), bytes(sig))),
}));
"""


def test_backends_give_identical_bytes(tmp_path):
    """libsodium (CPython) and @noble/curves through web/core/group.js (the page's worker, here
    under Node) give the same bytes: the 52 cards' points, scalars, inverses, products,
    public keys and multiples; ed25519's public keys and signatures, and both accept the same
    signatures and refuse the same forgeries (a message or a signature changed, a key that is
    no point)."""
    curves = build.unpack_noble(tmp_path / "noble")
    uniform = [hashlib.sha512(f"pisti:card:v1:{c}".encode()).digest() for c in DECK]
    wide = [hashlib.sha512(f"wide:{i}".encode()).digest() for i in range(len(DECK))]
    seeds = [hashlib.sha256(f"seed:{i}".encode()).digest() for i in range(8)]
    messages = [json.dumps({"type": "np-act", "n": i}).encode() * i for i in range(8)]
    publics = [GROUP.sign_public(s) for s in seeds]
    signatures = [GROUP.sign(s, m) for s, m in zip(seeds, messages)]
    flipped = bytes([signatures[1][0] ^ 1]) + signatures[1][1:]
    checks = [*zip(publics, messages, signatures), (publics[0], messages[2], signatures[0]),
              (publics[1], messages[1], flipped), (publics[2], messages[3], signatures[3]),
              (bytes(32), messages[1], signatures[1]), (b"\xff" * 32, messages[1], signatures[1])]
    (tmp_path / "input.json").write_text(json.dumps({
        "uniform": [u.hex() for u in uniform], "wide": [w.hex() for w in wide],
        "seeds": [s.hex() for s in seeds], "messages": [m.hex() for m in messages],
        "checks": [[p.hex(), m.hex(), sig.hex()] for p, m, sig in checks]}))
    (tmp_path / "vectors.mjs").write_text(NODE_VECTORS)
    run = subprocess.run(["node", str(tmp_path / "vectors.mjs"), curves.as_uri(),
                          (ROOT / "web" / "core" / "group.js").as_uri(), str(tmp_path / "input.json")],
                         capture_output=True, text=True, check=True)
    noble = json.loads(run.stdout)
    points = [GROUP.card_point(u) for u in uniform]
    scalars = [GROUP.scalar(w) for w in wide]
    assert noble["points"] == [p.hex() for p in points] == [p.hex() for p in nopeek.card_points(GROUP, "pisti")]
    assert noble["scalars"] == [s.hex() for s in scalars]
    assert noble["inverses"] == [GROUP.invert(s).hex() for s in scalars]
    assert noble["products"] == [GROUP.times(s, scalars[(i + 1) % len(scalars)]).hex() for i, s in enumerate(scalars)]
    assert noble["bases"] == [GROUP.base(s).hex() for s in scalars]
    multiples = [GROUP.multiply(s, p).hex() for s, p in zip(scalars, points)]
    assert noble["multiples"] == multiples
    assert noble["each"] == "".join(multiples)
    assert noble["signPublics"] == [p.hex() for p in publics]
    assert noble["signatures"] == [sig.hex() for sig in signatures]
    assert noble["verified"] == [GROUP.verify(p, m, sig) for p, m, sig in checks] == [True] * 8 + [False] * 5


# -- whole deals at a table: every page a NoPeekSeat, the host relaying ---------------------

class Table:
    """Pages in memory, each message relayed to every other page in order, as the host does."""

    def __init__(self, game, pages=None, rng=None, kinds=None, deal=1, dealer=0):
        self.game = game
        self.rng = rng or random.Random(1)
        pages = pages or {s: s for s in range(game.seats)}
        kinds = kinds or {}
        self.pages = {q: kinds.get(q, NoPeekSeat)(GROUP, game, MATCH, deal, q, dealer, pages, rng=self.rng)
                      for q in sorted(set(pages.values()))}
        self.seat_pages = pages
        self.queue = []
        self.held = []                        # [page, message] the network brings late
        self.log = []                         # every message the host relayed
        for page in self.pages.values():
            self.send(page.start())

    def send(self, messages):
        """Relay ``messages`` and every answer they bring. ``rounds`` is then how many rounds of
        key shares followed them one after another (answers to answers)."""
        self.queue.extend((m, 0) for m in messages)
        self.rounds = 0
        while self.queue:
            message, depth = self.queue.pop(0)
            self.log.append(message)
            if message["type"] == "np-keys":
                self.rounds = max(self.rounds, depth)
            for q, page in self.pages.items():
                relayed = self.relay(message, q) if q != message["seat"] else None
                if relayed is not None:
                    self.queue.extend((m, depth + 1) for m in page.receive(relayed))

    def relay(self, message, to):
        """The message as the host passes it on to page ``to`` (an honest host: as it is;
        ``None``: held back in ``held``, to come when the table could not go on without it)."""
        return message

    def mover(self):
        """The page to move, once it knows every card it may see (else None)."""
        some = self.pages[min(self.pages)]
        state = some.partial.state
        if state.over:
            return None
        page = self.pages[self.seat_pages[state.turn]]
        return page if page.partial.settled(state.turn) else None

    def play(self, moves=None):
        done = 0
        self.move_rounds = []                 # rounds of key shares after each move
        while moves is None or done < moves:
            page = self.mover()
            if page is None and self.held:      # the network brings what it held back, late
                late, self.held = self.held, []
                for q, message in late:
                    self.queue.extend((m, 1) for m in self.pages[q].receive(message))
                self.send([])
                continue
            if page is None:
                break
            state = page.partial.state
            text = self.game.action_text(self.rng.choice(list(state.legal_actions())))
            self.send(page.act(text))
            self.move_rounds.append(self.rounds)
            done += 1
        return self


def truth(table):
    """The deck and the whole deal, from every page's secret: the test's own oracle."""
    page = next(iter(table.pages.values()))
    cards = check_deal(GROUP, table.game.id, MATCH, 1, page.seats, page.dealing.record,
                       {q: p.dealing.reveal() for q, p in table.pages.items()})
    return cards, replay(table.game, cards, 0, page.partial.actions)


@pytest.mark.parametrize("game_id, pages", [
    ("pishe-pasha", None), ("pisti", None), ("pisti-2", None),
    ("pisti", {0: 0, 1: 0, 2: 2, 3: 0}),            # the host's computers at seats 1 and 3
])
def test_a_whole_deal_with_no_page_knowing_the_deck(game_id, pages):
    game = get_game(game_id)
    table = Table(game, pages, rng=random.Random(game_id + str(pages))).play()
    cards, (state, steps) = truth(table)
    assert state.over
    for q, page in table.pages.items():
        assert page.outcome == "verified", (q, page.outcome)
        assert page.partial.deck() == cards            # every page reconstructs the deck played
        assert page.partial.actions == table.pages[0].partial.actions
        assert page.shown == shown_steps(game, steps, q)   # and was shown the deal's own steps
    # Opening adds at most one round on a move's path: the keys every page sends as it takes
    # the move in (a packet dealt, a turned card), never keys in answer to those keys.
    assert max(table.move_rounds) <= 1 and table.move_rounds


def test_a_card_its_seat_was_not_dealt_is_not_fair_by_that_seat():
    """A guest plays a card it does not hold, one of the stand-ins the host's engine has in
    its hand, and sends its own key for the place the host thinks it is: once that place
    opens, the move is impossible, and the host's page says so, naming the guest."""
    game = get_game("pisti-2")
    table = Table(game, rng=random.Random(53))
    while table.pages[0].partial.state.turn != 1:
        table.play(moves=1)
    host, guest = table.pages[0], table.pages[1]
    held = set(guest.partial.state.hands[1])
    claimed = next(c for c in host.partial.state.hands[1] if c not in held)
    position = host.partial.deck().index(claimed)
    moves = len(host.partial.actions) + 1
    table.send([{"type": "np-act", "seat": 1, "action": str(claimed),
                 "shares": [guest.dealing.share(position, None, moves)]}])
    assert isinstance(host.outcome, NotFairError) and host.outcome.seat == 1


def test_a_card_opened_to_a_page_whose_seats_may_not_see_it_is_not_fair():
    """Pages 0, 2 and 3 send page 1 their keys for a card of seat 3's hand (the host and a
    guest colluding with it): page 1 learns it, and at the end of the deal every page's
    check names page 1 as opened a card it could not see."""
    game = get_game("pisti")
    table = Table(game, rng=random.Random(19)).play(moves=2)
    cards, _ = truth(table)
    start = game.new_deal(list(cards), 0)
    position = cards.index(start.hands[3][-1])
    moves = len(table.pages[0].partial.actions)
    table.send([table.pages[s]._message("np-keys", shares=[table.pages[s].dealing.share(position, 1, moves)])
                for s in (0, 2, 3)])
    assert table.pages[1].dealing.opened[position] == cards[position]
    table.play()
    for page in table.pages.values():
        assert isinstance(page.outcome, NotFairError) and page.outcome.seat == 1, page.outcome


def test_a_page_gone_mid_deal_aborts_it_by_name():
    game = get_game("pisti")
    table = Table(game, rng=random.Random(43)).play(moves=5)
    for q, page in table.pages.items():
        if q != 3:
            page.abort([3])
            assert isinstance(page.outcome, DealAbortedError) and page.outcome.seats == (3,)


class KeepsItsSecret(NoPeekSeat):
    """A page that never reveals its secret at the end."""

    def _message(self, kind, **fields):
        return super()._message("np-keys", shares=[]) if kind == "np-reveal" else super()._message(kind, **fields)


def test_a_page_that_keeps_its_secret_leaves_the_deal_unchecked_never_verified():
    game = get_game("pisti-2")
    table = Table(game, rng=random.Random(47), kinds={1: KeepsItsSecret}).play()
    host = table.pages[0]
    assert host.partial.state.over and host.outcome is None
    host.abort([1])
    assert host.outcome.seats == (1,)


def test_a_message_the_deal_cannot_read_is_not_fair_never_a_crash():
    """Mutated messages of a real deal, fed to a page: each is refused as not fair (naming
    the seat it claims), answered by the page's own ``np-unfair`` (and its secret of the try
    stopped), and the page never raises."""
    game = get_game("pisti-2")
    table = Table(game, rng=random.Random(59)).play(moves=3)
    rng = random.Random(61)
    page = table.pages[0]
    junk = [None, 0, -1, 52, 10**20, "", "zz" * 32, "0" * 63, [], {}, [None] * 5, "7H", True, 1.5]
    for _ in range(300):
        message = json.loads(json.dumps(rng.choice(table.log)))
        key = rng.choice(sorted(message))
        if rng.random() < 0.2:
            del message[key]
        elif isinstance(message[key], list) and message[key] and rng.random() < 0.5:
            target = message[key]
            at = rng.randrange(len(target))
            if isinstance(target[at], list) and target[at]:
                target[at][rng.randrange(len(target[at]))] = rng.choice(junk)
            else:
                target[at] = rng.choice(junk)
        else:
            message[key] = rng.choice(junk)
        message["seat"] = message.get("seat") if rng.random() < 0.7 else rng.choice(junk)
        page.outcome = None
        answer = page.receive(message)
        assert isinstance(page.outcome, NotFairError)
        # np-unfair, and the page's secret of the stopped try the first time (once revealed, it is out)
        assert [m["type"] for m in answer] in (["np-unfair", "np-reveal"], ["np-unfair"])
        assert answer[0]["named"] == page.outcome.seat


def test_a_host_that_changes_a_relayed_deck_for_one_guest_is_not_fair_there():
    """The host relays seat 2's shuffled deck to seat 1 with two points swapped: its signature
    is no longer seat 2's, so seat 1's page finds it at once, naming "the host or seat 2"
    (never seat 2 alone), and its ``np-unfair`` stops the deal on every other page."""
    game = get_game("pisti")

    class Relay(Table):
        def relay(self, message, to):
            if message["type"] == "np-shuffle" and message["seat"] == 2 and to == 1:
                return dict(message, deck=[message["deck"][1], message["deck"][0], *message["deck"][2:]])
            return message

    table = Relay(game, rng=random.Random(67)).play()
    found = table.pages[1].outcome
    assert isinstance(found, NotFairError) and (found.seat, found.host) == (2, True)
    assert not table.pages[1].dealt
    for q in (0, 2, 3):
        assert isinstance(table.pages[q].outcome, DealStoppedError) and table.pages[q].outcome.by == 1


def test_a_public_key_that_is_no_point_is_not_fair_at_once():
    game = get_game("pisti-2")
    page = NoPeekSeat(GROUP, game, MATCH, 2, 0, 0, rng=random.Random(71))
    page.start()
    page.receive({"type": "np-commit", "seat": 1, "commitment": "ab" * 32, "public": "ff" * 32})
    assert isinstance(page.outcome, NotFairError) and page.outcome.seat == 1


def test_a_move_relayed_before_the_keys_its_page_sent_first_is_not_fair_by_the_host():
    """The host's page turns a card, and the host brings its key for it to the guest's page
    only after its next move: the move is not its page's next message, so the guest's page
    names the host at once (a host reorders only what it sends itself or relays)."""
    game = get_game("pishe-pasha")

    class Late(Table):
        def relay(self, message, to):
            if to == 1 and message["type"] == "np-keys" and message["seat"] == 0:
                self.held.append((1, message))
                return None
            return message

    table = Late(game, rng=random.Random(73)).play()
    found = table.pages[1].outcome
    assert isinstance(found, NotFairError) and (found.seat, found.host) == (None, True), found
    assert isinstance(table.pages[0].outcome, DealStoppedError)


def test_a_shuffle_that_holds_one_card_twice_is_not_fair():
    """A page that sends a shuffled deck with one point twice (one card in two places): when
    both places open, or at the end, the other page says not fair; never a crash."""
    game = get_game("pishe-pasha")

    class Twice(NoPeekSeat):
        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            shuffle = self.dealing.shuffle

            def twice():
                out = shuffle()
                out[:] = [out[-1]] * 2 + out[2:]
                return out
            self.dealing.shuffle = twice

    table = Table(game, rng=random.Random(79), kinds={1: Twice}).play()
    assert isinstance(table.pages[0].outcome, NotFairError)


# -- signatures, the transcript hash and the table check code (issue 28) ----------------------

def test_every_honest_page_shows_one_check_code_and_swapped_keys_show_another():
    """Every page of an honest table shows the same check code once every commitment is in
    (four of the 64 pictures). A host that swaps seat 3's keys on the way to page 1 (a
    commitment of its own making, signed by its own key and on page 1's own record: nothing
    on page 1 can tell) makes page 1 show another code at once, which is how friends
    comparing codes catch it; a host that does not carry the swap through every later
    message is caught at the next one too."""
    game = get_game("pisti")
    honest = Table(game, rng=random.Random(79))
    codes = {page.check_code for page in honest.pages.values()}
    assert len(codes) == 1 and None not in codes
    code = codes.pop().split(" ")
    assert len(code) == nopeek.CODE_LENGTH and all(c in nopeek.CODE_SYMBOLS for c in code)

    class Swapping(Table):
        def relay(self, message, to):
            if message["type"] == "np-commit" and message["seat"] == 3 and to == 1:
                forged = NoPeekSeat(GROUP, game, MATCH, 1, 3, 0, rng=random.Random(83))
                forged.chains.hashes = {s: list(c) for s, c in self.pages[1].chains.hashes.items()}   # page 1's record
                return forged.start()[0]
            return message

    swapped = Swapping(game, rng=random.Random(79))
    codes = {q: page.check_code for q, page in swapped.pages.items()}
    assert codes[0] == codes[2] == codes[3] != codes[1] is not None
    assert all(page.outcome is not None and page.outcome != "verified" for page in swapped.pages.values())


def test_a_message_the_host_keeps_from_one_page_is_caught_at_the_next_one():
    """The host drops one of seat 2's key messages on the way to page 1 (the others get it):
    seat 2's next message reaches page 1 out of its order, and page 1 names "the host or seat
    2" at once, not at the end; its np-unfair stops the deal on every page."""
    game = get_game("pisti")

    class Dropping(Table):
        dropped = 0

        def relay(self, message, to):
            if message["type"] == "np-keys" and message["seat"] == 2 and to == 1 and not self.dropped:
                self.dropped += 1
                return None
            return message

    table = Dropping(game, rng=random.Random(89)).play()
    found = table.pages[1].outcome
    assert table.dropped and isinstance(found, NotFairError) and (found.seat, found.host) == (2, True)
    assert "out of its order" in str(found)
    assert all(isinstance(table.pages[q].outcome, DealStoppedError) for q in (0, 2, 3))


def test_a_message_of_the_hosts_own_page_kept_from_a_page_names_the_host_alone():
    """The host's page keeps one of its own key messages from the friend's page and sends the
    next: the friend's page names the host alone, at once."""
    game = get_game("pishe-pasha")

    class Skipping(Table):
        skipped = 0

        def relay(self, message, to):
            if message["seat"] == 0 and message["type"] == "np-keys" and not self.skipped:
                self.skipped += 1
                return None
            return message

    table = Skipping(game, rng=random.Random(97)).play()
    found = table.pages[1].outcome
    assert isinstance(found, NotFairError) and (found.seat, found.host) == (None, True), found
    assert isinstance(table.pages[0].outcome, DealStoppedError)


def test_a_record_shown_differently_to_two_pages_is_caught_by_the_transcript_hash():
    """A message signed on a record its receiver does not hold (here a changed page 3 whose
    record of the host's messages differs, as a page shown another record would be) is caught
    at once by its transcript hash: page 1 names "the host or seat 3" (it cannot tell which
    of the two made the records differ), the host's page, which relayed the same to all,
    names seat 3 alone."""
    game = get_game("pisti")

    class WrongHash(NoPeekSeat):
        def _message(self, kind, **fields):
            if kind == "np-keys":
                self.chains.hashes[0] = [*self.chains.hashes[0][:-1], "11" * 32]
            return super()._message(kind, **fields)

    table = Table(game, rng=random.Random(101), kinds={3: WrongHash}).play()
    on_guest, on_host = table.pages[1].outcome, table.pages[0].outcome
    assert isinstance(on_guest, NotFairError) and (on_guest.seat, on_guest.host) == (3, True)
    assert isinstance(on_host, NotFairError) and (on_host.seat, on_host.host) == (3, False)
