"""Fuzzing the host: random and mutated guest messages never crash it, and a
refused message never changes anything (a full snapshot of the host, engine
included, is compared before and after each one).

Between the fuzz, the guest plays on normally (and sometimes drops and comes
back), so that every phase of a match gets its share of bad messages. Some of
the fuzz comes on a second connection that holds no seat: nothing from it is
ever accepted but a hello.
"""

from __future__ import annotations

import json
import random

from pishe import BOTS
from pishe.table.protocol import MAX_GUEST_MESSAGE, Guest, Host, Outcome

from test_protocol import CONN, GUEST_SEAT, Link, as_seat_view, snapshot, texts

#: A connection no guest is seated on.
STRANGER = 2

MESSAGES = 4_000
_TYPES = ["hello", "act", "deal-seed", "next-deal", "welcome", "view", "error", "", "ACT", None, 3]
_ACTIONS = ["give", "turn", "keep", "Give", "give ", "", "pass", None, 1, ["turn"]]


def _random_value(rng: random.Random, depth: int = 0):
    """Any JSON value, nested at most three deep."""
    makers = [
        lambda: None, lambda: True, lambda: False, lambda: rng.randint(-3, 3),
        lambda: rng.randint(-2 ** 63, 2 ** 63), lambda: rng.randint(-1, 10 ** 20), rng.random,
        lambda: "".join(rng.choice("azAZ09 _-♠\u0000\ud7ff") for _ in range(rng.randrange(20))),
        lambda: rng.choice(["", "00" * 32, "0" * 32, "AS", "10H", "turn", "hello"]),
    ]
    if depth < 3:
        makers += [
            lambda: [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))],
            lambda: {rng.choice(["v", "seq", "", "a"]): _random_value(rng, depth + 1)
                     for _ in range(rng.randrange(4))},
        ]
    return rng.choice(makers)()


# Seat names, good and bad: one of 20 characters is the longest, text only, no space at an end.
_NAMES = [None, "Ayşe", "Ö" * 20, "x" * 21, "", " Ali", "Ali ", "a\nb", "<img src=x onerror=alert(1)>"[:20],
          "\u0000", 7, ["Ali"], {"name": "Ali"}]


class Fuzzer:
    """Makes guest messages near to valid ones, then breaks them."""

    def __init__(self, rng: random.Random, link: Link):
        self.rng, self.link = rng, link
        self.accepted: list[str] = []        # valid messages seen, for replays

    def template(self) -> dict:
        rng, host = self.rng, self.link.host
        seq = host.guests[GUEST_SEAT].next_seq + rng.choice([0, 0, 0, -1, 1, -5, 100])
        deal = (host.status()["deal"]) + rng.choice([0, 0, -1, 1])
        return rng.choice([
            {"type": "hello", "token": rng.choice([None, self.link.guest.token, "ab" * 16]),
             "have": rng.choice([None, {"deal": max(deal, 1), "actions": rng.randrange(60)},
                                 {"deal": max(deal, 1), "steps": rng.randrange(60)}])},
            {"type": "act", "seq": seq, "action": rng.choice(_ACTIONS[:3])},
            {"type": "deal-seed", "seq": seq, "deal": deal, "contribution": f"{rng.getrandbits(256):064x}"},
            {"type": "next-deal", "seq": seq, "deal": deal},
            {"type": "name", "seq": seq, "name": rng.choice(_NAMES)},
        ])

    def mutate(self, message: dict) -> dict:
        rng = self.rng
        message = {"v": 3, "game": "pishe-pasha", **message}
        for _ in range(rng.randrange(1, 4)):
            key = rng.choice(list(message) or ["v"])
            kind = rng.randrange(10)
            if kind == 0:
                message.pop(key, None)
            elif kind == 1:
                message[rng.choice(["x", "seat", "card", "steps", "V", key + " "])] = _random_value(rng)
            elif kind == 2:
                message[key] = _random_value(rng)
            elif kind == 3:
                message["v"] = rng.choice([0, 1, 3, "2", 2.0, True, None, -1, 10 ** 30])
            elif kind == 4:
                message["game"] = rng.choice(["pisti", "", None, "PISHE-PASHA", ["pishe-pasha"]])
            elif kind == 5:
                message["type"] = rng.choice(_TYPES)
            elif kind == 6:
                message["action"] = rng.choice(_ACTIONS)
            elif kind == 7:
                message["seq"] = rng.choice([-1, 1.5, "0", True, None, 2 ** 53, 2 ** 64, [0]])
            elif kind == 8:
                message["contribution"] = rng.choice(["AB" * 32, "0" * 63, "g" * 64, "", 7])
            else:
                message["token"] = rng.choice(["", "0" * 31, "Z" * 32, 5, "ab" * 16])
        return message

    def text(self) -> str | bytes | None:
        rng = self.rng
        pick = rng.randrange(100)
        if pick < 8 and self.accepted:
            return rng.choice(self.accepted)                            # a replay
        if pick < 30:
            return json.dumps({"v": 3, "game": "pishe-pasha", **self.template()})
        if pick < 70:
            return json.dumps(self.mutate(self.template()))
        text = json.dumps(self.mutate(self.template()) if rng.random() < 0.8 else self.template())
        if pick < 78:
            return text[:rng.randrange(len(text))]                     # cut short
        if pick < 85:
            i = rng.randrange(len(text))                               # a character changed
            return text[:i] + chr(rng.randrange(1, 0x3000)) + text[i + 1:]
        if pick < 88:
            return text[:-1] + ', "pad": "' + "x" * MAX_GUEST_MESSAGE + '"}'    # too long
        if pick < 91:
            depth = rng.randrange(1, 2000)
            return "[" * depth + "]" * depth
        if pick < 93:
            return text.replace('"v":', '"v": 1, "v":', 1)            # a key twice
        if pick < 95:
            return rng.choice(["", "null", "NaN", "[]", "{}", '{"v": Infinity}', "1e999", '"hello"'])
        if pick < 97:
            return rng.choice([None, text.encode(), 17, ["hello"]])    # not text at all
        return "".join(chr(rng.randrange(0, 0x11000)) for _ in range(rng.randrange(200)))


def _move(link: Link, rng: random.Random, bots) -> None:
    """One step of normal play (a move, a next deal, a drop and return, a new match)."""
    host, guest = link.host, link.guest
    phase = host.phase
    if not host.connected:
        if rng.random() < 0.3:                # else fuzz a while with the guest away
            link.to_host(guest.hello())
    elif rng.random() < 0.02:
        host.disconnect(CONN)
    elif phase == "match-over":
        if rng.random() < 0.7:
            return                            # fuzz a while after the match
        link.host = Host("pishe-pasha", rng.choice(["one-deal", "first-to-50"]), random.Random(rng.random()))
        link.guest = Guest(rng=random.Random(rng.random()))
        link.connect()
    elif phase == "deal-over":
        if rng.random() < 0.3:                # else fuzz a while between deals
            sent = host.next_deal().send
            if rng.random() < 0.5:            # else fuzz a while as the deal waits for the guest
                link.deliver(sent)
    elif phase == "dealing":
        if rng.random() < 0.3:
            link.to_host(guest.hello())       # sent the commitment again, the guest answers
    elif host.view()["turn"] == GUEST_SEAT:
        outcome = link.to_host(guest.intent(bots[1](as_seat_view(guest.view()))))
        if outcome.error:                     # fuzz moved the count on: the error put us right
            link.to_host(guest.intent(bots[1](as_seat_view(guest.view()))))
    else:
        link.deliver(host.act(bots[0](as_seat_view(host.view()))).send)


def test_the_host_survives_fuzz_and_refusals_change_nothing():
    rng = random.Random(2026)
    link = Link(Host("pishe-pasha", "first-to-50", random.Random(1)), Guest(rng=random.Random(2)))
    link.connect()
    fuzzer = Fuzzer(rng, link)
    bots = [BOTS["always-give"], BOTS["hold-king"]]
    refused = accepted = 0
    codes = set()
    before = None                          # the host's snapshot, while nothing has changed it
    for _ in range(MESSAGES):
        if rng.random() < 0.4:
            _move(link, rng, bots)
            before = None
        host = link.host
        text = fuzzer.text()
        # A stranger's connection, for messages that are not a hello (a hello there could take the seat).
        conn = STRANGER if rng.random() < 0.05 and '"hello"' not in str(text) else CONN
        before = before or snapshot(host)
        seated = host.guests[GUEST_SEAT].conn == conn
        outcome = host.receive(text, conn)
        assert isinstance(outcome, Outcome)
        assert all(to == conn for to, _ in outcome.send)     # the replies go to the sender only
        replies = [json.loads(m) for _, m in outcome.send]
        if outcome.error is not None:
            refused += 1
            (error,) = replies
            assert error["type"] == "error" and error["reason"] == outcome.error
            assert error["next_seq"] == (host.guests[GUEST_SEAT].next_seq if seated else None)
            codes.add(error["code"])
            assert snapshot(host) == before, f"refused {text!r} changed the host"
        else:
            assert conn == CONN, f"accepted {text!r} from a connection with no seat"
            accepted += 1
            before = None
            assert all(r["type"] != "error" for r in replies)
            fuzzer.accepted.append(text)
            for reply in texts(outcome.send):       # keep the guest's page in step
                link.check(reply)
                link.guest.receive(reply)
    # Mostly junk is refused, yet the valid messages among it were heard.
    assert refused > 0.8 * MESSAGES and accepted > 0
    assert codes >= {"message-too-long", "malformed-message", "unsupported-version", "wrong-game",
                     "unknown-message-type", "replayed-message", "out-of-order-message",
                     "seat-taken", "unknown-token", "wrong-phase", "unknown-action",
                     "not-connected", "not-your-turn", "deal-not-over", "keep-not-allowed"}
