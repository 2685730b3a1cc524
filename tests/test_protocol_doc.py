"""docs/PROTOCOL.md describes the wire as pishe.table.protocol.wire reads and writes it: one
way to deal, every message type with exactly its fields, every error code a guest can be
sent, and none of the removed deal's messages but where it says they are refused."""

from __future__ import annotations

import re
from pathlib import Path

from pishe.table.protocol import wire
from pishe.table.protocol.host import SeatLeftError

DOC = (Path(__file__).resolve().parent.parent / "docs" / "PROTOCOL.md").read_text()


def section(title: str) -> str:
    """The text under the heading ``title`` up to the next heading of its level or above."""
    heading = re.search(rf"^(#+) {re.escape(title)}$", DOC, re.M)
    assert heading, title
    level = len(heading.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.M).search(DOC, heading.end())
    return DOC[heading.end():end.start() if end else len(DOC)]


def table_rows(text: str) -> list[list[str]]:
    """The rows of the Markdown tables in ``text`` (header and rule left out), cell by cell."""
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("|")]
    return [r for r in rows if not set("".join(r)) <= set("-: ") and r[0] not in ("type", "code")]


def documented(title: str) -> dict[str, set]:
    """Message type -> the fields the table under ``title`` lists for it."""
    out = {}
    for row in table_rows(section(title)):
        kind = re.fullmatch(r"`([a-z-]+)`", row[0])
        assert kind, row
        out[kind.group(1)] = set(re.findall(r"`([a-z_]+)`", row[1])) - {"null"}
    return out


def test_every_message_type_is_documented_with_exactly_its_fields():
    for title, spec in (("Guest → host", wire.GUEST_MESSAGES), ("Host → guest", wire.HOST_MESSAGES)):
        assert documented(title) == {kind: set(fields) for kind, fields in spec.items()}, title


def test_every_error_code_a_guest_can_be_sent_is_documented():
    wire_errors = [getattr(wire, name) for name in wire.__all__ if name.endswith("Error")]
    sent = {wire.error_code(e("")) for e in wire_errors if issubclass(e, wire.ProtocolError)
            and e not in (wire.ProtocolError, wire.CorruptSaveError)}  # a save's error, never sent
    sent.add(wire.error_code(SeatLeftError("")))
    codes = {re.fullmatch(r"`([a-z-]+)`", row[0]).group(1) for row in table_rows(section("Error codes"))}
    assert codes == sent


def test_the_removed_deal_is_named_only_as_removed():
    """The doc describes one deal: the removed messages appear only where it says they are
    refused (the opening, the versions, the removed-deal code), never as messages to send."""
    assert f"version {wire.VERSION})" in DOC.splitlines()[0]
    for kind in wire.REMOVED_MESSAGES:
        if kind in ("act", "view"):     # also plain words (np-act, a seat's view)
            continue
        lines = [line for line in DOC.splitlines() if f"`{kind}`" in line]
        assert lines and all("removed" in line or "gone" in line or "commit-and-reveal" in line
                             for line in lines), (kind, lines)
    assert "nopeek=True" not in DOC and "derive_deck(" not in DOC
