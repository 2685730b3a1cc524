"""Fuzzing the host: random and mutated guest messages never crash it, and a
refused message never changes anything (a full snapshot of the host, engine
included, is compared before and after each one).

Between the fuzz, the guest plays on normally (and sometimes drops and comes
back), so that every phase of a match gets its share of bad messages, the
no-peek deal's and the removed deal's among them. Some of the fuzz comes on a
second connection that holds no seat: nothing from it is ever accepted but a hello.
"""

from __future__ import annotations

import json
import random

from pishe.table.protocol import MAX_GUEST_MESSAGE, VERSION, Host, Outcome

from test_protocol import GUEST_SEAT
from test_table_protocol import Table, snapshot

#: A connection no guest is seated on.
STRANGER = 2

MESSAGES = 2_000
_TYPES = ["hello", "np", "act", "deal-seed", "next-deal", "welcome", "np-deal", "error", "", "NP", None, 3]
_NP_TYPES = ["np-commit", "np-shuffle", "np-lock", "np-keys", "np-act", "np-reveal", "np-cheat", None]
_ACTIONS = ["give", "turn", "keep", "Give", "give ", "", "pass", None, 1, ["turn"]]


def random_value(rng: random.Random, depth: int = 0):
    """Any JSON value, nested at most three deep."""
    makers = [
        lambda: None, lambda: True, lambda: False, lambda: rng.randint(-3, 3),
        lambda: rng.randint(-2 ** 63, 2 ** 63), lambda: rng.randint(-1, 10 ** 20), rng.random,
        lambda: "".join(rng.choice("azAZ09 _-♠\u0000\ud7ff") for _ in range(rng.randrange(20))),
        lambda: rng.choice(["", "00" * 32, "0" * 32, "AS", "10H", "turn", "hello"]),
    ]
    if depth < 3:
        makers += [
            lambda: [random_value(rng, depth + 1) for _ in range(rng.randrange(4))],
            lambda: {rng.choice(["v", "seq", "", "a"]): random_value(rng, depth + 1)
                     for _ in range(rng.randrange(4))},
        ]
    return rng.choice(makers)()


# Seat names, good and bad: one of 20 characters is the longest, text only, no space at an end.
_NAMES = [None, "Ayşe", "Ö" * 20, "x" * 21, "", " Ali", "Ali ", "a\nb", "<img src=x onerror=alert(1)>"[:20],
          "\u0000", 7, ["Ali"], {"name": "Ali"}]


class Fuzzer:
    """Makes guest messages near to valid ones, then breaks them."""

    def __init__(self, rng: random.Random, table: Table):
        self.rng, self.table = rng, table
        self.accepted: list[str] = []        # valid messages seen, for replays

    def template(self) -> dict:
        rng, host = self.rng, self.table.host
        seq = host.guests[GUEST_SEAT].next_seq + rng.choice([0, 0, 0, -1, 1, -5, 100])
        deal = (host.status()["deal"]) + rng.choice([0, 0, -1, 1])
        token = self.table.pages[self.table.conn].token if self.table.conn in self.table.pages else None
        return rng.choice([
            {"type": "hello", "token": rng.choice([None, token, "ab" * 16])},
            {"type": "np", "seq": seq, "deal": deal, "tries": rng.choice([0, 0, 0, 1]), "message": self.np_message()},
            {"type": "act", "seq": seq, "action": rng.choice(_ACTIONS[:3])},
            {"type": "deal-seed", "seq": seq, "deal": deal, "contribution": f"{rng.getrandbits(256):064x}"},
            {"type": "next-deal", "seq": seq, "deal": deal},
            {"type": "name", "seq": seq, "name": rng.choice(_NAMES)},
        ])

    def np_message(self) -> dict:
        """A no-peek deal's message of the guest's seat, near to a valid one."""
        rng = self.rng
        hex64 = f"{rng.getrandbits(256):064x}"
        return rng.choice([
            {"type": "np-commit", "seat": 1, "commitment": hex64, "public": hex64},
            {"type": "np-keys", "seat": rng.choice([1, 1, 0, 2]), "shares": [[rng.randrange(-1, 53), 1, None, hex64, None]]},
            {"type": "np-act", "seat": 1, "action": rng.choice(_ACTIONS), "shares": []},
            {"type": "np-reveal", "seat": 1, "secret": hex64},
            {"type": rng.choice(_NP_TYPES), "seat": 1, "deck": [hex64] * rng.choice([0, 51, 52])},
        ])

    def mutate(self, message: dict) -> dict:
        rng = self.rng
        message = {"v": VERSION, "game": "pishe-pasha", **message}
        for _ in range(rng.randrange(1, 4)):
            key = rng.choice(list(message) or ["v"])
            kind = rng.randrange(10)
            if kind == 0:
                message.pop(key, None)
            elif kind == 1:
                message[rng.choice(["x", "seat", "card", "steps", "V", key + " "])] = random_value(rng)
            elif kind == 2:
                message[key] = random_value(rng)
            elif kind == 3:
                message["v"] = rng.choice([0, 1, 3, "4", 4.0, True, None, -1, 10 ** 30])
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
            return json.dumps({"v": VERSION, "game": "pishe-pasha", **self.template()})
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


def _new_table(table: Table, rng: random.Random) -> None:
    table.host = Host("pishe-pasha", rng.choice(["one-deal", "first-to-50"]), random.Random(rng.random()))
    table.pages.clear()
    table.conn = table.join()


def _move(table: Table, rng: random.Random) -> None:
    """One step of normal play (a move, a next deal, a drop and return, a new match)."""
    host = table.host
    phase = host.phase
    if not host.connected:
        if rng.random() < 0.3:                # else fuzz a while with the guest away
            table.conn = table.join(table.away)
    elif rng.random() < 0.02:
        table.away = table.pages[table.conn]
        table.drop(table.conn)
    elif phase == "match-over":
        if rng.random() < 0.7:
            return                            # fuzz a while after the match
        _new_table(table, rng)
    elif phase == "deal-over":
        if rng.random() < 0.3:                # else fuzz a while between deals
            table.deliver(host.next_deal().send)
    elif phase == "playing":
        table.move()


def test_the_host_survives_fuzz_and_refusals_change_nothing():
    rng = random.Random(2026)
    table = Table("pishe-pasha", [GUEST_SEAT], 1, "first-to-50")
    table.conn = table.join()
    fuzzer = Fuzzer(rng, table)
    refused = accepted = 0
    codes = set()
    before = None                          # the host's snapshot, while nothing has changed it
    for _ in range(MESSAGES):
        if rng.random() < 0.4:
            _move(table, rng)
            before = None
        host = table.host
        text = fuzzer.text()
        # A stranger's connection, for messages that are not a hello (a hello there could take the seat).
        conn = STRANGER if rng.random() < 0.05 and '"hello"' not in str(text) else table.conn
        before = before or snapshot(host)
        seated = host.guests[GUEST_SEAT].conn == conn
        outcome = host.receive(text, conn)
        assert isinstance(outcome, Outcome)
        replies = [json.loads(m) for _, m in outcome.send]
        if outcome.error is not None:
            refused += 1
            (error,) = replies
            assert error["type"] == "error" and error["reason"] == outcome.error
            assert error["next_seq"] == (host.guests[GUEST_SEAT].next_seq if seated else None)
            codes.add(error["code"])
            assert snapshot(host) == before, f"refused {text!r} changed the host"
            if seated and conn in table.pages:
                table.pages[conn].receive(outcome.send[0][1])      # the page puts its count right
        else:
            assert conn == table.conn, f"accepted {text!r} from a connection with no seat"
            accepted += 1
            before = None
            assert all(r["type"] != "error" for r in replies)
            fuzzer.accepted.append(text)
            if json.loads(text)["type"] == "hello" and conn in table.pages:
                table.deliver(outcome.send)      # the page is welcomed again, its count put right
            else:
                # A message the guest's page did not send, taken in as its own (a forged
                # no-peek message may end the deal not fair): the fuzz goes on at a new table.
                _new_table(table, rng)
    # Mostly junk is refused, yet the valid messages among it were heard.
    assert refused > 0.8 * MESSAGES and accepted > 0
    assert codes >= {"message-too-long", "malformed-message", "unsupported-version", "wrong-game",
                     "unknown-message-type", "replayed-message", "out-of-order-message",
                     "seat-taken", "unknown-token", "wrong-phase", "removed-deal",
                     "not-connected", "deal-not-over"}
