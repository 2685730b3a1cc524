"""Every registered game's markup carries the hooks the tables' controllers look for
(web/tables/computer.js, loader.js, turns.js, friend/view.js), as docs/GAMES.md lists
them: a game whose table.html lacks one fails here, not in a player's browser."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from build import game_markup
from pishe.table.game import games

GAMES = games()


class Element:
    """One element of a parsed fragment: its tag, attributes, children and parent."""

    def __init__(self, tag: str, attrs: dict[str, str | None], parent: "Element | None"):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Element] = []

    def all(self, hook: str, value: str | None = None) -> list["Element"]:
        """The elements under this one (itself included) with the attribute ``hook`` (equal to ``value``)."""
        found = [self] if hook in self.attrs and (value is None or self.attrs[hook] == value) else []
        for child in self.children:
            found += child.all(hook, value)
        return found

    def one(self, hook: str, value: str | None = None) -> "Element | None":
        """The first element under this one with ``hook``, or None."""
        found = self.all(hook, value)
        return found[0] if found else None


class Fragment(HTMLParser):
    """A fragment of the page's markup as a tree of Elements."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self, markup: str):
        super().__init__()
        self.root = Element("#fragment", {}, None)
        self.here = self.root
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), self.here)
        self.here.children.append(element)
        if tag not in self.VOID:
            self.here = element

    def handle_startendtag(self, tag, attrs):
        self.here.children.append(Element(tag, dict(attrs), self.here))

    def handle_endtag(self, tag):
        node = self.here
        while node is not self.root and node.tag != tag:
            node = node.parent  # type: ignore[assignment]
        if node is not self.root:
            self.here = node.parent  # type: ignore[assignment]


def part(game, name: str) -> Element:
    """``game``'s markup for the page part ``name`` ("table", "match", …), parsed."""
    return Fragment(game_markup(f"<!-- games: {name} -->", [game])).root


def ids(game) -> str:
    return game.id


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_a_table_is_marked_as_its_game_s(game):
    """The table's root says which game it is, and shows only while that game is played."""
    roots = part(game, "table").all("data-pishe-table")
    assert len(roots) == 1
    root = roots[0]
    assert root.attrs.get("data-game") == game.id and root.attrs.get("data-for-game") == game.id


def rule_selectors(css: str) -> list[str]:
    """Every selector of ``css``'s style rules (in @media and @supports blocks too; not the
    steps of @keyframes), comments left out."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found, blocks, start = [], [], 0          # blocks: what each open brace holds, "rules" or not
    for i, char in enumerate(css):
        if char == "{":
            prelude = css[start:i].strip()
            holds_rules = prelude.startswith("@") and not prelude.startswith("@keyframes")
            if (not blocks or blocks[-1]) and not prelude.startswith("@"):
                found += [selector.strip() for selector in prelude.split(",")]
            blocks.append(holds_rules)
            start = i + 1
        elif char == "}" or (char == ";" and (not blocks or blocks[-1])):
            if char == "}":
                blocks.pop()
            start = i + 1
    return found


def scoped(selector: str, package: str) -> bool:
    """Whether ``selector`` reaches only its game's table: it names the table's root class
    ``.game-<package>``, or a class of the game's own prefix ``<package>-`` outside a
    ``:has()``/``:not()`` (those test other elements, they do not confine the match)."""
    own = re.sub(r":(?:has|not|is|where)\((?:[^()]|\([^()]*\))*\)", "", selector)
    return f".game-{package}" in selector or re.search(rf"\.{re.escape(package)}-", own) is not None


@pytest.mark.parametrize("package", sorted({game.package for game in GAMES}))
def test_a_game_s_style_sheet_reaches_its_own_table_alone(package):
    """Every game's style sheet is on the page at once (docs/GAMES.md): each of its selectors
    names the game's root class or its own prefix, and the table's root carries that class,
    so that no rule of one game reaches another's markup."""
    sheet = Path(__file__).resolve().parent.parent / "web" / "games" / package / f"{package}.css"
    selectors = rule_selectors(sheet.read_text(encoding="utf-8"))
    assert selectors and [s for s in selectors if not scoped(s, package)] == []
    for game in (g for g in GAMES if g.package == package):
        root = part(game, "table").one("data-pishe-table")
        assert root is not None and f"game-{package}" in (root.attrs.get("class") or "").split()


def test_the_scope_check_tells_a_scoped_selector_from_one_that_reaches_further():
    css = """/* a, b { } */ .pisti-seat, :where(.game-pisti) .team { color: red; }
    @media (max-width: 520px) { .status { margin: 0; } .hc :where(.game-pisti) .team { top: 0; } }
    @keyframes lift { from { top: 0; } to { top: 1px; } }
    .felt:has(.pisti-seat) { gap: 0; }"""
    selectors = rule_selectors(css)
    assert selectors == [".pisti-seat", ":where(.game-pisti) .team", ".status", ".hc :where(.game-pisti) .team",
                         ".felt:has(.pisti-seat)"]
    assert [scoped(s, "pisti") for s in selectors] == [True, True, False, True, False]


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_a_table_carries_the_lines_and_the_deal_end_box(game):
    """The status and error lines, and the deal-end box with Next deal and Play again (the
    computer's table, and the host at a friends' table, at a match's end), and a friend's
    waiting line with Leave the table."""
    table = part(game, "table")
    for hook in ("data-status", "data-error"):
        assert table.one(hook) is not None, hook
    result = table.one("data-result")
    assert result is not None
    assert result.one("data-next-deal") is not None and result.one("data-result-new-match") is not None
    # A friend's page at a friends' match end: the line that the host starts the next, and Leave.
    wait = result.one("data-result-wait")
    assert wait is not None and "hidden" in wait.attrs
    assert wait.one("data-result-wait-line") is not None and wait.one("data-result-leave") is not None


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_a_table_carries_the_loader(game):
    """Whichever table the page shows first (an invited friend's too) says how the start goes."""
    loader = part(game, "table").one("data-loader")
    assert loader is not None, "every game's table shows the loading line and bar (web/tables/loader.js)"
    for hook in ("data-loader-stage", "data-progress", "data-progress-bar", "data-loader-details"):
        assert loader.one(hook) is not None, hook
    assert loader.one("data-loader-details").one("data-loader-detail") is not None  # type: ignore[union-attr]
    assert loader.one("data-progress").attrs.get("role") == "progressbar"  # type: ignore[union-attr]


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_a_table_has_a_place_for_each_seat(game):
    """One [data-seat] area per seat at least (more for a game's variants), each with a
    place for the name its player chose (a friends' table shows it there)."""
    seats = part(game, "table").all("data-seat")
    assert len(seats) >= game.seats
    assert {int(s.attrs["data-seat"] or "") for s in seats} >= set(range(game.seats))
    for seat in seats:
        assert seat.one("data-chosen-name") is not None, seat.attrs


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_the_match_line_says_the_match_s_length(game):
    """The match line above the table, where a friends' table says the match's length."""
    line = part(game, "match").one("data-match-line", game.id)
    assert line is not None and line.attrs.get("data-for-game") == game.id
    assert line.one("data-match-length") is not None


def test_no_two_elements_of_the_page_s_games_share_an_id():
    """Every game's parts go into one page: an id is unique across them (write __GAME__ in it)."""
    seen: dict[str, str] = {}
    twice = []
    for game in GAMES:
        for name in ("match", "table", "settings", "note", "rules"):
            for element in part(game, name).all("id"):
                key = element.attrs["id"] or ""
                if key in seen:
                    twice.append(f"{key}: {seen[key]} and {game.id}")
                seen[key] = game.id
    assert twice == []


def test_a_piece_the_games_share_takes_its_values_and_wants_each(tmp_path):
    """A line __piece key=value …__ is the games' shared piece (web/games/piece.html) where the
    game's folder has none, its {{key}} the line's values, its own pieces given them too; a
    value it wants and is not given stops the build, naming it."""
    from sitebuild.common import BuildError, ROOT
    from sitebuild.markup import game_file_words

    seats = game_file_words(ROOT / "web" / "games" / "pisti" / "seats.html")
    root = Fragment(seats).root
    assert [s.attrs["data-place"] for s in root.all("data-seat")] == ["top", "left", "right"]
    assert len(root.all("data-flag-who")) == 3 and "\n__" not in seats and "{{" not in seats
    assert "Partner" in seats and 'class="pisti-seat"' in seats
    game = tmp_path / "game"
    game.mkdir()
    (game / "table.html").write_text("<div>\n  __seat place=top seat=1 name=Partner__\n</div>\n")
    with pytest.raises(BuildError, match="'class'"):
        game_file_words(game / "table.html")
