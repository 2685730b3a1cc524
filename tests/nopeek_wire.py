"""A no-peek deal rebuilt from what one guest's page received and sent (the wire tap's
lists), by this test process alone: the independent check that the deck every page
reconstructed is the one that was played, and that the host's page carried no card.
The tap (tests/test_friend.py's WIRE_TAP) keeps both lists, and both in order."""

from __future__ import annotations

import json

from pishe.cards import DECK
from pishe.table.game import names_card
from pishe.table.group import group
from pishe.table.nopeek import Record, check_deal
from pishe.table.protocol.nopeek_deal import dealer_of, np_match_id

CARDS = {str(c) for c in DECK}
NOPEEK_TYPES = ("np-deal", "np", "np-abort", "table")


def np_messages(both: list) -> dict:
    """``{(deal, tries): [np-* message, …]}``: every page's no-peek messages of each try, from
    what one guest's page received and sent, in order (``[["received" or "sent", text], …]``):
    the host's relays (an ``np-deal``'s log too: a page coming back is sent it again) and this
    page's own, each of the try its deal was in when it went."""
    tries, out = {}, {}
    for kind, text in both:
        m = json.loads(text)
        if m["type"] == "np-deal" and kind == "received":
            tries[m["deal"]] = m["tries"]
            out[(m["deal"], m["tries"])] = list(m["log"])     # all of the try so far, once
        elif m["type"] == "np" and m["deal"] in tries:
            # Its own try (a stopped try's secrets are relayed after the next try began).
            out.setdefault((m["deal"], m["tries"]), []).append(m["message"])
    return out


def rebuilt_deck(game_id: str, match_id: str, deal: int, tries: int, messages: list) -> list:
    """The deck by position, rebuilt from every page's messages of one try once every page
    revealed its secret: every shuffle, lock and key share checked against its sender's
    secret (``check_deal`` raises if one is not)."""
    record, secrets = Record(), {}
    shares = set()
    for m in messages:
        kind, seat = m["type"], m["seat"]
        if kind == "np-commit":
            record.commitments[seat], record.publics[seat], record.signs[seat] = m["commitment"], m["public"], m["sign"]
        elif kind == "np-shuffle":
            record.shuffled[seat] = m["deck"]
        elif kind == "np-lock":
            record.locked[seat] = m["deck"]
        elif kind in ("np-keys", "np-act"):
            shares |= {json.dumps(s) for s in m["shares"]}
        elif kind == "np-reveal":
            secrets[seat] = m["secret"]
    record.shares = [tuple(json.loads(s)) for s in sorted(shares)]
    return check_deal(group(), game_id, np_match_id(match_id, tries), deal, sorted(record.commitments),
                      record, secrets)


def played(game, deal: int, deck: list, messages: list):
    """The deal's state after every move of one try (its ``np-act`` messages, in the order the
    page had them, each by the seat to move) played on ``deck`` by the game's own rules."""
    state = game.new_deal(list(deck), dealer_of(game, deal))
    for m in messages:
        if m["type"] == "np-act":
            state.apply(game.parse_action(m["action"]), state.turn)
    return state


def check_carried(received: list) -> int:
    """No message a guest's page received names a card, but a move's own action (public as
    it is played): the host's page carries locked points and masked keys only, no view and
    no seed. Returns how many no-peek messages it checked."""
    messages = [json.loads(t) for t in received]
    dealt = [m for m in messages if m["type"] in NOPEEK_TYPES]
    for m in dealt:
        inner = m.get("message") or {}
        bare = {**m, "message": {k: v for k, v in inner.items() if k != "action"}} if inner else m
        assert not names_card(bare, CARDS), json.dumps(m)
    assert not any(m["type"] in ("view", "deal-reveal", "deal-commit") for m in messages)
    return len(dealt)


def match_id_of(received: list) -> str:
    """The match id the host's welcome gave this page (the last one)."""
    return [m for m in map(json.loads, received) if m["type"] == "welcome"][-1]["match_id"]
