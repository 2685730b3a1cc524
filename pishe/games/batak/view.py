"""What one seat sees of a deal of Batak, and the words for it.

:func:`seat_view` is the one function that makes a seat's view (SPEC-BATAK.md, "What each
seat sees"); :func:`show_step` says how a step reads to a seat (JSON data naming only what it
may see) and :func:`describe` words such data from that seat's side. Bots, the page and the
protocol only ever get these.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, NamedTuple, Optional, Sequence

from ...cards import Card
from ...lang import named
from .deal import AUCTION, BID, CARD, DEALT, OPEN, PASS, PASSED, SCORE, TRICK, TRUMP, TRUMPS, WON, Deal, Step
from .words import N_, _, ngettext

__all__ = ["BatakView", "seat_view", "view_from_json", "match_info", "blank_view", "show_step", "describe",
           "describe_timeout", "motion", "hidden_cards", "default_names", "seat_names", "GAME_IDS", "SUIT_WORDS"]

#: The game's id, by whether partners play (Eşli Batak).
GAME_IDS = {False: "batak", True: "batak-esli"}
#: Seat names from a seat's own side, by (other seat - own seat) % 4: every seat for itself
#: names the opposite seat "Across", Eşli Batak "Partner".
SEAT_WORDS = {False: (N_("You"), N_("Right"), N_("Across"), N_("Left")),
              True: (N_("You"), N_("Right"), N_("Partner"), N_("Left"))}
_TEAM_WORDS = (N_("Your team"), N_("Their team"))
#: Suits as players name them ("hearts"), by suit letter.
SUIT_WORDS = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")}
_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
#: The hand as the page shows it: suits alternating in colour, each high to low.
_HAND_SUITS = {"S": 0, "H": 1, "C": 2, "D": 3}
GOAL = {False: N_("Bid for the tricks you can take: the auction's winner names trumps and must take at least its "
                  "bid, or it scores minus the bid. Every other seat scores a point a trick."),
        True: N_("Bid for the tricks your team can take: the auction's winner names trumps and its team must take "
                 "at least the bid, or it scores minus the bid. The other team scores a point a trick.")}

_DEFAULT_NAMES = {partners: tuple(tuple(SEAT_WORDS[partners][(s - seat) & 3] for s in range(4)) for seat in range(4))
                  for partners in (False, True)}
_ALL_DEFAULTS = set(_DEFAULT_NAMES[False]) | set(_DEFAULT_NAMES[True])


def default_names(seat: int, partners: bool = False) -> tuple:
    """The seats' names by seat from ``seat``'s side, in English: "You", "Right", "Across"
    (Eşli Batak: "Partner"), "Left"; :func:`seat_names` says them in the page's language."""
    return _DEFAULT_NAMES[bool(partners)][seat]


def seat_names(names: Sequence[str]) -> tuple:
    """``names`` in the page's language when they are a seat's default ones; a table's own as given."""
    return tuple(_(n) for n in names) if tuple(names) in _ALL_DEFAULTS else tuple(names)


def _suit(suit: str) -> str:
    return f"{_(SUIT_WORDS[suit])} {_SYMBOLS[suit]}"


def _label(code: str) -> str:
    return Card.parse(code).display()


def _card_json(card: Card) -> dict:
    return card.to_json()


class BatakView(NamedTuple):
    """What ``seat`` sees of a deal (and of its match, when there is one), as SPEC-BATAK.md lists it.

    Cards are :class:`~pishe.cards.Card` values; lists are by seat unless named by team.
    ``auction`` is every bid and pass in order, ``(seat, bid)`` with ``bid`` ``None`` for a
    pass, the first the opener's announced minimum. ``trick`` and ``last_trick`` are
    ``(seat, card)`` in the order played. ``turn`` is ``None`` once the deal is over;
    ``legal`` is empty unless it is this seat's turn. ``steps`` are the steps since this
    seat's last action (that one included, when there was one: ``own_first``), as
    :func:`show_step` shows them to this seat, ``first_step`` the index of the first among the
    deal's steps. ``points`` is the deal's points by team once it is over; ``match`` is
    :func:`match_info` or ``None``.
    """

    partners: bool
    seat: int
    names: tuple
    turn: Optional[int]
    dealer: int
    phase: str
    hand: tuple
    hand_counts: tuple
    auction: tuple
    declarer: Optional[int]
    contract: Optional[int]
    trump: Optional[str]
    trick: tuple
    last_trick: tuple
    last_winner: Optional[int]
    tricks: tuple
    broken: bool
    legal: tuple
    steps: tuple
    first_step: int
    own_first: bool
    points: Optional[tuple]
    match: Optional[dict]

    @property
    def game_id(self) -> str:
        """The game's id: ``"batak"`` or ``"batak-esli"``."""
        return GAME_IDS[self.partners]

    def team(self, seat: int) -> int:
        """``seat``'s team: itself, or its partnership in Eşli Batak."""
        return seat & 1 if self.partners else seat

    @property
    def teams(self) -> list:
        """Seats by team."""
        return [[0, 2], [1, 3]] if self.partners else [[0], [1], [2], [3]]

    @property
    def highest(self) -> int:
        """The highest bid of the auction so far."""
        return max(b for _, b in self.auction if b is not None) if self.auction else 0

    def team_tricks(self) -> list:
        """Each team's tricks so far, by team."""
        t = self.tricks
        return [t[0] + t[2], t[1] + t[3]] if self.partners else list(t)

    def team_names(self) -> list:
        """Each team's name by team from this seat's side: the seats' names, or in Eşli Batak
        "Your team" and "Their team"."""
        if not self.partners:
            return list(seat_names(self.names))
        mine = self.seat & 1
        return [_(_TEAM_WORDS[0 if t == mine else 1]) for t in (0, 1)]

    def status(self) -> str:
        """One sentence about whose move it is, or the deal's end, in this seat's words."""
        names = seat_names(self.names)
        if self.turn is None:
            match = self.match
            if match is not None and match["over"]:
                return match["result"] + "."
            return _("The deal is over.")
        if self.phase == AUCTION:
            if self.turn == self.seat:
                return _("Your turn: bid more than {highest}, or pass.").format(highest=self.highest)
            return _("{name} to bid.").format(name=names[self.turn])
        if self.phase == TRUMP:
            if self.turn == self.seat:
                return _("You won the auction: name trumps.")
            return _("{name} names trumps.").format(name=names[self.turn])
        if self.turn == self.seat:
            return _("Your turn: play a card.")
        return _("{name} to play.").format(name=names[self.turn])

    def places(self) -> list:
        """Each seat's place in words, by seat: ``{"name", "label", "tricks", "turn_flag",
        "dealer_flag", "declarer_flag"}``; the page shows a flag exactly when its text is not empty."""
        seat, names, counts = self.seat, seat_names(self.names), self.hand_counts
        return [{"name": names[s],
                 "label": (ngettext("You hold {count} card", "You hold {count} cards", counts[s]) if s == seat else
                           ngettext("{name} holds {count} card", "{name} holds {count} cards", counts[s])
                           ).format(name=names[s], count=counts[s]),
                 "tricks": ngettext("{count} trick", "{count} tricks", self.tricks[s]).format(count=self.tricks[s]),
                 "turn_flag": (_("Your turn") if s == seat else _("To play")) if self.turn == s else "",
                 "dealer_flag": _("Dealer") if self.dealer == s else "",
                 "declarer_flag": _("Declarer") if self.declarer == s else ""}
                for s in range(4)]

    def to_json(self) -> dict:
        """The view as plain JSON data, every sentence in this seat's words; every sentence is made
        from its other data, so :func:`view_from_json` gets this view back from it."""
        return self._json(self.status())

    def _auction_json(self, names: Sequence[str]) -> dict:
        lines = []
        for s in range(4):
            said = [str(b) if b is not None else _("pass") for who, b in self.auction if who == s]
            lines.append({"seat": s, "name": names[s], "bids": said,
                          "text": _("{name}: {bids}").format(name=names[s], bids=", ".join(said) if said else "–")})
        return {"entries": [{"seat": s, "bid": b} for s, b in self.auction],
                "opener": self.auction[0][0] if self.auction else None,
                "minimum": self.auction[0][1] if self.auction else None,
                "highest": self.highest, "lines": lines}

    def _contract_json(self, names: Sequence[str]) -> Optional[dict]:
        if self.declarer is None:
            return None
        return {"declarer": self.declarer, "contract": self.contract, "trump": self.trump,
                "trump_name": None if self.trump is None else _suit(self.trump),
                "text": (_("Contract: {name}, {contract} tricks, trumps {suit}") if self.trump is not None else
                         _("Contract: {name}, {contract} tricks, trumps not named yet")).format(
                             name=names[self.declarer], contract=self.contract,
                             suit="" if self.trump is None else _suit(self.trump))}

    def actions(self) -> list:
        """The auction's and the trump choice's legal actions as buttons: ``{"action", "label"}``."""
        buttons = []
        for action in self.legal:
            if action == PASS:
                buttons.append({"action": action, "label": _("Pass")})
            elif isinstance(action, str) and action.startswith("bid "):
                buttons.append({"action": action, "label": action[4:]})
            elif isinstance(action, str):
                suit = action[-1]
                buttons.append({"action": action, "label": _suit(suit)})
        return buttons

    def _json(self, status: str) -> dict:
        seat, names = self.seat, seat_names(self.names)
        steps = self.steps[1:] if self.own_first else self.steps
        legal = {str(a) for a in self.legal}
        hand = sorted(self.hand, key=lambda c: (_HAND_SUITS[c.suit], -(14 if c.rank == 1 else c.rank)))
        return {
            "game": self.game_id,
            "seat": seat,
            "seats": 4,
            "partners": self.partners,
            "names": list(names),
            "team": self.team(seat),
            "teams": self.teams,
            "team_names": self.team_names(),
            "turn": self.turn,
            "dealer": self.dealer,
            "phase": self.phase,
            "hand": [{**_card_json(c), "playable": str(c) in legal,
                      "play_label": _("Play {card}").format(card=c.display())} for c in hand],
            "hand_counts": list(self.hand_counts),
            "places": self.places(),
            "auction": self._auction_json(names),
            "contract": self._contract_json(names),
            "trick": [{"seat": s, "card": _card_json(c)} for s, c in self.trick],
            "last_trick": None if not self.last_trick else {
                "seat": self.last_winner, "cards": [{"seat": s, "card": _card_json(c)} for s, c in self.last_trick]},
            "tricks": list(self.tricks),
            "team_tricks": self.team_tricks(),
            "trumps_broken": self.broken,
            "legal": [str(a) for a in self.legal],
            "actions": self.actions(),
            "status": status,
            "goal": _(GOAL[self.partners]),
            "since_last_turn": [_describe(s, seat, names, self.partners) for s in steps],
            "since_last_turn_steps": list(steps),
            "points": None if self.points is None else list(self.points),
            "deal_result": None if self.points is None else self._deal_result(names),
            "match": self.match,
        }

    def _deal_result(self, names: Sequence[str]) -> dict:
        """The deal-end table: contract, declarer and trumps, then a column a team: tricks, the
        deal's points, each deal's points so far and the total."""
        points = list(self.points or ())
        match = self.match
        results = [list(r) for r in match["results"]] if match is not None else [points]
        rows = [{"what": _("Tricks"), "values": [str(t) for t in self.team_tricks()]},
                {"what": _("Points this deal"), "values": [str(p) for p in points]}]
        deal_word = match["deal_word"] if match is not None else _("Deal")
        history = [{"what": _("{deal} {number}").format(deal=deal_word, number=n + 1),
                    "values": [str(p) for p in r]} for n, r in enumerate(results)]
        total = [str(sum(r[t] for r in results)) for t in range(len(points))]
        declarer = self.declarer
        assert declarer is not None and self.trump is not None
        return {"contract": self.contract, "declarer": names[declarer], "trump": _suit(self.trump),
                "heading": _("Contract: {name}, {contract} tricks, trumps {suit}").format(
                    name=names[declarer], contract=self.contract, suit=_suit(self.trump)),
                "teams": self.team_names(), "rows": rows, "history": history,
                "total": {"what": _("Total"), "values": total}}


_new_view = tuple.__new__


def blank_view(seat: int, names: Optional[Sequence[str]], status: str, partners: bool = False) -> dict:
    """The view JSON of ``seat`` at a table whose cards are not dealt yet: no cards, the seats'
    names, and ``status`` saying what the table waits for."""
    return _new_view(BatakView, (
        partners, seat, default_names(seat, partners) if names is None else tuple(names), None, 3, AUCTION, (),
        (0,) * 4, (), None, None, None, (), (), None, (0,) * 4, False, (), (), 0, False, None, None))._json(status)


def seat_view(deal: Deal, seat: int, match: Optional[dict] = None, names: Optional[Sequence[str]] = None) -> BatakView:
    """Make ``seat``'s view of ``deal``; ``match`` is :func:`match_info`'s data or ``None``,
    ``names`` the seats' names by seat (``None``: "You", "Right", …)."""
    over = deal.over
    mark = deal.marks[seat]
    first = 0 if mark is None else mark
    return _new_view(BatakView, (
        deal.partners, seat, default_names(seat, deal.partners) if names is None else tuple(names),
        None if over else deal.turn, deal.dealer, deal.phase, tuple(deal.hands[seat]),
        tuple(len(h) for h in deal.hands), tuple(deal.auction), deal.declarer, deal.contract, deal.trump,
        tuple(deal.trick), deal.last_trick, deal.last_winner, tuple(deal.tricks), deal.broken,
        () if over or deal.turn != seat else deal.legal_actions(),
        tuple(show_step(s, seat) for s in deal.log[first:]), first, mark is not None,
        tuple(deal.team_points()) if over else None, match))


def _parse_action(text: str):
    return text if text == PASS or text.startswith(("bid ", "trump ")) else Card.parse(text)


def view_from_json(game, data: dict, names: Optional[Sequence[str]] = None) -> BatakView:
    """The view whose :meth:`BatakView.to_json` made ``data``, from its data alone (cards by code,
    steps as shown, numbers), never from its words: how a guest's page words a view its host sent
    (``names``: as for :func:`seat_view`). Raises ``KeyError``, ``TypeError``, ``ValueError`` or a
    :class:`~pishe.errors.PisheError` for data that is not such a view."""
    partners = bool(data["partners"])
    if data["game"] != game.id or GAME_IDS[partners] != game.id or len(data["hand_counts"]) != 4:
        raise ValueError(f"the view is not one of {game.name}'s")
    seat, turn = data["seat"], data["turn"]
    if seat not in range(4):
        raise ValueError("no such seat")
    names = default_names(seat, partners) if names is None else tuple(names)
    contract = data["contract"]
    last = data["last_trick"]
    match = data["match"]
    if match is not None:
        match = match_info(SimpleNamespace(
            game=game, length=match["length"], deal_number=match["deal"], dealer=match["dealer"],
            results=[list(r) for r in match["results"]], over=bool(match["over"]),
            deal=SimpleNamespace(over=turn is None)), seat, names)
    legal = tuple(_parse_action(a) for a in data["legal"])
    return BatakView(
        partners, seat, names, turn, data["dealer"], data["phase"],
        tuple(Card.parse(c["code"]) for c in data["hand"]), tuple(data["hand_counts"]),
        tuple((e["seat"], e["bid"]) for e in data["auction"]["entries"]),
        None if contract is None else contract["declarer"], None if contract is None else contract["contract"],
        None if contract is None else contract["trump"],
        tuple((t["seat"], Card.parse(t["card"]["code"])) for t in data["trick"]),
        () if last is None else tuple((t["seat"], Card.parse(t["card"]["code"])) for t in last["cards"]),
        None if last is None else last["seat"], tuple(data["tricks"]), bool(data["trumps_broken"]), legal,
        tuple(data["since_last_turn_steps"]), 0, False,
        None if data["points"] is None else tuple(data["points"]), match)


def match_info(match, seat: int, names: Optional[Sequence[str]] = None) -> dict:
    """The ``"match"`` part of a view from ``match`` (read through ``game``, ``deal``,
    ``deal_number``, ``dealer``, ``results``, ``over``, ``length``), in ``seat``'s words: each
    deal's points so far and, once over, who won, or the seats (teams) level at the top who
    draw it, named."""
    game = match.game
    partners = bool(game.params.get("partners"))
    results = [list(r) for r in match.results]
    scores = [sum(r[t] for r in results) for t in range(len(game.teams))]
    over = bool(match.over)
    names = seat_names(names or default_names(seat, partners))
    result = None
    best = max(scores)
    top = [t for t, s in enumerate(scores) if s == best]
    if over:
        mine = seat & 1 if partners else seat
        if partners:
            teams = [_(_TEAM_WORDS[0 if t == mine else 1]) for t in (0, 1)]
        else:
            teams = list(names)
        if len(top) > 1:
            result = _("The match is drawn at {score} between {names}").format(
                score=best, names=_(", ").join(named(teams[t]) if i else teams[t] for i, t in enumerate(top)))
        elif top[0] == mine and not partners:
            result = _("You win the match with {score}").format(score=best)
        elif top[0] == mine:
            result = _("Your team wins the match with {score}").format(score=best)
        elif partners:
            result = _("Their team wins the match with {score}").format(score=best)
        else:
            result = _("{name} wins the match with {score}").format(name=teams[top[0]], score=best)
    return {
        "length": match.length,
        "length_name": game.word(game.lengths[match.length].name),
        "deal": match.deal_number,
        "deal_word": game.deal_word(),
        "dealer": match.dealer,
        "scores": scores,
        "results": results,
        "over": over,
        "winner": top[0] if over and len(top) == 1 else None,
        "drawn": top if over and len(top) > 1 else [],
        "next_deal": bool(match.deal.over) and not over,
        "result": result,
    }


def show_step(step: Step, seat: Optional[int]) -> dict:
    """How ``step`` reads to ``seat`` (``None``: an onlooker who sees every card). Every step is
    seen by every seat; a hand dealt shows its cards only to its own seat."""
    kind = step.kind
    if kind == CARD:
        return {"kind": kind, "seat": step.seat, "card": str(step.card)}
    if kind == TRICK:
        return {"kind": kind, "seat": step.seat, "cards": [str(c) for c in step.cards], "count": step.count,
                "card": str(step.card)}
    if kind in (BID, OPEN, WON):
        return {"kind": kind, "seat": step.seat, "bid": step.bid}
    if kind == PASSED:
        return {"kind": kind, "seat": step.seat}
    if kind == TRUMPS:
        return {"kind": kind, "seat": step.seat, "suit": step.suit}
    if kind == DEALT:
        shown: dict[str, Any] = {"kind": kind, "seat": step.seat, "count": step.count}
        if seat is None or seat == step.seat:
            shown["cards"] = [str(c) for c in step.cards]
        return shown
    if kind == SCORE:
        return {"kind": kind, "seat": step.seat, "contract": step.bid, "made": step.count,
                "points": list(step.points)}
    raise AssertionError(kind)


def describe(shown: dict, seat: Optional[int], names: Optional[Sequence[str]] = None, partners: bool = False) -> str:
    """Plain words for ``shown`` (a step as :func:`show_step` showed it to ``seat``), from that
    seat's side: "Right bids 6", "You take the trick with the K♠", "Left goes down: 5 tricks of
    7". With ``seat`` ``None``, an onlooker's words: "Seat 1 bids 6"."""
    return _describe(shown, seat, names, partners)


def _describe(shown: dict, seat: Optional[int], names: Optional[Sequence[str]], partners: bool) -> str:
    kind = shown["kind"]
    if seat is None:
        names = [_("Seat {seat}").format(seat=s) for s in range(4)]
    else:
        names = seat_names(default_names(seat, partners) if names is None else names)
    who = shown.get("seat")
    mine = who is not None and who == seat
    name = names[who] if who is not None else ""

    def say(yours: str, theirs: str, **values) -> str:
        return (_(yours) if mine else _(theirs)).format(name=name, **values)

    if kind == DEALT:
        count = shown["count"]
        if "cards" in shown:
            labels = " ".join(_label(c) for c in shown["cards"])
            return (ngettext("You get {count} card: {cards}", "You get {count} cards: {cards}", count) if mine else
                    ngettext("{name} gets {count} card: {cards}", "{name} gets {count} cards: {cards}", count)
                    ).format(name=name, count=count, cards=labels)
        return ngettext("{name} gets {count} card", "{name} gets {count} cards", count).format(name=name, count=count)
    if kind == OPEN:
        return say(N_("You open the auction at {bid}"), N_("{name} opens the auction at {bid}"), bid=shown["bid"])
    if kind == BID:
        return say(N_("You bid {bid}"), N_("{name} bids {bid}"), bid=shown["bid"])
    if kind == PASSED:
        return say(N_("You pass"), N_("{name} passes"))
    if kind == WON:
        return say(N_("You win the auction at {bid}"), N_("{name} wins the auction at {bid}"), bid=shown["bid"])
    if kind == TRUMPS:
        return say(N_("You name trumps: {suit}"), N_("{name} names trumps: {suit}"), suit=_suit(shown["suit"]))
    if kind == CARD:
        return say(N_("You play the {card}"), N_("{name} plays the {card}"), card=_label(shown["card"]))
    if kind == TRICK:
        return say(N_("You take the trick with the {card}"), N_("{name} takes the trick with the {card}"),
                   card=_label(shown["card"]))
    if kind == SCORE:
        made, contract = shown["made"], shown["contract"]
        if partners and seat is not None:
            side = _("Your team") if (shown["seat"] & 1) == (seat & 1) else _("Their team")
            return (ngettext("{side} makes the contract: {made} trick of {contract}",
                             "{side} makes the contract: {made} tricks of {contract}", made) if made >= contract else
                    ngettext("{side} goes down: {made} trick of {contract}",
                             "{side} goes down: {made} tricks of {contract}", made)
                    ).format(side=side, made=made, contract=contract)
        if made >= contract:
            return (ngettext("You make the contract: {made} trick of {contract}",
                             "You make the contract: {made} tricks of {contract}", made) if mine else
                    ngettext("{name} makes the contract: {made} trick of {contract}",
                             "{name} makes the contract: {made} tricks of {contract}", made)
                    ).format(name=name, made=made, contract=contract)
        return (ngettext("You go down: {made} trick of {contract}", "You go down: {made} tricks of {contract}",
                         made) if mine else
                ngettext("{name} goes down: {made} trick of {contract}",
                         "{name} goes down: {made} tricks of {contract}", made)
                ).format(name=name, made=made, contract=contract)
    raise AssertionError(kind)


def describe_timeout(shown: dict, seat: Optional[int], names: Optional[Sequence[str]] = None,
                     partners: bool = False) -> str:
    """Plain words for what the computer did for a seat whose clock ran out: from that seat's
    side "Time ran out: the computer passes for you" or "… plays your 2♣"; from another's, the
    step's words with the note that the computer chose it."""
    kind = shown["kind"]
    if seat is not None and shown.get("seat") == seat:
        if kind == PASSED:
            return _("Time ran out: the computer passes for you")
        if kind == CARD:
            return _("Time ran out: the computer plays your {card}").format(card=_label(shown["card"]))
        if kind == TRUMPS:
            return _("Time ran out: the computer names trumps for you: {suit}").format(suit=_suit(shown["suit"]))
    return _("{step} (time ran out: the computer's choice)").format(step=_describe(shown, seat, names, partners))


def motion(shown: dict) -> list:
    """How a step moves cards, for the page (see :meth:`pishe.table.game.Game.motion`): places are
    ``"hand:<seat>"``, ``"trick"`` and ``"tricks:<seat>"`` (the pile of the tricks a seat took)."""
    kind = shown["kind"]
    if kind == CARD:
        return [{"card": _card_json(Card.parse(shown["card"])), "from": f"hand:{shown['seat']}", "to": "trick",
                 "sweep": False, "sound": "lay"}]
    if kind == TRICK:
        return [{"card": _card_json(Card.parse(shown["card"])), "from": "trick", "to": f"tricks:{shown['seat']}",
                 "sweep": True, "sound": "capture"}]
    return []


def hidden_cards(deal: Deal, seat: int) -> set:
    """The cards ``seat`` may not see now: every other seat's hand (a partner's too)."""
    hidden: set = set()
    for s in range(4):
        if s != seat:
            hidden.update(deal.hands[s])
    return hidden

