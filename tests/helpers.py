"""Building explicit positions for scripted scenarios."""

from pishe import DECK, Card, parse_position


def position(stocks=((), ()), discards=((), ()), foundations=None, turn=0, turned=None):
    """A deal at an explicit position, cards given as text, piles bottom to top.

    Suit piles default to complete (K) except where ``foundations`` says
    otherwise; every card neither listed nor on a suit pile goes to the
    bottom of seat 1's stock, out of the scenario's way.
    """
    tops = {"C": 13, "D": 13, "H": 13, "S": 13, **(foundations or {})}
    listed = {Card.parse(c) for pile in (*stocks, *discards) for c in pile}
    if turned:
        listed.add(Card.parse(turned))
    rest = [str(c) for c in DECK if c not in listed and c.rank > tops[c.suit]]
    data = {
        "stocks": [list(stocks[0]), rest + list(stocks[1])],
        "discards": [list(d) for d in discards],
        "foundations": tops,
        "turn": turn,
    }
    if turned:
        data["turned"] = turned
    return parse_position(data)


def pasha_match(length=None, rng=None, deck=None):
    """A match of Pishe Pasha on the table's game-agnostic :class:`~pishe.table.match.Match`."""
    from pishe.table.game import get_game
    from pishe.table.match import Match

    return Match(get_game("pishe-pasha"), length, rng, deck)
