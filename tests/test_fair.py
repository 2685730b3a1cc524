"""What every deal's check shares (pishe.table.fair): secrets, the one shuffle, the replay."""

from __future__ import annotations

import hashlib
import random
import re

import pytest

from helpers import pasha_match
from pishe import BOTS, DECK, seat_view
from pishe.games.pasha.view import step_to_json
from pishe.table import fair
from pishe.table.fair import (
    DealVerificationError, InvalidSecretError, check_secret, new_secret, replay, shown_steps, shuffled,
    verify_play,
)
from pishe.table.game import get_game

PASHA = get_game("pishe-pasha")


def _independent_shuffle(items: list, prefix: str) -> list:
    """The procedure of pishe/table/fair.py's docstring written again from the text, sharing no code."""
    stream, counter, position = b"", 0, 0

    def word() -> int:
        nonlocal stream, counter, position
        if position + 4 > len(stream):
            stream += hashlib.sha256(f"{prefix}{counter}".encode()).digest()
            counter += 1
        value = int.from_bytes(stream[position:position + 4], "big")
        position += 4
        return value

    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        while True:
            value = word()
            if value < 2 ** 32 - 2 ** 32 % (i + 1):
                break
        j = value % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _deck(rng: random.Random) -> list:
    """A deck shuffled from a fresh secret (as a seat's own order is)."""
    return shuffled(DECK, f"test:{new_secret(rng)}:")


def test_the_shuffle_agrees_with_an_independent_one():
    rng = random.Random(1)
    for _ in range(50):
        prefix = f"pisti:order:{new_secret(rng)}:"
        assert shuffled(DECK, prefix) == _independent_shuffle(list(DECK), prefix)
        assert shuffled(range(52), prefix) == _independent_shuffle(list(range(52)), prefix)


def test_the_shuffle_is_a_permutation_and_follows_its_prefix():
    rng = random.Random(2)
    prefix = f"x:{new_secret(rng)}:"
    deck = shuffled(DECK, prefix)
    assert sorted(deck) == sorted(DECK) and deck != list(DECK)
    assert shuffled(DECK, prefix) == deck and shuffled(DECK, prefix + "0") != deck


def test_the_shuffle_is_close_to_uniform():
    rng = random.Random(3)
    counts = [[0] * 52 for _ in range(52)]                  # card -> position
    trials = 2000
    for _ in range(trials):
        for position, card in enumerate(_deck(rng)):
            counts[DECK.index(card)][position] += 1
    expected = trials / 52
    worst = max(abs(n - expected) for row in counts for n in row)
    assert worst < 6 * expected ** 0.5                       # far inside chance for 2704 cells


def test_rejection_sampling_drops_numbers_above_the_limit(monkeypatch):
    def shuffle(words):
        """The deck the shuffle makes when the stream of numbers is ``words``."""
        monkeypatch.setattr(fair, "_words", lambda prefix: iter(words))
        return shuffled(DECK, "p")

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


def test_new_secrets_are_fresh():
    assert re.fullmatch("[0-9a-f]{64}", new_secret())
    assert new_secret() != new_secret()
    assert new_secret(random.Random(4)) == new_secret(random.Random(4))     # a seeded one, for tests


# -- checking a deal ----------------------------------------------------------------------------


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


def _played(index: int):
    """A finished deal 1 (dealt by seat 1; seat 0 leads): its deck, actions and each seat's shown steps."""
    deck = _deck(random.Random(index))
    match = pasha_match("one-deal", deck=deck)
    assert match.dealer == 1 and match.deal.turn == 0
    actions, steps = _play(match, [BOTS["always-give"], BOTS["hold-king"]])
    return deck, actions, [shown_steps(PASHA, steps, seat) for seat in (0, 1)]


def _verify(deck, actions, shown, *, dealer=1, seat=1):
    return verify_play(PASHA, deck, dealer, actions, shown, seat)


@pytest.mark.parametrize("index", range(10))
def test_an_honest_deal_verifies(index):
    deck, actions, shown = _played(index)
    for seat in (0, 1):
        assert _verify(deck, actions, shown[seat], seat=seat).over
    # Every Pishe Pasha step is public: both seats were shown the same.
    assert shown[0] == shown[1]


def test_the_replay_gives_the_steps_of_the_deal():
    deck, actions, shown = _played(0)
    state, steps = replay(PASHA, deck, 1, actions)
    assert state.over and len(steps) == len(actions) + 1
    assert shown_steps(PASHA, steps, 1) == shown[1] == [[step_to_json(s) for s in group] for group in steps]


def test_another_deck_fails():
    deck, actions, shown = _played(1)
    with pytest.raises(DealVerificationError, match="fixed at the start"):
        _verify(_deck(random.Random(99)), actions, shown[1])


def test_a_changed_turned_card_fails():
    deck, actions, shown = _played(2)
    mine = shown[1]
    k, i = next((k, i) for k, group in enumerate(mine) if k > 10
                for i, s in enumerate(group) if s["kind"] == "turn")
    other = next(str(c) for c in DECK if str(c) != mine[k][i]["card"])
    forged = [list(group) for group in mine]
    forged[k][i] = {**forged[k][i], "card": other}
    with pytest.raises(DealVerificationError,
                       match="You were shown '.*', but the deal fixed at the start gives '.*'"):
        _verify(deck, actions, forged)


def test_a_deal_cut_short_fails():
    deck, actions, shown = _played(3)
    with pytest.raises(DealVerificationError, match="stops before it was over"):
        _verify(deck, actions[:-1], shown[1][:-1])
    with pytest.raises(DealVerificationError, match="stops before it was over"):
        _verify(deck, [], shown[1][:1])
    with pytest.raises(DealVerificationError, match="do not match the steps"):
        _verify(deck, actions[:-1], shown[1])             # a move without its steps
    with pytest.raises(DealVerificationError, match="are not those of"):
        _verify(deck, actions, [*shown[1][:-1], shown[1][-1][:-1]])   # a step left out


def test_impossible_moves_fail():
    deck, actions, shown = _played(4)
    seat, action = actions[0]
    with pytest.raises(DealVerificationError, match="is not possible"):
        _verify(deck, [[1 - seat, action], *actions[1:]], shown[1])   # out of turn
    with pytest.raises(DealVerificationError, match="is not possible"):
        _verify(deck, actions, shown[1], dealer=0)        # the wrong dealer: seat 1 leads
    with pytest.raises(DealVerificationError, match="is not possible"):
        _verify(deck, actions + actions[:1], shown[1] + shown[1][1:2])  # after the end
    keep = next(i for i, (_, a) in enumerate(actions) if a != "keep")
    with pytest.raises(DealVerificationError, match="is not possible"):
        _verify(deck, [*actions[:keep], [actions[keep][0], "keep"], *actions[keep + 1:]], shown[1])


def test_a_swapped_stock_card_fails():
    deck = _deck(random.Random(5))
    swapped = list(deck)
    swapped[25], swapped[26] = swapped[26], swapped[25]   # the first card seat 0 turns, and seat 1's bottom card
    match = pasha_match("one-deal", deck=swapped)
    actions, steps = _play(match, [BOTS["always-give"]] * 2)
    with pytest.raises(DealVerificationError, match="^You were shown 'They turn the .*', but the deal "
                                                     "fixed at the start gives 'They turn the .*'"):
        _verify(deck, actions, shown_steps(PASHA, steps, 1))


def test_a_deal_of_another_game_verifies_through_its_own_rules():
    """Nothing in the check knows Pishe Pasha: a Pişti deck verifies for every seat, each
    shown only its own steps, and another deck fails."""
    pisti = get_game("pisti")
    deck = _deck(random.Random(9))
    state = pisti.new_deal(list(deck), 3)
    actions, steps = [], [list(pisti.deal_steps(state))]
    while not state.over:
        seat, action = state.turn, state.legal_actions()[0]
        steps.append(state.apply(action, seat))
        actions.append([seat, pisti.action_text(action)])
    assert len(actions) == 48
    for seat in range(4):
        shown = shown_steps(pisti, steps, seat)
        assert verify_play(pisti, deck, 3, actions, shown, seat).over
        with pytest.raises(DealVerificationError):
            verify_play(pisti, deck[::-1], 3, actions, shown, seat)
    # Seats see different things: the cards dealt to one seat are not shown to the others.
    assert shown_steps(pisti, steps, 0) != shown_steps(pisti, steps, 1)
