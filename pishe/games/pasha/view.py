"""A seat's view: everything one seat may see, and nothing more, in its own words.

:func:`seat_view` is the one function that makes it. The bots, the page and
the protocol only ever get views; no stock card is ever in one (a seat sees
stock counts only, its own included). Every sentence the page shows is
worded here (:meth:`SeatView.to_json`), only when a page asks for it.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import NamedTuple, Optional

from ...cards import SUITS, Card
from ...errors import InvalidCardError, InvalidStepError
from ...table.match import Match
from .words import N_, _, ngettext
from .deal import ACTIONS, GIVE, GIVE_STEP, HOME, KEEP, KEPT, RECYCLE, TO_CHOICE, TO_HOME, TO_PILE, \
    TURN, TURNED, WIN, Deal, Step, give_problem_words

__all__ = ["SeatView", "seat_view", "view_from_json", "blank_view", "seen_json", "GAME_ID", "DEFAULT_NAMES",
           "step_to_json",
           "step_from_json", "motion", "GOAL", "HINTS"]

#: The game's id in views and messages.
GAME_ID = "pishe-pasha"
#: Seat names from a seat's own side when the table gives none: its own, the other's.
DEFAULT_NAMES = (N_("You"), N_("Opponent"))
#: Suit pile names, by suit letter.
_SUIT_PILE_LABELS = {"C": (N_("Clubs suit pile: empty"), N_("Clubs suit pile: {card} on top, {cards}")),
                     "D": (N_("Diamonds suit pile: empty"), N_("Diamonds suit pile: {card} on top, {cards}")),
                     "H": (N_("Hearts suit pile: empty"), N_("Hearts suit pile: {card} on top, {cards}")),
                     "S": (N_("Spades suit pile: empty"), N_("Spades suit pile: {card} on top, {cards}"))}
#: The game's goal, said on the table before the first move.
GOAL = N_("Be first to get rid of all your cards: onto the suit piles, or onto their pile.")
#: A newcomer's hints, by the moment they apply to (the page shows each once, in its first deal).
HINTS = {
    "give_or_keep": N_("Click the turned card (or Give) to give it onto their pile, or click your pile (or Keep) "
                       "to keep it and end your turn."),
    "give": N_("Your pile's top is one above or below theirs: click it (or Give) to give it onto their pile, "
               "or turn a card instead."),
    "recycle": N_("Your stock is empty: the next card you turn turns your pile over as your new stock, in the "
                  "order it went down."),
    "turn": N_("Click your stock (or Turn a card) to turn its top card. Cards that fit a suit pile go there "
               "by themselves."),
}
#: The hints that say a click, as a touch screen's player does it (web/games/hints.js shows them there).
TOUCH_HINTS = {
    "give_or_keep": N_("Tap the turned card (or Give) to give it onto their pile, or tap your pile (or Keep) "
                       "to keep it and end your turn."),
    "give": N_("Your pile's top is one above or below theirs: tap it (or Give) to give it onto their pile, "
               "or turn a card instead."),
    "turn": N_("Tap your stock (or Turn a card) to turn its top card. Cards that fit a suit pile go there "
               "by themselves."),
}


class SeatView(NamedTuple):
    """What ``seat`` sees of a deal (and of its match, when there is one).

    Piles are per seat, indexed by seat number. ``legal`` and ``give_card``
    are empty/None unless it is this seat's turn; ``give_problem`` says in
    plain words why a give is impossible now. ``names`` are the seats' names
    from this seat's side; ``match`` is the match's JSON (``None`` for a lone deal).
    """

    seat: int
    turn: Optional[int]
    foundations: dict
    stock_counts: tuple
    discard_tops: tuple
    discard_counts: tuple
    turned: Optional[Card]
    legal: tuple
    give_card: Optional[Card]
    this_turn: tuple
    other_last_turn: tuple
    deal_winner: Optional[int]
    deal_points: Optional[int]
    match: Optional[dict]
    names: tuple = DEFAULT_NAMES

    @property
    def seat_names(self) -> tuple:
        """The seats' names in the page's language (the default ones translated; a table's own as given)."""
        return tuple(_(n) for n in DEFAULT_NAMES) if self.names is DEFAULT_NAMES else self.names

    @property
    def give_problem(self) -> Optional[str]:
        """Why this seat cannot give now, in plain words (``None`` if it can): worded when
        asked for, not at each of the many views bots and invariant checks make."""
        if GIVE in self.legal:
            return None
        winner, seat = self.deal_winner, self.seat
        if winner is not None:
            return _("The deal is over.")
        if self.turn != seat:
            return _("It is not your turn.")
        return give_problem_words(self.give_card, self.discard_tops[1 - seat])

    def to_json(self) -> dict:
        """The view as plain JSON data, every sentence in this seat's words, each made
        from its other data (:func:`view_from_json` gets this view back from it)."""
        seat, turn, match = self.seat, self.turn, self.match
        names = self.seat_names
        card = _card_json
        winner, problem = self.deal_winner, self.give_problem
        this_seat = turn if turn is not None else winner
        return {
            "game": GAME_ID,
            "seat": seat,
            "seats": len(self.stock_counts),
            "names": list(names),
            "turn": turn,
            "suit_piles": [_suit_pile(s, self.foundations[s]) for s in SUITS],
            "stocks": [{"count": n} for n in self.stock_counts],
            "discards": [{"count": n, "top": card(top)}
                         for n, top in zip(self.discard_counts, self.discard_tops)],
            "turned": card(self.turned),
            "places": [self._place(s) for s in range(len(self.stock_counts))],
            "legal": list(self.legal),
            "give_card": card(self.give_card),
            "give_problem": problem,
            "status": self._status(),
            "why": ({"text": _("You may give your {card} onto their {onto}.").format(
                        card=self.give_card.display(), onto=self.discard_tops[1 - seat].display()), "kind": "hint"}
                    if GIVE in self.legal and self.give_card is not None else {"text": problem, "kind": "problem"}),
            "goal": _(GOAL),
            "hint": self._hint(),
            "this_turn": {"seat": this_seat, "title": _("This turn"),
                          "who": names[this_seat] if this_seat is not None else "",
                          "steps": [s.describe(seat) for s in self.this_turn],
                          "shown": [step_to_json(s) for s in self.this_turn]},
            "other_last_turn": {"seat": 1 - seat, "title": _last_turn_title(names[1 - seat]),
                                "steps": [s.describe(seat) for s in self.other_last_turn],
                                "shown": [step_to_json(s) for s in self.other_last_turn]},
            "deal_result": (None if winner is None else {"winner": winner, "points": self.deal_points}),
            "result": self._result(),
            "match": match,
        }

    def _status(self) -> str:
        names, winner = self.seat_names, self.deal_winner
        if winner is not None:
            points = self.deal_points or 0          # a deal won has its points
            if winner == self.seat:
                return ngettext("You win the deal: {points} point.", "You win the deal: {points} points.",
                                points).format(points=points)
            return ngettext("{name} wins the deal: {points} point.", "{name} wins the deal: {points} points.",
                            points).format(name=names[winner], points=points)
        if self.turn is None:
            return ""
        if self.turn != self.seat:
            return _("{name} to play…").format(name=names[self.turn])
        if self.turned is not None and KEEP in self.legal:
            return _("Your turn: give or keep the {card}?").format(card=self.turned.display())
        return _("Your turn.")

    def _place(self, seat: int) -> dict:
        """One seat's part of the table in words: name, flag and the piles' labels."""
        winner, match = self.deal_winner, self.match
        if winner is not None:
            flag, kind = (_("Wins the deal") if winner == seat else ""), "winner"
        elif self.turn == seat:
            flag, kind = (_("Your turn") if seat == self.seat else _("To play")), "turn"
        else:
            flag, kind = (_("Dealer") if match is not None and match["dealer"] == seat else ""), "dealer"
        top, count = self.discard_tops[seat], self.discard_counts[seat]
        turned = self.turned if self.turn == seat else None
        mine = seat == self.seat
        given = mine and top is not None and self._given(top)
        name = self.seat_names[seat]
        if top is None:
            pile = _("Your pile: empty") if mine else _("{name}'s pile: empty")
        elif given:
            pile = _("Your pile: {card} on top, just given to you, {cards}")
        else:
            pile = _("Your pile: {card} on top, {cards}") if mine else _("{name}'s pile: {card} on top, {cards}")
        return {
            "name": name,
            "flag": flag,
            "flag_kind": kind,
            "stock_label": (_("Your stock: {cards}") if mine else _("{name}'s stock: {cards}")).format(
                name=name, cards=_cards(self.stock_counts[seat])),
            "pile_label": pile.format(name=name, card=top.display() if top else "", cards=_cards(count)),
            "turned": _card_json(turned),
            "turned_label": (None if turned is None else
                             (_("Your turned card, waiting to be given or kept: {card}") if mine else
                              _("{name}'s turned card, waiting to be given or kept: {card}")).format(
                                 name=name, card=turned.display())),
            "clicks": self._clicks(mine),
            "target": not mine and GIVE in self.legal,
            "given": given,
        }

    def _clicks(self, mine: bool) -> dict:
        """What a click on each of a seat's piles does (an action, or ``None``), from the legal
        actions alone: your stock turns a card, the turned card or your pile's top is given,
        your pile keeps a turned card; their pile, the give's target, gives."""
        legal = self.legal
        give = GIVE if GIVE in legal else None
        if not mine:
            return {"stock": None, "turned": None, "pile": give}
        waiting = self.turned is not None
        return {"stock": TURN if TURN in legal else None,
                "turned": give if waiting else None,
                "pile": KEEP if KEEP in legal else None if waiting else give}

    def _given(self, top: Card) -> bool:
        """Whether ``top``, on this seat's pile, was just given to it by the other seat."""
        return any(step.kind == GIVE_STEP and step.seat != self.seat and step.card == top
                   for step in (*self.other_last_turn, *self.this_turn))

    def _hint(self) -> Optional[dict]:
        """A newcomer's hint for this moment of this seat's turn (``{"key", "text", "touch"}``:
        ``touch``, its words on a touch screen), or ``None`` when it is not its turn: the
        choice of give or keep, a possible give, an empty stock, a turn."""
        legal = self.legal
        if not legal:
            return None
        if KEEP in legal:
            key = "give_or_keep"
        elif GIVE in legal:
            key = "give"
        else:
            key = "recycle" if self.stock_counts[self.seat] == 0 else "turn"
        return {"key": key, "text": _(HINTS[key]), "touch": _(TOUCH_HINTS.get(key, HINTS[key]))}

    def _result(self) -> Optional[dict]:
        winner, names, match = self.deal_winner, self.seat_names, self.match
        if winner is None:
            return None
        line = ""
        if match is not None:
            scores = " · ".join(f"{names[s]} {p}" for s, p in enumerate(match["scores"]))
            if match["over"]:
                line = _("Match over. Final score: {scores}").format(scores=scores)
            elif match["next_deal"]:
                line = _("Match score: {scores}. {length}.").format(scores=scores, length=match["length_name"])
        points = self.deal_points or 0
        return {"title": (_("You win the deal!") if winner == self.seat else
                          _("{name} wins the deal").format(name=names[winner])),
                "points": ngettext("{points} point", "{points} points", points).format(points=points),
                "match": line}


_new_view = tuple.__new__


def _cards(n: int) -> str:
    return ngettext("{count} card", "{count} cards", n).format(count=n)


def _last_turn_title(name: str) -> str:
    return _("{name}'s last turn").format(name=name)


def _card_json(card: Optional[Card]) -> Optional[dict]:
    return card.to_json() if card is not None else None


def _suit_pile(suit: str, rank: int) -> dict:
    empty, label = _SUIT_PILE_LABELS[suit]
    if not rank:
        return {"suit": suit, "count": 0, "top": None, "label": _(empty)}
    top = Card(rank, suit)
    return {"suit": suit, "count": rank, "top": top.to_json(),
            "label": _(label).format(card=top.display(), cards=_cards(rank))}


def seat_view(game, seat: int, names=None) -> SeatView:
    """Make ``seat``'s view of a deal or of a match's current deal (a
    :class:`~pishe.table.match.Match`, or anything with the attributes its ``to_json`` reads).
    ``names`` are the seats' names from this seat's side."""
    if isinstance(game, Deal):
        match, deal = None, game
    else:
        match, deal = game, game.deal
    winner, turn = deal.winner, deal.turn
    # Pishe Pasha has two seats (the other is 1 - seat): each seat's piles, unpacked.
    (stock0, stock1), (pile0, pile1) = deal.stocks, deal.discards
    tops = (pile0[-1] if pile0 else None, pile1[-1] if pile1 else None)
    if winner is None and turn == seat:
        legal = deal.legal_actions()
        give_card = deal.give_card()
    else:
        legal, give_card = (), None
    # Bots build a view at every choice: fields in order, through the C-level tuple
    # constructor (NamedTuple's own is a Python function, several times slower).
    return _new_view(SeatView, (
        seat,
        turn if winner is None else None,
        dict(deal.foundations),
        (len(stock0), len(stock1)),
        tops,
        (len(pile0), len(pile1)),
        deal.turned,
        legal,
        give_card,
        tuple(deal.this_turn),
        tuple(deal.last_turn(1 - seat)),
        winner,
        None if winner is None else deal.points(1 - winner),
        None if match is None else _match_json(match),
        DEFAULT_NAMES if names is None else tuple(names),
    ))


def view_from_json(game, data: dict, names=None) -> SeatView:
    """The view whose :meth:`SeatView.to_json` made ``data``, from its data alone (cards by
    code, steps as data, numbers), never from its words: how a guest's page words a view
    its host sent with its own Python (``names`` as for :func:`seat_view`). Raises
    ``KeyError``, ``TypeError``, ``ValueError`` or a :class:`~pishe.errors.PisheError` for
    data that is not such a view."""
    seat, turn, result = data["seat"], data["turn"], data["deal_result"]
    card = lambda value: None if value is None else Card.parse(value["code"])    # noqa: E731
    legal = tuple(data["legal"])
    if not set(legal) <= set(ACTIONS):
        raise ValueError("unknown actions in the view")
    winner = None if result is None else result["winner"]
    give_card = card(data["give_card"])
    tops = tuple(card(pile["top"]) for pile in data["discards"])
    match = data["match"]
    if match is not None:
        # What Match.to_json reads of a match, from the match's own data.
        length = match["length"]
        match = _match_json(SimpleNamespace(
            length=length, length_name=game.word(game.lengths[length].name), target=game.lengths[length].target,
            deal_number=match["deal"], dealer=match["dealer"], scores=list(match["scores"]),
            over=bool(match["over"]), winner=match["winner"], deal=SimpleNamespace(over=winner is not None)))
    return SeatView(
        seat, turn, {pile["suit"]: pile["count"] for pile in data["suit_piles"]},
        tuple(stock["count"] for stock in data["stocks"]), tops,
        tuple(pile["count"] for pile in data["discards"]), card(data["turned"]), legal, give_card,
        tuple(step_from_json(s) for s in data["this_turn"]["shown"]),
        tuple(step_from_json(s) for s in data["other_last_turn"]["shown"]),
        winner, None if result is None else result["points"], match,
        DEFAULT_NAMES if names is None else tuple(names))


def blank_view(seat: int, names, status: str) -> dict:
    """The view JSON of ``seat`` at a table whose cards are not dealt yet: empty piles,
    the seats' names, and ``status`` saying what the table waits for."""
    names = [_(n) for n in DEFAULT_NAMES] if names is None else list(names)

    def place(s: int) -> dict:
        mine = s == seat
        return {"name": names[s], "flag": "", "flag_kind": "dealer",
                "stock_label": (_("Your stock: not dealt yet") if mine else
                                _("{name}'s stock: not dealt yet").format(name=names[s])),
                "pile_label": _("Your pile: empty") if mine else _("{name}'s pile: empty").format(name=names[s]),
                "turned": None, "turned_label": None,
                "clicks": {"stock": None, "turned": None, "pile": None}, "target": False, "given": False}

    return {
        "game": GAME_ID, "seat": seat, "seats": 2, "names": names, "turn": None,
        "suit_piles": [_suit_pile(s, 0) for s in SUITS],
        "stocks": [{"count": None}, {"count": None}],
        "discards": [{"count": 0, "top": None}, {"count": 0, "top": None}],
        "turned": None, "places": [place(0), place(1)], "legal": [], "give_card": None,
        "give_problem": None, "status": status, "why": {"text": "", "kind": "problem"}, "goal": _(GOAL), "hint": None,
        "this_turn": {"seat": None, "title": _("This turn"), "who": "", "steps": []},
        "other_last_turn": {"seat": 1 - seat, "title": _last_turn_title(names[1 - seat]), "steps": []},
        "deal_result": None, "result": None, "match": None,
    }


def seen_json(memory, seat: int, names=None) -> dict:
    """What ``memory`` (a :class:`~.memory.Memory` of the steps shown to ``seat``) holds, in
    ``seat``'s words, for the page's "Show what you have seen": each seat's stock in the
    order it will be turned, once known, and its discard pile in the order it will turn
    over as its next stock (``{"title", "places": [{"seat", "stock", "next_stock"}]}``)."""
    names = tuple(_(n) for n in DEFAULT_NAMES) if names is None else tuple(names)
    title = _("What you have seen")
    if not memory.complete:
        return {"title": title, "places": [],
                "note": _("This page saw the deal from its middle: it remembers nothing of it.")}
    places = []
    for s, (stock, pile) in enumerate(zip(memory.stocks, memory.discards)):
        mine = s == seat
        if stock is None:
            stock_line = (_("Your stock: unknown until your pile turns over") if mine else
                          _("{name}'s stock: unknown until their pile turns over"))
        elif stock:
            stock_line = (_("Your stock, next card first: {cards}") if mine else
                          _("{name}'s stock, next card first: {cards}"))
        else:
            stock_line = _("Your stock: empty") if mine else _("{name}'s stock: empty")
        if pile:
            next_line = (_("Your next stock, first card first: {cards}") if mine else
                         _("{name}'s next stock, first card first: {cards}"))
        else:
            next_line = (_("Your next stock: none yet (the pile is empty)") if mine else
                         _("{name}'s next stock: none yet (the pile is empty)"))
        places.append({"seat": s,
                       "stock": stock_line.format(name=names[s], cards=_card_list(reversed(stock or ()))),
                       "next_stock": next_line.format(name=names[s], cards=_card_list(pile))})
    return {"title": title, "places": places, "note": ""}


def _card_list(cards) -> str:
    return " ".join(c.display() for c in cards)


def _match_json(match) -> dict:
    data = Match.to_json(match)
    data["leader"] = 1 - data["dealer"]
    return data


# -- steps as JSON: how each step reads to each seat (every Pishe Pasha step is public) -----

_STEP_KINDS = (HOME, GIVE_STEP, TURNED, KEPT, RECYCLE, WIN)
_OUTCOMES = (TO_HOME, TO_PILE, TO_CHOICE)
_STEP_KEYS = {"seat", "kind", "card", "onto", "outcome", "count"}


def step_to_json(step: Step) -> dict:
    """A step as JSON data, cards in text form (``"10H"``), every key always present."""
    return {
        "seat": step.seat,
        "kind": step.kind,
        "card": str(step.card) if step.card is not None else None,
        "onto": str(step.onto) if step.onto is not None else None,
        "outcome": step.outcome,
        "count": step.count,
    }


#: Where a turned card goes, by its outcome: a place of its seat's, or its suit pile.
_TURNED_TO = {TO_HOME: None, TO_PILE: "pile", TO_CHOICE: "turned"}


def motion(shown: dict) -> list:
    """How a step (as :func:`step_to_json` made it) moves cards, for the page (see
    :meth:`pishe.table.game.Game.motion`): places are "stock:<seat>", "pile:<seat>" (the
    discard pile), "turned:<seat>" and "suit:<suit>". A given card moves from wherever
    the page drew it (the turned card or the pile's top)."""
    kind, seat, code = shown["kind"], shown["seat"], shown["card"]
    card = Card.parse(code) if code else None

    def move(start, end, sweep=False):
        return {"card": _card_json(card), "from": start, "to": end, "sweep": sweep, "sound": None if sweep else "lay"}

    home = None if card is None else f"suit:{card.suit}"      # a home step's card is named
    if kind == HOME:
        return [move(f"pile:{seat}", home)]
    if kind == GIVE_STEP:
        return [move(f"pile:{seat}", f"pile:{1 - seat}")]
    if kind == TURNED:
        place = _TURNED_TO[shown["outcome"]]
        return [move(f"stock:{seat}", f"{place}:{seat}" if place else home)]
    if kind == KEPT:
        return [move(f"turned:{seat}", f"pile:{seat}")]
    if kind == RECYCLE:
        return [move(f"pile:{seat}", f"stock:{seat}", True)]
    return []


def step_from_json(data) -> Step:
    """The step that :func:`step_to_json` made; raises :class:`~pishe.errors.InvalidStepError`."""
    if not (isinstance(data, dict) and set(data) == _STEP_KEYS):
        raise InvalidStepError("a step must be an object with seat, kind, card, onto, outcome and count")
    if data["kind"] not in _STEP_KINDS:
        raise InvalidStepError(f"unknown step kind {str(data['kind'])[:40]!r}")
    if data["outcome"] is not None and data["outcome"] not in _OUTCOMES:
        raise InvalidStepError(f"unknown outcome {str(data['outcome'])[:40]!r}")
    if type(data["seat"]) is not int or data["seat"] not in (0, 1):
        raise InvalidStepError("a step's seat must be 0 or 1")
    if type(data["count"]) is not int or not 0 <= data["count"] <= 52:
        raise InvalidStepError("a step's count must be a whole number from 0 to 52")
    try:
        card, onto = (None if data[k] is None else Card.parse(data[k]) for k in ("card", "onto"))
    except InvalidCardError as e:
        raise InvalidStepError(str(e)) from None
    return Step(data["kind"], data["seat"], card, onto, data["outcome"], data["count"])
