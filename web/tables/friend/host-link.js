// The host's links: one data channel for each seat kept for a friend, its invite (the
// link, its QR code, a reply code pasted), the friend's answer taken through the relays,
// a friend's page that comes back knocking, and a lost friend's hold. The channels are
// read and written in the worker (web/core/channel.js): a friend's message goes to
// host_receive there, and its answer comes here to be painted (./host.js).

import { computerTable } from "../computer.js";
import { say } from "../words.js";
import { inviteLink, knockOn, newLink, relay } from "./signaling.js";
import {
  STATUS, clearInvite, clearSeatInvites, hideInvite, sayFailed, seatInvite, setSeatState, setStatus, showInvite,
  showQr, showRelays, ui,
} from "./panel.js";
import { watchRoute } from "./route.js";
import { backoff, retry } from "./retry.js";
import {
  call, forgetSeats, keepSeat, keptSeats, mark, queue, session,
} from "./core.js";
import { focusTable, show } from "./view.js";
import { hostAnswer, hostCall, showSeats } from "./host.js";
import { connectWait, fallBackIfNoPath, holdWait } from "./timers.js";

/**
 * Host: the invites of the table Python opened (`answer`: one per seat kept for a friend),
 * in the order the seat switches list them, so that the panel and the switches agree.
 */
export function makeSeats(answer) {
  clearSeatInvites();
  forgetSeats();
  const game = session.game;
  const switches = [...document.querySelectorAll(`[data-settings="${CSS.escape(game)}"] input[data-setting="friend"]`)]
    .map((input) => Number(input.value));
  const place = (seat) => (switches.includes(seat) ? switches.indexOf(seat) : switches.length + seat);
  const seats = (answer.status && Array.isArray(answer.status.seats) ? answer.status.seats : [])
    .filter((s) => s.role === "guest").sort((a, b) => place(a.seat) - place(b.seat));
  const sides = answer.status && Array.isArray(answer.status.sides) ? answer.status.sides : [];
  const view = answer.view;
  return queue(async () => {
    // The seats' names as this side's view gives them (a blank view before the first deal).
    const names = view ? view.names : (await call("blank_view", game, "host")).view.names;
    for (const s of seats) {
      const number = s.seat;
      const name = Array.isArray(names) ? names[number] : "";
      const seat = {
        number, name, link: null, connected: false, everOpened: false, accepted: false, noPath: false,
        listener: null, posting: null, stopFallback: null, stopRoute: null, knocks: null, key: null, offer: null,
        hold: holdWait(), connect: connectWait(),
        invite: seatInvite(number, name, seats.length > 1, sides[number] || ""),
      };
      wireSeat(seat);
      keepSeat(seat);
    }
  });
}

/** Host: the seats' invites after a reload: their links are gone, each friend is invited again. */
export function markSeatsLost() {
  for (const seat of keptSeats()) {
    seat.everOpened = true;
    seat.invite.hostInvite.hidden = true;
    seat.invite.inviteAgain.hidden = false;
  }
}

/** Host: a seat invite's buttons. */
function wireSeat(seat) {
  const card = seat.invite;
  card.inviteAgain.addEventListener("click", () => {
    if (session.role === "host") inviteAgain(seat);
  });
  const connect = () => accept(seat, card.replyInput.value.replace(/\s+/g, ""));
  card.connect.addEventListener("click", connect);
  card.replyInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      connect();
    }
  });
}

/** Host: a new offer for `seat` (its first invite, or again after a drop). */
export async function inviteAgain(seat) {
  const card = seat.invite;
  seat.everOpened = false; // a new link: its friend is awaited, not lost
  setStatus(STATUS.preparing, "waiting");
  clearInvite(card);
  let link, code;
  try {
    link = await openSeatLink(seat);
    code = await link.offer();
  } catch (err) {
    sayFailed(STATUS.inviteFailed, err);
    card.inviteAgain.hidden = false;
    return;
  }
  if (link !== seat.link) return;
  link.via = { key: null, offer: code }; // what both pages know the link by (with a key: it can go through the relays)
  try {
    const relays = await relay();
    const key = await relays.linkKey(code);
    seat.key = key;
    seat.offer = code;
    link.via.key = key;
    seat.listener = relays.listenForAnswer({
      key,
      offer: code,
      // (Not an answer that comes again once one was taken: its page posts it until connected.)
      onAnswer: (answer) => link === seat.link && !seat.accepted && accept(seat, answer, true),
      onIgnored: (why) => link === seat.link && say(card.connectError, why),
      onState: () => {},
      onRelays: ({ failed }) => link === seat.link && showRelays(failed),
    });
  } catch (err) {
    console.warn("no relays: the friend sends a reply code", err);
  }
  const url = inviteLink(code, session.game);
  showInvite(card, url);
  if (keptSeats().length > 0) hostCall("host_current");
  try {
    const qr = await call("qr_matrix", url);
    if (link === seat.link && qr && Array.isArray(qr.rows)) showQr(card, qr.rows);
  } catch (err) {
    console.warn("no QR code:", err);
  }
}

/** Host: a reply code for `seat` (pasted, or through a relay); the channel opens shortly after. */
async function accept(seat, code, relayed = false) {
  const card = seat.invite;
  if (!seat.link || (!relayed && card.connect.getAttribute("aria-disabled") === "true")) return;
  if (!code) {
    say(card.connectError, "paste_reply");
    card.replyInput.focus();
    return;
  }
  say(card.connectError, null);
  mark("pishe:connect");
  card.connect.setAttribute("aria-disabled", "true");
  try {
    await seat.link.accept(code);
    if (!seat.connected) {
      setStatus(STATUS.connecting, "waiting");
      expectSeatOpen(seat, [seat.link.via.offer, code]);
    }
  } catch (err) {
    // A code that is not ours, or damaged, in the page's words; else why, by its cause.
    if (err && err.word) say(card.connectError, err.word);
    else say(card.connectError, "connect_failed", { reason: { word: (err && err.why) || "why_browser" } });
    card.connect.setAttribute("aria-disabled", "false");
    if (!relayed) card.replyInput.focus();
  }
}

/**
 * Host: a new data channel for `seat` (closing its old one), its events handled here;
 * the worker gives its friend's messages to host_receive, and the answer comes here.
 */
async function openSeatLink(seat) {
  closeSeatLink(seat);
  const link = await newLink(computerTable.py.worker, { to: seat.number, receive: ["host_receive", seat.number] });
  seat.link = link;
  seat.connected = false;
  seat.accepted = false;
  seat.noPath = false;
  link.onopen = () => link === seat.link && seatOpened(seat);
  link.onclose = () => link === seat.link && seatClosed(seat);
  // Painted at once, not behind the queue: the guest waits on this view.
  link.onanswer = (answer) => link === seat.link && session.role === "host" && hostAnswer(answer);
  return link;
}

/** Host: close `seat`'s channel, stop its hold and stop listening for its friend's answer. */
function closeSeatLink(seat) {
  if (seat.listener) seat.listener.close();
  seat.listener = null;
  stopSeatRoute(seat);
  const link = seat.link;
  seat.link = null;
  seat.connected = false;
  if (link) link.close();
}

/** Host: close every seat's channel and stop every hold. */
export function closeSeatLinks() {
  for (const seat of keptSeats()) {
    seat.hold.stop();
    closeSeatLink(seat);
  }
}

/**
 * Host: the holds are not waited out (Deal again now): each lost friend's seat goes to a
 * computer at once (host_hold_over), which stops the deal in play if it needs their key.
 */
export function endHolds() {
  for (const seat of keptSeats()) {
    if (seat.connected || !seat.hold.running) continue;
    seat.hold.stop();
    hostCall("host_hold_over", seat.number);
  }
}

/** Host: whether any seat has a channel. */
export function hasSeatLinks() {
  return keptSeats().length > 0;
}

function seatOpened(seat) {
  mark("pishe:open");
  seat.connected = true;
  seat.everOpened = true;
  seat.noPath = false;   // (said before its friend's page reached the relays)
  seat.connect.stop();
  if (seat.stopRoute) seat.stopRoute();
  seat.stopRoute = watchRoute(seat.link, seat.invite.path);
  seat.hold.stop();
  if (seat.listener) seat.listener.close();
  seat.listener = null;
  const hadFocus = ui.panel.contains(document.activeElement);
  hideInvite(seat.invite);
  say(ui.note, "host_deals");
  if (hadFocus) focusTable();
  showSeats(session.status);
  if (session.view || session.status) show({ view: session.view, status: session.status });
}

/**
 * Host: `seat`'s friend lost the connection. Its page, opened again on the same link
 * in the same tab, knocks: it sends its own connection offer through the relays,
 * sealed with the link's key. The host's page answers it the same way, and the
 * channel opens with nothing pasted. (Invite again still makes a new link.)
 */
async function listenForKnock(seat) {
  if (!seat.key || seat.listener) return;
  const relays = await relay();
  const { key, offer } = seat;
  if (seat.listener || seat.key !== key) return;
  // Each knock is taken once, however many listeners in turn hear it (a relay may keep it).
  if (!seat.knocks || seat.knocks.key !== key) seat.knocks = { key, seen: new Set(), answered: null };
  const knocks = seat.knocks;
  seat.listener = relays.listenForAnswer({
    key,
    offer: knockOn(offer),
    seen: knocks.seen,
    onAnswer: async (theirOffer) => {
      if (session.role !== "host" || seat.connected || seat.key !== key) return;
      seat.listener = null;
      // The same knock again: its page did not hear the answer, which is posted again.
      if (knocks.answered && knocks.answered.offer === theirOffer && seat.link) {
        listenForKnock(seat);
        postKnockAnswer(seat, seat.link, relays, knocks.answered);
        return;
      }
      const link = await openSeatLink(seat);
      link.via = { key, offer: theirOffer };
      // Still listening: its page knocks again until it hears the answer (or comes back once more).
      listenForKnock(seat);
      try {
        const reply = await link.answer(theirOffer);
        if (link !== seat.link) return;
        knocks.answered = { key, offer: theirOffer, reply };
        postKnockAnswer(seat, link, relays, knocks.answered);
      } catch (err) {
        console.warn("could not answer the friend's knock:", err);
      }
    },
  });
}

/** Host: post `answered`'s reply to a friend's knock until a relay takes it; then the channel is awaited. */
function postKnockAnswer(seat, link, relays, { key, offer, reply }) {
  if (seat.posting) seat.posting.stop();
  seat.posting = retry(async (attempt) => {
    if (link !== seat.link || seat.connected) return true;
    if (!await relays.postAnswer({ key, offer, answer: reply, attempt })) return false;
    if (link === seat.link && !seat.connected && !seat.accepted) expectSeatOpen(seat, [offer, reply]);
    return true;
  }, { waits: backoff(2000, 3) });
}

function stopSeatRoute(seat) {
  if (seat.posting) seat.posting.stop();
  seat.posting = null;
  seat.connect.stop();
  if (seat.stopFallback) seat.stopFallback();
  seat.stopFallback = null;
  if (seat.stopRoute) seat.stopRoute();
  seat.stopRoute = null;
}

/**
 * Host: both pages have each other's codes for `seat`'s link (its friend's answer was
 * taken): if the channel is not open within the connect wait, say that no path was found
 * and what to try. A link that fails before then says so at once (seatClosed).
 */
function expectSeatOpen(seat, codes) {
  seat.accepted = true;
  const link = seat.link;
  const unopened = () => link === seat.link && !seat.connected && session.role === "host";
  const arm = () => seat.connect.start(() => unopened() && noPath(seat));
  arm();
  if (seat.stopFallback) seat.stopFallback();
  seat.stopFallback = fallBackIfNoPath(link, codes, "host", { again: arm, noPath: () => unopened() && noPath(seat) });
}

// The link is left as it is: carried through the relays, it still opens when its friend's
// page gets there later (a guest whose posts were never acknowledged tries the relays only
// once its own ICE fails), and the seat is connected then.
function noPath(seat) {
  seat.connect.stop();
  seat.noPath = true;
  hideInvite(seat.invite, true);
  setSeatState(seat.invite, "seat_no_path");
  setStatus(STATUS.noPathHost, "lost");
}

function seatClosed(seat) {
  const wasOpen = seat.connected || seat.everOpened;
  seat.connected = false;
  stopSeatRoute(seat);
  if (session.role !== "host") return;
  if (!wasOpen && seat.accepted) {
    noPath(seat);
    return;
  }
  hideInvite(seat.invite, true);
  if (!wasOpen) setSeatState(seat.invite, "seat_lost");
  hostCall("host_disconnect", seat.number);
  listenForKnock(seat).catch((err) => console.warn("not listening for the friend's return:", err));
  // The seat is held for its friend a while; then a computer plays it until they are back.
  // Meanwhile the host reads that its friend is reconnecting (a reloaded page knocks by itself).
  seat.hold.start(() => {
    if (session.role === "host" && !seat.connected) hostCall("host_hold_over", seat.number);
  });
  showSeats(session.status);
}
