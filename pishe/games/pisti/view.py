"""What one seat sees of a deck of Pişti, and the words for it.

:func:`seat_view` is the one function that makes a seat's view; :func:`show_step`
says how a step reads to a seat (JSON data naming only what it may see) and
:func:`describe` puts such data into plain words from that seat's side. Bots,
the page and the protocol only ever get these.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, NamedTuple, Optional, Sequence, overload

from ...cards import Card
from ...lang import language, lower, named
from .words import N_, _, ngettext
from .deal import (
    CAPTURE, COUNT, LEFTOVER, OPENING, PACKET, PISHTI, PLAY, UNDER, JACK, Deck, Step,
)

__all__ = ["PistiView", "seat_view", "view_from_json", "match_info", "show_step", "describe",
           "describe_timeout", "motion", "hidden_cards", "SEAT_WORDS", "GAME_ID", "GAME_IDS", "GOAL", "HINTS",
           "GOAL_TWO", "HINTS_TWO"]

#: The game's id by number of seats: Pişti for four, and pagat's Pişti for two.
GAME_IDS = {4: "pisti", 2: "pisti-2"}
GAME_ID = GAME_IDS[4]
#: Seat names from a seat's own side, by (other seat - own seat) % 4; two players: % 2.
SEAT_WORDS = (N_("You"), N_("Right"), N_("Partner"), N_("Left"))
_TWO_SEAT_WORDS = (N_("You"), N_("Opponent"))
_TEAM_WORDS = (N_("Your team"), N_("Their team"))
#: The game's goal, said on the table before the first card is played.
GOAL = N_("Take the pile with a card of the same rank, or a jack: your team scores for aces, jacks, the 2♣, "
          "the 10♦, most cards and piştis.")
GOAL_TWO = N_("Take the pile with a card of the same rank, or a jack: you score for aces, jacks, the 2♣, "
              "the 10♦, most cards and piştis.")
#: A newcomer's hints, by the moment they apply to (the page shows each once, in its first deck).
_PLAY = "play"
HINTS = {_PLAY: N_("Your turn: click a card of your hand to play it onto the pile. The same rank, or a jack, "
                    "takes the whole pile for your team.")}
HINTS_TWO = {_PLAY: N_("Your turn: click a card of your hand to play it onto the pile. The same rank, or a jack, "
                        "takes the whole pile.")}
#: The same hints on a touch screen (the page shows them there: web/games/hints.js).
TOUCH_HINTS = {_PLAY: N_("Your turn: tap a card of your hand to play it onto the pile. The same rank, or a jack, "
                         "takes the whole pile for your team.")}
TOUCH_HINTS_TWO = {_PLAY: N_("Your turn: tap a card of your hand to play it onto the pile. The same rank, or a "
                             "jack, takes the whole pile.")}

_CARD_JSON: dict[tuple[Card, str], dict] = {}


@overload
def _card_json(card: Card) -> dict: ...
@overload
def _card_json(card: None) -> None: ...
def _card_json(card: Optional[Card]) -> Optional[dict]:
    """``card.to_json()``, made once per card and language and copied (a view is built at every turn)."""
    if card is None:
        return None
    key = (card, language())
    data = _CARD_JSON.get(key)
    if data is None:
        data = _CARD_JSON[key] = card.to_json()
    return dict(data)


_DEFAULT_NAMES = {
    4: tuple(tuple(SEAT_WORDS[(s - seat) & 3] for s in range(4)) for seat in range(4)),
    2: tuple(tuple(_TWO_SEAT_WORDS[(s - seat) & 1] for s in range(2)) for seat in range(2)),
}


def default_names(seat: int, seats: int = 4) -> tuple:
    """The seats' names by seat number from ``seat``'s side: "You", "Right", "Partner", "Left"
    (two players: "You", "Opponent"; in English: :func:`seat_names` says them in the page's
    language)."""
    return _DEFAULT_NAMES[seats][seat]


def seat_names(names: Sequence[str]) -> tuple:
    """``names`` in the page's language when they are a seat's default ones; a table's own as given."""
    return tuple(_(n) for n in names) if tuple(names) in _DEFAULT_NAMES[len(names)] else tuple(names)


def _team_names(team: int, names: Sequence[str]) -> tuple:
    """Each team's name by team number from ``team``'s side, in the page's language:
    "Your team", "Their team"; two players, each their own team: the players' names."""
    if len(names) == 2:
        return seat_names(names)
    return (_(_TEAM_WORDS[team]), _(_TEAM_WORDS[1 - team]))


class PistiView(NamedTuple):
    """What ``seat`` sees of a deck (and of its match, when there is one).

    Cards are :class:`~pishe.cards.Card` values; lists are by seat or by team
    number. ``turn`` is ``None`` once the deck is over; ``legal`` is empty
    unless it is this seat's turn. ``opening`` is the face-down opening cards,
    only once this seat's team took them. ``steps`` are the steps since this
    seat's own last play (that play included, when there was one: see
    ``own_first``) or since the deck began, as :func:`show_step` shows them
    to this seat; ``first_step`` is the index of the first of them among the
    deck's steps (0: everything since the deal). ``tally`` is each team's
    count once the deck is over (see :meth:`Deck.tally`); ``match`` is
    :func:`match_info` or ``None``.
    """

    seat: int
    names: tuple
    turn: Optional[int]
    dealer: int
    hand: tuple
    hand_counts: tuple
    deck_count: int
    pile_count: int
    pile_top: Optional[Card]
    sent_under: tuple
    taken_counts: tuple
    pishti: tuple
    jack_pishti: tuple
    opening: Optional[tuple]
    legal: tuple
    steps: tuple
    first_step: int
    own_first: bool
    tally: Optional[list]
    match: Optional[dict]

    @property
    def team(self) -> int:
        """This seat's team."""
        return self.seat & 1

    @property
    def seats(self) -> int:
        """How many play: 4, or 2 (pagat's Pişti for two)."""
        return len(self.hand_counts)

    def status(self) -> str:
        """One sentence about whose turn it is, or the deck's end, in this seat's words."""
        if self.turn is None:
            match = self.match
            if match is not None and match["over"]:
                return match["result"] + "."
            tally = self.tally or []         # a deck over has its tally
            mine, theirs = tally[self.team]["points"], tally[1 - self.team]["points"]
            if self.seats == 2:
                return _("The deck is over: you {mine}, {name} {theirs}.").format(
                    mine=mine, name=named(seat_names(self.names)[1 - self.seat]), theirs=theirs)
            return _("The deck is over: your team {mine}, their team {theirs}.").format(mine=mine, theirs=theirs)
        if self.turn == self.seat:
            return _("Your turn: play a card.")
        return _("{name} to play.").format(name=seat_names(self.names)[self.turn])

    def places(self) -> list:
        """Each seat's place at the table in words, by seat number: ``{"name", "label",
        "turn_flag", "dealer_flag"}``. ``label`` is the place's accessible name ("Right
        holds 4 cards", "You hold 1 card"); ``turn_flag`` is "Your turn" (this seat's
        own), "To play" or "", ``dealer_flag`` "Dealer" or "": the page shows a flag
        exactly when its text is not empty."""
        seat, names, counts = self.seat, seat_names(self.names), self.hand_counts
        return [{"name": names[s],
                 "label": (ngettext("You hold {count} card", "You hold {count} cards", counts[s]) if s == seat else
                           ngettext("{name} holds {count} card", "{name} holds {count} cards", counts[s])
                           ).format(name=names[s], count=counts[s]),
                 "turn_flag": (_("Your turn") if s == seat else _("To play")) if self.turn == s else "",
                 "dealer_flag": _("Dealer") if self.dealer == s else ""}
                for s in range(len(counts))]

    def to_json(self) -> dict:
        """The view as plain JSON data, steps in this seat's words (``places``: see
        :meth:`places`); every sentence in it is made from its other data, so
        :func:`view_from_json` gets this view back from it."""
        return self._json(self.status())

    def _json(self, status: str) -> dict:
        seat, names, card = self.seat, seat_names(self.names), _card_json
        team = seat & 1
        seats = self.seats
        steps = self.steps[1:] if self.own_first else self.steps
        tally = self.tally
        return {
            "game": GAME_IDS[seats],
            "seat": seat,
            "seats": seats,
            "names": list(names),
            "team": team,
            "teams": [[0, 2], [1, 3]] if seats == 4 else [[0], [1]],
            "team_names": list(_team_names(team, names)),
            "turn": self.turn,
            "dealer": self.dealer,
            "hand": [{**card(c), "play_label": _("Play {card}").format(card=c.display())} for c in self.hand],
            "hand_counts": list(self.hand_counts),
            "places": self.places(),
            "deck_count": self.deck_count,
            "pile": {"count": self.pile_count, "top": card(self.pile_top)},
            "sent_under": [card(c) for c in self.sent_under],
            "taken": [{"count": self.taken_counts[t],
                       "pishti": [card(c) for c in self.pishti[t]],
                       "jack_pishti": [card(c) for c in self.jack_pishti[t]]} for t in (0, 1)],
            "opening": None if self.opening is None else [card(c) for c in self.opening],
            "legal": [str(c) for c in self.legal],
            "status": status,
            "goal": _(GOAL if seats == 4 else GOAL_TWO),
            "hint": {"key": _PLAY, "text": _((HINTS if seats == 4 else HINTS_TWO)[_PLAY]),
                     "touch": _((TOUCH_HINTS if seats == 4 else TOUCH_HINTS_TWO)[_PLAY])} if self.legal else None,
            "since_last_turn": [_describe(s, seat, names) for s in steps],
            "since_last_turn_steps": list(steps),
            "tally": tally,
            "deck_result": None if tally is None else _deck_result(tally, team, names, self.match),
            "match": self.match,
        }


#: The deck's count, a row of points each; the cards taken are said in the most-cards row.
_ROWS = ((N_("Aces"), "aces"), (N_("Jacks"), "jacks"), ("2♣", "two_clubs"), ("10♦", "ten_diamonds"),
         (N_("Most cards ({mine} to {theirs})"), "most_cards"), (N_("Pişti"), "pishti"),
         (N_("Jack pişti"), "jack_pishti"), (N_("Points"), "points"))


def _deck_result(tally: list, team: int, names: Sequence[str], match: Optional[dict] = None) -> dict:
    """The deck's count from ``team``'s side: its own column first, as the status line says it;
    ``total``, in a match (``match``: :func:`match_info`'s data), the match's score so far and
    its target, a row of its own (else ``None``)."""
    order = (team, 1 - team)
    cards = {"mine": tally[team]["cards"], "theirs": tally[1 - team]["cards"]}
    total = None if match is None else {
        "what": _("Total (target {target})").format(target=match["target"]),
        "values": [str(match["scores"][t]) for t in order]}
    return {"rows": [{"what": _(what).format(**cards) if what[0].isalpha() else what,
                      "values": [str(tally[t][key]) for t in order]}
                     for what, key in _ROWS],
            "teams": [_team_names(team, names)[t] for t in order],
            "total": total}


_new_view = tuple.__new__


def blank_view(seat: int, names: Optional[Sequence[str]], status: str, seats: int = 4) -> dict:
    """The view JSON of ``seat`` at a table of ``seats`` whose cards are not dealt yet: no
    cards, the seats' names, and ``status`` saying what the table waits for."""
    nobody = ((), ())
    return _new_view(PistiView, (
        seat, default_names(seat, seats) if names is None else tuple(names), None, None, (), (0,) * seats, 0, 0,
        None, (), (0, 0), nobody, nobody, None, (), (), 0, False, None, None)
    )._json(status)


def seat_view(deck: Deck, seat: int, match: Optional[dict] = None,
              names: Optional[Sequence[str]] = None) -> PistiView:
    """Make ``seat``'s view of ``deck``; ``match`` is :func:`match_info`'s data or ``None``,
    ``names`` the seats' names by seat number (``None``: "You", "Right", …)."""
    over = deck.over
    hands = deck.hands
    team = seat & 1
    mark = deck.marks[seat]
    first = 0 if mark is None else mark
    log = deck.log
    pile = deck.pile
    # Bots build a view at every turn: fields in order, through the C-level tuple constructor.
    return _new_view(PistiView, (
        seat,
        default_names(seat, deck.seats) if names is None else tuple(names),
        None if over else deck.turn,
        deck.dealer,
        tuple(hands[seat]),
        tuple([len(h) for h in hands]),
        len(deck.stock),
        len(pile),
        pile[-1] if pile else None,
        tuple(deck.sent_under),
        (len(deck.taken[0]), len(deck.taken[1])),
        (tuple(deck.pishti[0]), tuple(deck.pishti[1])),
        (tuple(deck.jack_pishti[0]), tuple(deck.jack_pishti[1])),
        deck.face_down if deck.opening_team == team else None,
        () if over or deck.turn != seat else tuple(hands[seat]),
        tuple([show_step(s, seat) for s in log[first:]]),
        first,
        mark is not None,
        deck.tally() if over else None,
        match,
    ))


def view_from_json(game, data: dict, names: Optional[Sequence[str]] = None) -> PistiView:
    """The view whose :meth:`PistiView.to_json` made ``data``, from its data alone (its cards
    by code, its steps as shown, its numbers), never from its words: how a guest's page
    words a view its host sent with its own Python (``names``: as for :func:`seat_view`).
    Raises ``KeyError``, ``TypeError``, ``ValueError`` or a :class:`~pishe.errors.PisheError`
    for data that is not such a view."""
    seat, turn, pile = data["seat"], data["turn"], data["pile"]
    if len(data["hand_counts"]) != game.seats or data["game"] != game.id:
        raise ValueError(f"the view is not one of {game.name}'s")
    names = default_names(seat, game.seats) if names is None else tuple(names)
    cards = lambda items: tuple(Card.parse(c["code"]) for c in items)      # noqa: E731
    taken = data["taken"]
    match = data["match"]
    if match is not None:
        over = bool(match["over"])
        # What match_info reads of a match, from the match's own data.
        match = match_info(SimpleNamespace(
            game=game, length=match["length"], target=game.lengths[match["length"]].target,
            deal_number=match["deal"], dealer=match["dealer"], scores=list(match["scores"]), over=over,
            winner=match["winner"], deal=SimpleNamespace(over=turn is None)), seat, names)
    opening = data["opening"]
    return PistiView(
        seat, names, turn, data["dealer"],
        cards(data["hand"]), tuple(data["hand_counts"]), data["deck_count"], pile["count"],
        None if pile["top"] is None else Card.parse(pile["top"]["code"]), cards(data["sent_under"]),
        (taken[0]["count"], taken[1]["count"]),
        (cards(taken[0]["pishti"]), cards(taken[1]["pishti"])),
        (cards(taken[0]["jack_pishti"]), cards(taken[1]["jack_pishti"])),
        None if opening is None else cards(opening), tuple(Card.parse(c) for c in data["legal"]),
        tuple(data["since_last_turn_steps"]), 0, False, data["tally"], match)


def match_info(match, seat: int, names: Optional[Sequence[str]] = None) -> dict:
    """The ``"match"`` part of a view from ``match`` (read only through the attributes the
    table's match offers: ``game``, ``deal``, ``deal_number``, ``dealer``, ``scores``,
    ``over``, ``winner``, ``length``, ``target``), the result in ``seat``'s words
    (``names``: the seats' names, as for :func:`seat_view`)."""
    scores = list(match.scores)
    over = bool(match.over)
    winner = match.winner
    result = None
    if over:
        high, low = max(scores), min(scores)
        if winner is None:
            result = _("The match is drawn at {high} to {low}").format(high=high, low=low)
        elif match.game.seats == 2 and winner == seat:
            result = _("You win the match {high} to {low}").format(high=high, low=low)
        elif match.game.seats == 2:
            name = seat_names(names or default_names(seat, 2))[winner]
            result = _("{name} wins the match {high} to {low}").format(name=name, high=high, low=low)
        elif winner == (seat & 1):
            result = _("Your team wins the match {high} to {low}").format(high=high, low=low)
        else:
            result = _("Their team wins the match {high} to {low}").format(high=high, low=low)
    return {
        "length": match.length,
        "length_name": match.game.word(match.game.lengths[match.length].name),
        "target": match.target,
        "deal": match.deal_number,
        "dealer": match.dealer,
        "scores": scores,
        "over": over,
        "winner": winner,
        "next_deal": bool(match.deal.over) and not over,
        "result": result,
    }


def show_step(step: Step, seat: Optional[int]) -> Optional[dict]:
    """How ``step`` reads to ``seat`` (``None``: a neutral onlooker who sees every card).

    A packet dealt to another seat shows only its count; the face-down opening
    cards show only in the first capture, and only to the capturing team;
    everything else is public. Every step is seen by every seat.
    """
    kind = step[0]
    shown: dict[str, Any]
    if kind == PLAY:
        return {"kind": kind, "seat": step.seat, "card": str(step.card), "pile": step.count}
    if kind == CAPTURE:
        shown = {"kind": kind, "seat": step.seat, "team": step.team, "card": str(step.card),
                 "count": step.count}
        if step.cards and (seat is None or (seat & 1) == step.team):
            shown["opening"] = [str(c) for c in step.cards]
        return shown
    if kind == PISHTI:
        return {"kind": kind, "seat": step.seat, "team": step.team, "card": str(step.card),
                "count": step.count, "points": step.points}
    if kind == PACKET:
        shown = {"kind": kind, "seat": step.seat, "count": step.count}
        if seat is None or seat == step.seat:
            shown["cards"] = [str(c) for c in step.cards]
        return shown
    if kind == OPENING:
        shown = {"kind": kind, "seat": step.seat, "card": str(step.card), "count": step.count}
        if seat is None:
            shown["face_down"] = [str(c) for c in step.cards]
        return shown
    if kind == UNDER:
        return {"kind": kind, "seat": step.seat, "card": str(step.card)}
    if kind == LEFTOVER:
        return {"kind": kind, "team": step.team, "count": step.count}
    if kind == COUNT:
        return {"kind": kind, "points": list(step.points)}  # type: ignore[call-overload]  # a count's points: a tuple
    raise AssertionError(kind)


def _label(code: str) -> str:
    return Card.parse(code).display()


def _labels(codes) -> str:
    return " ".join(_label(c) for c in codes)


def describe(shown: dict, seat: Optional[int], names: Optional[Sequence[str]] = None, seats: int = 4) -> str:
    """Plain words for ``shown`` (a step as :func:`show_step` showed it to ``seat``).

    From a seat's side: "You play the 7♥", "Right plays the J♣ and takes 6
    cards", "Partner plays the 9♦: pişti! 10 points". With ``seat`` ``None``,
    neutral words: "Seat 1: plays the 7♥". ``seats``: how many play, when ``names`` are not given.
    """
    return _describe(shown, seat, names, seats)


def _describe(shown: dict, seat: Optional[int], names: Optional[Sequence[str]] = None, seats: int = 4) -> str:
    kind = shown["kind"]
    two = (len(names) if names else seats) == 2
    if seat is None:
        # An onlooker's words: every seat and team by number.
        names = [_("Seat {seat}:").format(seat=s) for s in range(2 if two else 4)]
        teams, team = (_("Team 0"), _("Team 1")), 0
    else:
        names = seat_names(default_names(seat, 2 if two else 4) if names is None else names)
        team = seat & 1
        teams = _team_names(team, names)    # by team number: yours or theirs
    who = shown.get("seat")
    mine = who == seat
    name = names[who] if who is not None else ""

    def say(yours: str, theirs: str, **values) -> str:
        return (_(yours) if mine else _(theirs)).format(name=name, **values)

    if kind == PLAY:
        return say(N_("You play the {card}"), N_("{name} plays the {card}"), card=_label(shown["card"]))
    if kind == CAPTURE:
        count = shown["count"]
        text = (ngettext("You play the {card} and take {count} card", "You play the {card} and take {count} cards",
                         count) if mine else
                ngettext("{name} plays the {card} and takes {count} card",
                         "{name} plays the {card} and takes {count} cards", count)
                ).format(name=name, card=_label(shown["card"]), count=count)
        if "opening" in shown:
            text += _(", the face-down {cards} among them").format(cards=_labels(shown["opening"]))
        return text
    if kind == PISHTI:
        points, card = shown["points"], _label(shown["card"])
        if Card.parse(shown["card"]).rank == JACK:
            return say(N_("You play the {card}: jack pişti! {points} points"),
                       N_("{name} plays the {card}: jack pişti! {points} points"), card=card, points=points)
        return say(N_("You play the {card}: pişti! {points} points"),
                   N_("{name} plays the {card}: pişti! {points} points"), card=card, points=points)
    if kind == PACKET:
        count = shown["count"]
        if "cards" in shown:
            return (ngettext("You get {count} card: {cards}", "You get {count} cards: {cards}", count) if mine else
                    ngettext("{name} gets {count} card: {cards}", "{name} gets {count} cards: {cards}", count)
                    ).format(name=name, count=count, cards=_labels(shown["cards"]))
        return (ngettext("You get {count} card", "You get {count} cards", count) if mine else
                ngettext("{name} gets {count} card", "{name} gets {count} cards", count)).format(name=name, count=count)
    if kind == OPENING:
        down = f" ({_labels(shown['face_down'])})" if "face_down" in shown else ""
        count = shown["count"] - 1
        return (ngettext("You deal: {count} card face down{down} in the middle, the {card} face up on them",
                         "You deal: {count} cards face down{down} in the middle, the {card} face up on them",
                         count) if mine else
                ngettext("{name} deals: {count} card face down{down} in the middle, the {card} face up on them",
                         "{name} deals: {count} cards face down{down} in the middle, the {card} face up on them",
                         count)).format(name=name, count=count, down=down, card=_label(shown["card"]))
    if kind == UNDER:
        return _("The {card} is turned up and goes under the deck").format(card=_label(shown["card"]))
    if kind == LEFTOVER:
        count = shown["count"]
        if two and seat is not None and shown["team"] == team:
            return ngettext("You take the last {count} card", "You take the last {count} cards", count).format(
                count=count)
        return ngettext("{team} takes the last {count} card", "{team} takes the last {count} cards", count).format(
            team=teams[shown["team"]], count=count)
    if kind == COUNT:
        points = shown["points"]
        if two and seat is not None:
            return _("The deck is counted: you {mine_points} points, {name} {theirs_points}").format(
                mine_points=points[team], name=named(teams[1 - team]), theirs_points=points[1 - team])
        return _("The deck is counted: {mine} {mine_points} points, {theirs} {theirs_points}").format(
            mine=lower(teams[team]), mine_points=points[team], theirs=lower(teams[1 - team]),
            theirs_points=points[1 - team])
    raise AssertionError(kind)


def describe_timeout(shown: dict, seat: Optional[int], names: Optional[Sequence[str]] = None,
                     seats: int = 4) -> str:
    """Plain words for the card the computer played for a seat whose clock ran out: from
    that seat's side "Time ran out: the computer plays your K♣" (and what it took); from
    another's, the step's words with the table's note that the computer chose it."""
    kind = shown["kind"]
    if seat is None or shown.get("seat") != seat or kind not in (PLAY, CAPTURE, PISHTI):
        return _("{step} (time ran out: the computer's choice)").format(step=_describe(shown, seat, names, seats))
    card = shown["card"]
    label = _label(card)
    if kind == PLAY:
        return _("Time ran out: the computer plays your {card}").format(card=label)
    if kind == CAPTURE:
        return ngettext("Time ran out: the computer plays your {card} and takes {count} card",
                        "Time ran out: the computer plays your {card} and takes {count} cards",
                        shown["count"]).format(card=label, count=shown["count"])
    if Card.parse(card).rank == JACK:
        return _("Time ran out: the computer plays your {card}: jack pişti! {points} points").format(
            card=label, points=shown["points"])
    return _("Time ran out: the computer plays your {card}: pişti! {points} points").format(
        card=label, points=shown["points"])


def motion(shown: dict) -> list:
    """How a step (as :func:`show_step` showed it) moves cards, for the page (see
    :meth:`pishe.table.game.Game.motion`): places are "deck", "pile", "hand:<seat>" and
    "team:<team>"; a card face-down to this seat moves as ``None``."""
    kind = shown["kind"]

    def move(card, start, end, sound=None, sweep=False):
        return {"card": _card_json(Card.parse(card)) if card else None, "from": start, "to": end,
                "sweep": sweep, "sound": sound}

    if kind == PLAY:
        return [move(shown["card"], f"hand:{shown['seat']}", "pile", "lay")]
    if kind in (CAPTURE, PISHTI):
        return [move(shown["card"], f"hand:{shown['seat']}", "pile", "lay"),
                move(shown["card"], "pile", f"team:{shown['team']}", "capture" if kind == CAPTURE else "pishti", True)]
    if kind == PACKET:
        return [move(None, "deck", f"hand:{shown['seat']}")]
    if kind == OPENING:
        return [move(shown["card"], "deck", "pile", "lay")]
    if kind == LEFTOVER:
        return [move(None, "pile", f"team:{shown['team']}", None, True)]
    return []


def hidden_cards(deck: Deck, seat: int) -> set:
    """The cards ``seat`` may not see now: the other seats' hands, the undealt
    deck and the face-down opening cards unless its team took them; never the
    jacks sent under the deck (everyone saw them turned up)."""
    hidden = set(deck.stock)
    for s in range(deck.seats):
        if s != seat:
            hidden.update(deck.hands[s])
    if deck.opening_team != (seat & 1):
        hidden.update(deck.face_down)
    hidden.difference_update(deck.sent_under)
    return hidden
