// The guest's link: its one data channel to the host, made by answering the invite
// link's offer (through a relay, else by a reply code the host pastes), or, on a tab
// reloaded on a link it had connected with, by knocking on the host's page through the
// relays. The channel is read and written in the worker (web/core/channel.js): the
// host's messages go to guest_receive there, and the answer comes here to be painted
// (./guest.js). A table that does not know this tab's seat token is answered by Python
// itself: its answer drops the token and says hello afresh, keeping the ledger.

import { computerTable } from "../computer.js";
import { say } from "../words.js";
import { FIRST_GAME } from "../../games/registry.js";
import { joinGame, knockOn, newLink, relay } from "./signaling.js";
import { STATUS, sayFailed, setStatus, ui } from "./panel.js";
import { watchRoute } from "./route.js";
import { backoff, retry } from "./retry.js";
import {
  LEDGER_KEY, SAVED_KEY, TOKEN_KEY, USED_KEY, call, mark, queue, session, setAwaiting, setConnected, store, stored,
} from "./core.js";
import { enterTable, focusTable, show, useGame } from "./view.js";
import { guestAnswer, saveSoon } from "./guest.js";
import { connectWait, fallBackIfNoPath } from "./timers.js";

const here = {
  link: null, // its one data channel
  listener: null, // listening on the relays for the host's answer to its knock (coming back)
  retrying: null, // posting its answer or knock again until answered (retry.js)
  connect: connectWait(), // how long its answer may take to connect (expectOpen)
  stopFallback: null, // stops waiting to carry its link through the relays (expectOpen)
  stopRoute: null, // stops saying the channel's path (route.js)
  everOpened: false, // the current link opened once (else a close is a failed connection)
  joined: false, // the worker holds a Guest (guest_open was called)
  joinCode: null, // the invite (offer code and key) being answered
};

/** Guest: the invite this page answers (null: none yet). */
export function joiningWith() {
  return here.joinCode;
}

/** Guest: whether the worker holds this page's Guest (its seat, to word its view anew). */
export function hasJoined() {
  return here.joined;
}

/** Guest: whether this page has a channel to a host. */
export function hasLink() {
  return here.link !== null;
}

/**
 * Guest: the friend's table of the game the link names (else the one this page shows), its
 * table shown in the same task as the computer's table is put away: never painted between.
 */
function enterInvited() {
  const game = joinGame() || session.game || FIRST_GAME;
  enterTable("guest", game);
  useGame(game);
}

/** Guest: answer the host's offer from the invite link: through a relay, else by a reply code. */
export async function join(fragment) {
  enterInvited();
  here.joinCode = fragment;
  ui.guestReply.hidden = true;
  ui.replyOutput.value = "";
  setStatus(STATUS.answering, "waiting");
  if (!session.view) show({ view: null, status: null });
  let relays = null;
  try {
    relays = await relay();
  } catch (err) {
    console.warn("no relays: this page shows a reply code", err);
  }
  const older = relays && relays.olderInvite(fragment);
  if (older) {
    setStatus(STATUS.linkBroken, "lost", { reason: { word: older } });
    return;
  }
  const offer = fragment;
  const key = relays ? await relays.linkKey(offer) : null;
  // (Listing a relay, it starts loading the Nostr library while the answer is made.)
  const listed = key ? relays.relayList().then((list) => list.length > 0) : false;
  let link, reply;
  try {
    link = await openLink();
    reply = await link.answer(offer);
  } catch (err) {
    if (link && link !== here.link) return;
    sayFailed(STATUS.linkBroken, err);
    return;
  }
  if (link !== here.link || session.connected) return;
  link.via = { key, offer };
  if (!(await listed)) {
    if (link === here.link && !session.connected) showReplyCode(reply);
    return;
  }
  // Posted until a relay takes it, and again while the channel does not open: a post that
  // timed out may still have reached the host, and one a relay took may have come while the
  // host's page was not listening. The reply code shows meanwhile, for the host to paste.
  // Whatever the posts' acknowledgements say, the relays carry the link if this page's own
  // ICE fails: the host, which had the answer, carries it there too.
  expectOpen([offer, reply], { posted: false });
  let posted = false;
  here.retrying = retry(async (n) => {
    if (link !== here.link || session.connected || link.ended) return true;
    const taken = await relays.postAnswer({ key, offer, answer: reply, attempt: n });
    if (link !== here.link || session.connected || link.ended) return true;
    if (taken && !posted) {
      posted = true;
      ui.guestReply.hidden = true;
      setStatus(STATUS.connecting, "waiting");
      expectOpen([offer, reply]);
    } else if (!posted && n === 0) {
      showReplyCode(reply);
    }
    return false;
  }, { waits: ANSWER_WAITS });
}

/** How long a guest's page waits before posting its answer again: 2, 4, 8 s (then the last wait, 16 s). */
const ANSWER_WAITS = backoff(2000, 4);

/** Guest: the reply code for the host to paste (no relay took the answer yet). */
function showReplyCode(reply) {
  ui.guestReply.hidden = false;
  ui.replyOutput.value = reply;
  setStatus(STATUS.waiting, "waiting");
}

/**
 * Guest: this tab was reloaded on an invite link it has connected with. The host's
 * side of that link is gone: with relays, this page knocks (its own offer, sealed
 * with the link's key) and the host's page answers; else, or if no answer comes,
 * the table is shown as this tab kept it, paused, until the host's next invite link
 * is opened here.
 */
export async function comeBack(fragment) {
  waitForNewLink(fragment);
  let relays;
  try {
    relays = await relay();
  } catch {
    return;
  }
  const offer = fragment;
  const key = await relays.linkKey(offer);
  if (!(await relays.relayList()).length) return;
  setStatus(STATUS.connecting, "waiting");
  let link;
  try {
    link = await openLink();
  } catch (err) {
    sayFailed(STATUS.linkBroken, err);
    return;
  }
  // (Not while the relays are being tried for this link: expectOpen says when that fails.)
  const gaveUp = () => {
    if (link === here.link && !session.connected && !link.fallingBack) setStatus(STATUS.linkUsed, "lost");
  };
  let mine;
  try {
    mine = await link.offer();
  } catch {
    gaveUp();
    return;
  }
  link.via = { key, offer: mine };
  let answered = false;
  here.listener = relays.listenForAnswer({
    key,
    offer: mine,
    onAnswer: (reply) => {
      answered = true;
      if (link === here.link) {
        link.accept(reply).then(() => {
          if (link === here.link && !session.connected) expectOpen([mine, reply]);
        }, gaveUp);
      }
    },
  });
  // Knocked until the host's page answers: a knock no relay took, or that came while the
  // host's page was not listening, is lost.
  here.retrying = retry(async (n) => {
    if (answered || link !== here.link || session.connected) return true;
    await relays.postAnswer({ key, offer: knockOn(offer), answer: mine, attempt: n });
    return false;
  }, { waits: KNOCK_WAITS, onGiveUp: () => answered || gaveUp() });
}

/** How long a page that knocks waits for the host's answer before it knocks again: 2, 4, then 8 s before it says the link is used. */
const KNOCK_WAITS = backoff(2000, 3);

/** Guest: the table as this tab kept it, paused, until a link connects it again. */
function waitForNewLink(fragment) {
  enterInvited();
  here.joinCode = fragment;
  ui.guestReply.hidden = true;
  setStatus(STATUS.linkUsed, "lost");
  show({ view: null, status: null });
  const token = stored(TOKEN_KEY);
  if (!token) return;
  queue(async () => {
    const answer = await call("guest_open", token, stored(SAVED_KEY), stored(LEDGER_KEY));
    here.joined = true;
    guestAnswer(answer); // its hello waits: there is no channel to send it on
  });
}

/**
 * Guest: a new data channel to the host (closing the one before), its events handled
 * here; the worker gives the host's messages to guest_receive (saving nothing: saveSoon),
 * and the answer comes here.
 */
async function openLink() {
  closeGuestLink();
  const link = await newLink(computerTable.py.worker, { to: 0, receive: ["guest_receive", false] });
  here.link = link;
  setConnected(false);
  here.everOpened = false;
  link.onopen = () => link === here.link && opened();
  link.onclose = () => link === here.link && closed();
  // Painted at once, not behind the queue: this is the answer to the click.
  link.onanswer = (answer) => {
    if (link !== here.link || session.role !== "guest") return;
    setAwaiting(false);
    guestAnswer(answer);
    saveSoon();
  };
  return link;
}

/** Guest: close its channel and stop every wait for it. */
export function closeGuestLink() {
  if (here.listener) here.listener.close();
  here.listener = null;
  stopRoute();
  const link = here.link;
  here.link = null;
  if (session.role === "guest") setConnected(false);
  if (link) link.close();
}

function stopRoute() {
  if (here.retrying) here.retrying.stop();
  here.retrying = null;
  here.connect.stop();
  if (here.stopFallback) here.stopFallback();
  here.stopFallback = null;
  if (here.stopRoute) here.stopRoute();
  here.stopRoute = null;
}

/**
 * Guest: its answer has reached the host (through a relay): if the channel is not open
 * within the connect wait, say that no path was found and what to try (a link that
 * fails before then says so at once: closed()). Not `posted` (no relay said it took the
 * answer yet, which may have reached the host all the same): the relays are tried when
 * this page's own ICE fails (or a code names no candidate), and the time runs from then.
 */
function expectOpen(codes, { posted = true } = {}) {
  const link = here.link;
  const noPathHere = () => {
    here.connect.stop();
    if (link !== here.link || here.everOpened || session.role !== "guest") return;
    if (here.retrying) here.retrying.stop();
    setStatus(STATUS.noPathGuest, "lost");
  };
  const arm = () => here.connect.start(noPathHere);
  if (posted) arm();
  if (here.stopFallback) here.stopFallback();
  here.stopFallback = fallBackIfNoPath(link, codes, "guest", { again: arm, noPath: noPathHere, timed: posted });
}

function opened() {
  mark("pishe:open");
  setConnected(true);
  here.everOpened = true;
  stopRoute();
  here.stopRoute = watchRoute(here.link, ui.path);
  setStatus(STATUS.connected, "connected");
  say(ui.note, "friend_deals");
  const hadFocus = ui.panel.contains(document.activeElement);
  ui.guestReply.hidden = true;
  if (hadFocus) focusTable();
  store(USED_KEY, here.joinCode);
  queue(async () => {
    // First time on this page: resume the seat kept in this tab, if any; else say hello again.
    let answer;
    if (here.joined) {
      answer = await call("guest_hello");
    } else {
      answer = await call("guest_open", stored(TOKEN_KEY), stored(SAVED_KEY), stored(LEDGER_KEY));
      here.joined = true;
    }
    guestAnswer(answer);
  });
}

/** The guest's channel closed (or this page is leaving): say so, and keep the table. */
export function closed() {
  setConnected(false);
  setAwaiting(false);
  const expected = !here.everOpened && here.connect.running;
  stopRoute();
  if (session.role !== "guest") return;
  setStatus(expected ? STATUS.noPathGuest : STATUS.guestLost, "lost");
  ui.guestReply.hidden = true;
  // With no view yet, the table with no cards says again what it waits for.
  show({ view: session.view, status: session.status });
}
