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

from pishe import DECK, Card, Deal, Match, play_deal
from pishe.bots import BOTS
from pishe.fair import (
    DealVerificationError, InvalidSecretError, _shuffle, check_secret, commitment, derive_deck,
    derive_stocks, new_secret, verify_deal,
)

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


def _independent_deck(seed: str, contribution: str) -> list[str]:
    """The procedure of docs/PROTOCOL.md written again from the text, sharing no code."""
    stream = b""
    counter = 0
    position = 0

    def word() -> int:
        nonlocal stream, counter, position
        if position + 4 > len(stream):
            text = f"pishe-pasha:deck:v1:{seed}:{contribution}:{counter}"
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
    assert commitment(seed) == vector["commitment"]
    assert " ".join(map(str, derive_deck(seed, [contribution]))) == vector["deck"]
    assert " ".join(_independent_deck(seed, contribution)) == vector["deck"]
    first = hashlib.sha256(f"pishe-pasha:deck:v1:{seed}:{contribution}:0".encode()).digest()
    assert [int.from_bytes(first[i:i + 4], "big") for i in (0, 4, 8)] == vector["words"]


def test_vectors_are_in_the_document():
    text = PROTOCOL_MD.read_text()
    for vector in VECTORS:
        for value in (vector["seed"], vector["contribution"], vector["commitment"], vector["deck"]):
            assert value in text


def test_the_derivation_agrees_with_an_independent_one():
    rng = random.Random(1)
    for _ in range(50):
        seed, contribution = new_secret(rng), new_secret(rng)
        assert list(map(str, derive_deck(seed, [contribution]))) == _independent_deck(seed, contribution)


def test_the_deck_is_a_permutation_and_needs_both_parts():
    rng = random.Random(2)
    seed, contribution = new_secret(rng), new_secret(rng)
    deck = derive_deck(seed, [contribution])
    assert sorted(deck) == sorted(DECK) and deck != list(DECK)
    assert derive_deck(seed, [new_secret(rng)]) != deck
    assert derive_deck(new_secret(rng), [contribution]) != deck
    stocks = derive_stocks(seed, [contribution])
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


def test_rejection_sampling_drops_numbers_above_the_limit():
    biased = 2 ** 32 - 1                                     # above the limit for 52 (2**32 - 48)
    zeros = [0] * 60
    deck = _shuffle(iter([biased, 5] + zeros))
    assert deck == _shuffle(iter([5] + zeros))               # the first swap used 5 …
    assert deck != _shuffle(iter([biased % 52] + zeros))     # … not the biased number
    assert _shuffle(iter([2 ** 32 - 49] + zeros)) == _shuffle(iter([51] + zeros))  # just below: kept


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
        derive_deck("0" * 64, [])


# -- verifying a deal ---------------------------------------------------------------------------


def _played(seed_index: int):
    rng = random.Random(seed_index)
    seed, contribution = new_secret(rng), new_secret(rng)
    match = Match("one-deal", stocks=derive_stocks(seed, [contribution]))
    steps = play_deal(match, [BOTS["always-give"], BOTS["hold-king"]])
    return seed, contribution, steps


@pytest.mark.parametrize("index", range(10))
def test_an_honest_deal_verifies(index):
    seed, contribution, steps = _played(index)
    assert verify_deal(commitment(seed), seed, [contribution], 0, steps) is None


def test_a_wrong_seed_fails():
    seed, contribution, steps = _played(0)
    with pytest.raises(DealVerificationError, match="does not match the commitment"):
        verify_deal(commitment(seed), "f" * 64, [contribution], 0, steps)


def test_a_wrong_contribution_fails():
    seed, contribution, steps = _played(1)
    with pytest.raises(DealVerificationError, match="fixed at the start"):
        verify_deal(commitment(seed), seed, ["e" * 64], 0, steps)


def test_a_changed_turned_card_fails():
    seed, contribution, steps = _played(2)
    i = next(i for i, s in enumerate(steps) if s.kind == "turn" and i > 10)
    other = next(c for c in DECK if c != steps[i].card)
    forged = steps[:i] + [steps[i]._replace(card=other)] + steps[i + 1:]
    with pytest.raises(DealVerificationError, match=f"Step {i + 1}: you were shown"):
        verify_deal(commitment(seed), seed, [contribution], 0, forged)


def test_a_deal_cut_short_fails():
    seed, contribution, steps = _played(3)
    with pytest.raises(DealVerificationError, match="stops before anyone won"):
        verify_deal(commitment(seed), seed, [contribution], 0, steps[:-1])
    with pytest.raises(DealVerificationError, match="stops before anyone won"):
        verify_deal(commitment(seed), seed, [contribution], 0, [])


def test_impossible_steps_fail():
    seed, contribution, steps = _played(4)
    with pytest.raises(DealVerificationError, match="cannot happen"):
        verify_deal(commitment(seed), seed, [contribution], 0, steps[1:] if steps[0].kind != "turn"
                    else [steps[-1]])
    with pytest.raises(DealVerificationError, match="is not possible"):
        verify_deal(commitment(seed), seed, [contribution], 1, steps)       # the wrong leader
    with pytest.raises(DealVerificationError, match="cannot happen"):
        verify_deal(commitment(seed), seed, [contribution], 0, steps + steps[:1])


def test_a_swapped_stock_card_fails():
    rng = random.Random(5)
    seed, contribution = new_secret(rng), new_secret(rng)
    stocks = derive_stocks(seed, [contribution])
    stocks[0][-1], stocks[1][0] = stocks[1][0], stocks[0][-1]      # the first card seat 0 turns
    steps = play_deal(Deal.from_stocks(stocks, 0), [BOTS["always-give"]] * 2)
    with pytest.raises(DealVerificationError, match="Step 1: you were shown"):
        verify_deal(commitment(seed), seed, [contribution], 0, steps, viewer=1)


# -- the JavaScript in docs/PROTOCOL.md -----------------------------------------------------


def _document_js() -> str:
    blocks = re.findall(r"```js\n(.*?)```", PROTOCOL_MD.read_text(), re.S)
    assert len(blocks) == 1, "docs/PROTOCOL.md has one JavaScript block: the reference derivation"
    return blocks[0]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_documents_javascript_gives_the_same_decks():
    rng = random.Random(6)
    cases = [(v["seed"], v["contribution"]) for v in VECTORS]
    cases += [(new_secret(rng), new_secret(rng)) for _ in range(20)]
    program = _document_js() + f"""
const cases = {json.dumps(cases)};
const out = [];
for (const [seed, contribution] of cases) {{
  out.push({{ commitment: await commitment(seed), deck: await deriveDeck(seed, [contribution]) }});
}}
console.log(JSON.stringify(out));
"""
    result = subprocess.run(["node", "--input-type=module"], input=program, capture_output=True,
                            text=True, timeout=60, check=True)
    got = json.loads(result.stdout)
    assert got == [{"commitment": commitment(seed), "deck": [str(c) for c in derive_deck(seed, [c])]}
                   for seed, c in cases]
    assert all(Card.parse(code) for deal in got for code in deal["deck"])
