"""The provably fair deal: commitment, deck derivation, test vectors, verification."""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import pasha_match
from pishe import BOTS, DECK, Card, seat_view
from pishe.games.pasha.deal import stocks_of
from pishe.games.pasha.view import step_to_json
from pishe.table import fair
from pishe.table.fair import (
    DealVerificationError, InvalidSecretError, check_secret, commitment, derive_deck, new_secret,
    replay, shown_steps, verify_deal,
)
from pishe.table.game import get_game

PASHA = get_game("pishe-pasha")

PROTOCOL_MD = Path(__file__).resolve().parent.parent / "docs" / "PROTOCOL.md"

# The test vectors printed in docs/PROTOCOL.md.
VECTORS = [
    {
        "seed": "0" * 64,
        "contribution": "1" * 64,
        "commitment": "da8a4f6ea295cd0e842bb017f37048c7e0611725448aa36570f86817d25a5e4b",
        "words": [775940733, 4060849158, 2526734282],
        "deck": "8D 7S 3S 9C 9H 4D 3H AH QS KC 2H KD 2S 8C JH 5D 5C 3C 8S JC QH 7C KH 2D 9D 10S "
                "4H 8H 7D 6S KS 6C 2C 10D 6D 4S 4C 6H QC 9S 5H QD 5S AS 10H AC JD AD JS 7H 3D 10C",
    },
    {
        "seed": "0123456789abcdef" * 4,
        "contribution": "fedcba9876543210" * 4,
        "commitment": "7c85677945963fbaaef5fafb2bda99f016151866ddb68735c349d11975a55b0d",
        "words": [1186126313, 980089907, 1411315912],
        "deck": "2S 3H 4H 10C KS 2C 2D 3C 10D 5S QD 6S 8D 9H 6C 5C 10H 10S KD 8C KH 3S 8H 4C JH "
                "JC 5H 9S QC AH JD QS 7H 8S 2H 7S 6D AD JS 6H 4D AS 7C 4S 7D AC 5D QH 3D KC 9C 9D",
    },
]


# Pişti's, with three guests' contributions (seats 1, 2, 3), also in docs/PROTOCOL.md.
PISTI_VECTOR = {
    "seed": "0" * 64,
    "contributions": ["1" * 64, "2" * 64, "3" * 64],
    "commitment": "874e186f93d7bf18ae58f3e44c804ec5fe0237a4816e299b5d20190a9d3e01eb",
    "words": [524252982, 2285578325, 161590867],
    "deck": "2C AD 4S 3D KD 10C 3S QC 6S 8H 7H 5H 3C 2H JD 10S KH JC 5S 7D AC KS 4C 9C JH 6D 8D AH 5C "
            "KC JS 8C 4H 9S 2S 9H QH 3H 9D QD 8S 10D 4D AS 7S QS 6H 10H 6C 5D 2D 7C",
}


def _independent_deck(seed: str, contribution: str, game: str = "pishe-pasha") -> list[str]:
    """The procedure of docs/PROTOCOL.md written again from the text, sharing no code
    (several contributions: joined by ":", in seat order)."""
    stream = b""
    counter = 0
    position = 0

    def word() -> int:
        nonlocal stream, counter, position
        if position + 4 > len(stream):
            text = f"{game}:deck:v1:{seed}:{contribution}:{counter}"
            stream += hashlib.sha256(text.encode()).digest()
            counter += 1
        value = int.from_bytes(stream[position:position + 4], "big")
        position += 4
        return value

    deck = [rank + suit for suit in "CDHS"
            for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    for i in range(51, 0, -1):
        while True:
            value = word()
            if value < 2 ** 32 - 2 ** 32 % (i + 1):
                break
        j = value % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("vector", VECTORS, ids=["zeros", "counting"])
def test_vectors(vector):
    seed, contribution = vector["seed"], vector["contribution"]
    assert commitment(seed) == commitment(seed, "pishe-pasha") == vector["commitment"]
    assert " ".join(map(str, derive_deck(seed, [contribution]))) == vector["deck"]
    assert " ".join(map(str, derive_deck(seed, [contribution], "pishe-pasha"))) == vector["deck"]
    assert " ".join(_independent_deck(seed, contribution)) == vector["deck"]
    first = hashlib.sha256(f"pishe-pasha:deck:v1:{seed}:{contribution}:0".encode()).digest()
    assert [int.from_bytes(first[i:i + 4], "big") for i in (0, 4, 8)] == vector["words"]


def test_the_pisti_vector():
    v = PISTI_VECTOR
    seed, parts = v["seed"], v["contributions"]
    assert commitment(seed, "pisti") == v["commitment"]
    assert " ".join(map(str, derive_deck(seed, parts, "pisti"))) == v["deck"]
    assert " ".join(_independent_deck(seed, ":".join(parts), "pisti")) == v["deck"]
    first = hashlib.sha256(f"pisti:deck:v1:{seed}:{parts[0]}:{parts[1]}:{parts[2]}:0".encode()).digest()
    assert [int.from_bytes(first[i:i + 4], "big") for i in (0, 4, 8)] == v["words"]


def test_vectors_are_in_the_document():
    text = PROTOCOL_MD.read_text()
    for vector in VECTORS:
        for value in (vector["seed"], vector["contribution"], vector["commitment"], vector["deck"]):
            assert value in text
    for value in (PISTI_VECTOR["commitment"], PISTI_VECTOR["deck"], *PISTI_VECTOR["contributions"],
                  ", ".join(map(str, PISTI_VECTOR["words"]))):
        assert value in text


def test_the_derivation_agrees_with_an_independent_one():
    rng = random.Random(1)
    for _ in range(50):
        seed, contribution = new_secret(rng), new_secret(rng)
        assert list(map(str, derive_deck(seed, [contribution]))) == _independent_deck(seed, contribution)


def test_the_game_id_is_the_prefix():
    """Each game's decks and commitments are its own: the game's id starts every hashed text."""
    rng = random.Random(7)
    seed, parts = new_secret(rng), [new_secret(rng) for _ in range(3)]
    assert commitment(seed, "pisti") == hashlib.sha256(f"pisti:commit:v1:{seed}".encode()).hexdigest()
    assert commitment(seed, "pisti") != commitment(seed, "pishe-pasha")
    assert derive_deck(seed, parts, "pisti") != derive_deck(seed, parts, "pishe-pasha")
    assert list(map(str, derive_deck(seed, parts, "pisti"))) == \
        _independent_deck(seed, ":".join(parts), "pisti")


def test_every_contribution_counts_in_seat_order():
    rng = random.Random(8)
    seed, parts = new_secret(rng), [new_secret(rng) for _ in range(3)]
    deck = derive_deck(seed, parts, "pisti")
    assert sorted(deck) == sorted(DECK)
    assert derive_deck(seed, parts[::-1], "pisti") != deck
    assert derive_deck(seed, parts[:2], "pisti") != deck
    for k in range(3):
        changed = parts[:k] + [new_secret(rng)] + parts[k + 1:]
        assert derive_deck(seed, changed, "pisti") != deck


def test_the_deck_is_a_permutation_and_needs_both_parts():
    rng = random.Random(2)
    seed, contribution = new_secret(rng), new_secret(rng)
    deck = derive_deck(seed, [contribution])
    assert sorted(deck) == sorted(DECK) and deck != list(DECK)
    assert derive_deck(seed, [new_secret(rng)]) != deck
    assert derive_deck(new_secret(rng), [contribution]) != deck
    stocks = stocks_of(derive_deck(seed, [contribution]))
    assert stocks == [deck[:26], deck[26:]]


def test_the_shuffle_is_close_to_uniform():
    rng = random.Random(3)
    counts = [[0] * 52 for _ in range(52)]                  # card -> position
    trials = 2000
    for _ in range(trials):
        for position, card in enumerate(derive_deck(new_secret(rng), [new_secret(rng)])):
            counts[DECK.index(card)][position] += 1
    expected = trials / 52
    worst = max(abs(n - expected) for row in counts for n in row)
    assert worst < 6 * expected ** 0.5                       # far inside chance for 2704 cells


def test_rejection_sampling_drops_numbers_above_the_limit(monkeypatch):
    def shuffle(words):
        """The deck derive_deck makes when the stream of numbers is ``words``."""
        monkeypatch.setattr(fair, "_words", lambda prefix: iter(words))
        return derive_deck("0" * 64, ["1" * 64])

    biased = 2 ** 32 - 1                                     # above the limit for 52 (2**32 - 48)
    zeros = [0] * 60
    deck = shuffle([biased, 5] + zeros)
    assert deck == shuffle([5] + zeros)                      # the first swap used 5 …
    assert deck != shuffle([biased % 52] + zeros)            # … not the biased number
    assert shuffle([2 ** 32 - 49] + zeros) == shuffle([51] + zeros)    # just below: kept


@pytest.mark.parametrize("bad", ["", "00", "0" * 63, "G" * 64, "A" * 64, 7, None, "0" * 65])
def test_secrets_are_64_lowercase_hex_digits(bad):
    with pytest.raises(InvalidSecretError):
        check_secret(bad)
    with pytest.raises(InvalidSecretError):
        derive_deck("0" * 64, [bad])
    with pytest.raises(InvalidSecretError):
        commitment(bad)


def test_new_secrets_are_fresh():
    assert re.fullmatch("[0-9a-f]{64}", new_secret())
    assert new_secret() != new_secret()
    with pytest.raises(InvalidSecretError):
        derive_deck("0" * 64, "1" * 64)
    assert derive_deck("0" * 64, []) != derive_deck("0" * 64, ["0" * 64])   # no guest: the seed alone


# -- verifying a deal ---------------------------------------------------------------------------


def _play(match, bots) -> tuple:
    """Play the match's deal to its end, an action at a time as the table does (the bot is
    asked only when there is a choice): ``(actions, steps)``, ``steps`` grouped as
    :func:`replay` groups them (the dealing's, then one list per action)."""
    deal = match.deal
    actions, steps = [], [list(PASHA.deal_steps(deal))]
    while not deal.over:
        seat, legal = deal.turn, deal.legal_actions()
        action = legal[0] if len(legal) == 1 else bots[seat](seat_view(match, seat))
        steps.append(match.apply(action, seat))
        actions.append([seat, action])
    return actions, steps


def _played(seed_index: int):
    """A finished deal 1 (dealt by seat 1; seat 0 leads): seed, contribution, actions and
    each seat's shown steps."""
    rng = random.Random(seed_index)
    seed, contribution = new_secret(rng), new_secret(rng)
    match = pasha_match("one-deal", deck=derive_deck(seed, [contribution]))
    assert match.dealer == 1 and match.deal.turn == 0
    actions, steps = _play(match, [BOTS["always-give"], BOTS["hold-king"]])
    return seed, contribution, actions, [shown_steps(PASHA, steps, seat) for seat in (0, 1)]


def _verify(seed, contributions, actions, shown, *, dealer=1, seat=1, commit=None):
    return verify_deal(PASHA, commit or commitment(seed), seed, contributions, dealer, actions, shown, seat)


@pytest.mark.parametrize("index", range(10))
def test_an_honest_deal_verifies(index):
    seed, contribution, actions, shown = _played(index)
    for seat in (0, 1):
        assert _verify(seed, [contribution], actions, shown[seat], seat=seat).over
    # Every Pishe Pasha step is public: both seats were shown the same.
    assert shown[0] == shown[1]


def test_the_replay_gives_the_steps_of_the_deal():
    seed, contribution, actions, shown = _played(0)
    state, steps = replay(PASHA, derive_deck(seed, [contribution]), 1, actions)
    assert state.over and len(steps) == len(actions) + 1
    assert shown_steps(PASHA, steps, 1) == shown[1] == [[step_to_json(s) for s in group] for group in steps]


def test_a_wrong_seed_fails():
    seed, contribution, actions, shown = _played(0)
    with pytest.raises(DealVerificationError, match="does not match the commitment"):
        _verify("f" * 64, [contribution], actions, shown[1], commit=commitment(seed))


def test_a_seed_committed_for_another_game_fails():
    seed, contribution, actions, shown = _played(0)
    with pytest.raises(DealVerificationError, match="does not match the commitment"):
        _verify(seed, [contribution], actions, shown[1], commit=commitment(seed, "pisti"))


def test_a_wrong_contribution_fails():
    seed, contribution, actions, shown = _played(1)
    with pytest.raises(DealVerificationError, match="fixed at the start"):
        _verify(seed, ["e" * 64], actions, shown[1])


def test_a_changed_turned_card_fails():
    seed, contribution, actions, shown = _played(2)
    mine = shown[1]
    k, i = next((k, i) for k, group in enumerate(mine) if k > 10
                for i, s in enumerate(group) if s["kind"] == "turn")
    other = next(str(c) for c in DECK if str(c) != mine[k][i]["card"])
    forged = [list(group) for group in mine]
    forged[k][i] = {**forged[k][i], "card": other}
    with pytest.raises(DealVerificationError,
                       match="You were shown '.*', but the deal fixed at the start gives '.*'"):
        _verify(seed, [contribution], actions, forged)


def test_a_deal_cut_short_fails():
    seed, contribution, actions, shown = _played(3)
    with pytest.raises(DealVerificationError, match="stops before it was over"):
        _verify(seed, [contribution], actions[:-1], shown[1][:-1])
    with pytest.raises(DealVerificationError, match="stops before it was over"):
        _verify(seed, [contribution], [], shown[1][:1])
    with pytest.raises(DealVerificationError, match="do not match the steps"):
        _verify(seed, [contribution], actions[:-1], shown[1])             # a move without its steps
    with pytest.raises(DealVerificationError, match="are not those of"):
        _verify(seed, [contribution], actions, [*shown[1][:-1], shown[1][-1][:-1]])   # a step left out


def test_impossible_moves_fail():
    seed, contribution, actions, shown = _played(4)
    seat, action = actions[0]
    with pytest.raises(DealVerificationError, match="is not possible"):
        _verify(seed, [contribution], [[1 - seat, action], *actions[1:]], shown[1])   # out of turn
    with pytest.raises(DealVerificationError, match="is not possible"):
        _verify(seed, [contribution], actions, shown[1], dealer=0)        # the wrong dealer: seat 1 leads
    with pytest.raises(DealVerificationError, match="is not possible"):
        _verify(seed, [contribution], actions + actions[:1], shown[1] + shown[1][1:2])  # after the end
    keep = next(i for i, (_, a) in enumerate(actions) if a != "keep")
    with pytest.raises(DealVerificationError, match="is not possible"):
        _verify(seed, [contribution], [*actions[:keep], [actions[keep][0], "keep"], *actions[keep + 1:]],
                shown[1])


def test_a_swapped_stock_card_fails():
    rng = random.Random(5)
    seed, contribution = new_secret(rng), new_secret(rng)
    deck = derive_deck(seed, [contribution])
    deck[25], deck[26] = deck[26], deck[25]        # the first card seat 0 turns, and seat 1's bottom card
    match = pasha_match("one-deal", deck=deck)
    actions, steps = _play(match, [BOTS["always-give"]] * 2)
    with pytest.raises(DealVerificationError, match="^You were shown 'They turn the .*', but the deal "
                                                     "fixed at the start gives 'They turn the .*'"):
        _verify(seed, [contribution], actions, shown_steps(PASHA, steps, 1))


def test_a_deal_of_another_game_verifies_through_its_own_rules():
    """Nothing in the check knows Pishe Pasha: a Pişti deck verifies for every seat, each
    shown only its own steps, and a step changed in one seat's account fails."""
    pisti = get_game("pisti")
    rng = random.Random(9)
    seed, parts = new_secret(rng), [new_secret(rng) for _ in range(3)]
    state = pisti.new_deal(derive_deck(seed, parts, pisti.id), 3)
    actions, steps = [], [list(pisti.deal_steps(state))]
    while not state.over:
        seat, action = state.turn, state.legal_actions()[0]
        steps.append(state.apply(action, seat))
        actions.append([seat, pisti.action_text(action)])
    assert len(actions) == 48
    for seat in range(4):
        shown = shown_steps(pisti, steps, seat)
        assert verify_deal(pisti, commitment(seed, "pisti"), seed, parts, 3, actions, shown, seat).over
        with pytest.raises(DealVerificationError, match="does not match the commitment"):
            verify_deal(pisti, commitment(seed), seed, parts, 3, actions, shown, seat)
        with pytest.raises(DealVerificationError):
            verify_deal(pisti, commitment(seed, "pisti"), seed, parts[::-1], 3, actions, shown, seat)
    # Seats see different things: the cards dealt to one seat are not shown to the others.
    assert shown_steps(pisti, steps, 0) != shown_steps(pisti, steps, 1)


# -- the JavaScript in docs/PROTOCOL.md -----------------------------------------------------


def _document_js() -> str:
    blocks = re.findall(r"```js\n(.*?)```", PROTOCOL_MD.read_text(), re.S)
    assert len(blocks) == 1, "docs/PROTOCOL.md has one JavaScript block: the reference derivation"
    return blocks[0]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_documents_javascript_gives_the_same_decks():
    rng = random.Random(6)
    cases = [(v["seed"], [v["contribution"]], None) for v in VECTORS]
    cases += [(new_secret(rng), [new_secret(rng)], None) for _ in range(20)]
    cases += [(PISTI_VECTOR["seed"], PISTI_VECTOR["contributions"], "pisti")]
    cases += [(new_secret(rng), [new_secret(rng) for _ in range(k)], game)
              for k, game in [(1, "pisti"), (2, "pisti"), (3, "pisti"), (3, "pishe-pasha")]]
    program = _document_js() + f"""
const cases = {json.dumps(cases)};
const out = [];
for (const [seed, contributions, game] of cases) {{
  out.push(game === null
    ? {{ commitment: await commitment(seed), deck: await deriveDeck(seed, contributions) }}
    : {{ commitment: await commitment(seed, game), deck: await deriveDeck(seed, contributions, game) }});
}}
console.log(JSON.stringify(out));
"""
    result = subprocess.run(["node", "--input-type=module"], input=program, capture_output=True,
                            text=True, timeout=60, check=True)
    got = json.loads(result.stdout)
    assert got == [{"commitment": commitment(seed, game or "pishe-pasha"),
                    "deck": [str(c) for c in derive_deck(seed, parts, game or "pishe-pasha")]}
                   for seed, parts, game in cases]
    assert got[len(VECTORS) + 20]["deck"] == PISTI_VECTOR["deck"].split()
    assert all(Card.parse(code) for deal in got for code in deal["deck"])
