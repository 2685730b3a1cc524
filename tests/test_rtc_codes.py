"""The connection codes of web/core/rtc.js, in the browser: an offer's mDNS host
names ("<uuid>.local") are written short, so that an invite link stays under 200
characters, and every candidate comes back as it was."""

from __future__ import annotations

from playwright.sync_api import Page

SDP = "\r\n".join([
    "v=0", "a=ice-ufrag:abcd", "a=ice-pwd:abcdefghijklmnopqrstuvwx",
    "a=fingerprint:sha-256 " + ":".join(["AB"] * 32),
    "a=candidate:1 1 udp 2122260223 3f2b1c4d-1234-4abc-9def-0123456789ab.local 54321 typ host generation 0",
    "a=candidate:2 1 udp 2122260223 9d0e8f7a-aaaa-4bbb-8ccc-ffffffffffff.local 54322 typ host generation 0",
    "a=candidate:3 1 udp 1686052607 203.0.113.7 5000 typ srflx generation 0",
]) + "\r\n"

ROUND_TRIP = """async (sdp) => {
  const rtc = await import("./web/core/rtc.js");
  const code = rtc.encodeDescription(sdp);
  const back = rtc.decodeDescription(code, "offer").split("\\r\\n").filter((l) => l.startsWith("a=candidate"));
  return { code, back };
}"""


def test_mdns_names_are_short_and_come_back(page: Page, site):
    page.goto(site.url + "ice-servers.json")  # any page of the site: the module is imported from it
    result = page.evaluate(ROUND_TRIP, SDP)
    code, back = result["code"], result["back"]
    assert ".local" not in code and code.count("@") == 2, code
    addresses = [line.split(" ")[4:6] for line in back]
    assert addresses == [["3f2b1c4d-1234-4abc-9def-0123456789ab.local", "54321"],
                         ["9d0e8f7a-aaaa-4bbb-8ccc-ffffffffffff.local", "54322"],
                         ["203.0.113.7", "5000"]]
    # A link with two such host candidates and its game, on a realistic address, stays
    # under 200 characters (a STUN server's candidate adds about 20; no key: the link key
    # is made from the offer code).
    two_hosts = code.rsplit("~", 1)[0]
    link = "https://pishe-pasha.example.org/#join=" + two_hosts + "&game=pishe-pasha"
    assert len(link) <= 200, len(link)
