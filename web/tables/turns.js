// The turn loop, one for both tables (the computer's, computer.js, and a friend's,
// friend/table.js): each answer from Python is said, painted and timed alike.
// Its lines go to the live region, with the view's status line when the turn comes
// (back) to this seat; the game's painter redraws the table from the view; Take over
// shows while the autopilot plays your seat; the clock of the seat to move runs; and
// when Python says the computers move next, their move is asked for after the
// page's pause (web/pace.js: ?delay, or the Fast computers switch), at a person's pace. The controllers make the calls: the
// loop decides nothing about the game.

import { list } from "../text.js";
import { announce, statusLine } from "./log.js";
import { runClock, stopClock } from "./clock.js";
import { computerDelay } from "../pace.js";

/**
 * A table's turn loop. `timeout(clock, view)`: the clock painted with `view` ran
 * out; `computerStep()`: the computers' next move is due.
 */
export function turnLoop({ timeout, computerStep }) {
  let lastTurn; // whose turn the last view said
  let timer = null; // the pause before the computers' next move

  return {
    /**
     * Say `lines`, and `view`'s status when the turn comes (back) to its seat (a null view:
     * none); each kept with its data to say it again in another language (`said`, the
     * answer's; `names`, the seats' names its views are made with: ./log.js).
     */
    say(view, lines, said = [], names = null) {
      const yourTurn = Boolean(view) && view.turn === view.seat && lastTurn !== view.turn;
      lastTurn = view ? view.turn : undefined;
      announce(yourTurn ? [...list(lines), view.status] : lines,
        yourTurn ? [...list(said), statusLine(view, names)] : said);
    },

    /**
     * Paint `view` on `root` with the game's `paint`, the cards of `answer.moves` (what
     * its steps moved, Python's) travelling there; show Take over while `answer` says the
     * autopilot plays, and run `clock` (null: none runs).
     */
    paint(paint, view, root, answer, clock = answer.clock) {
      paint(view, root, list(answer.moves));
      const takeOver = root.querySelector("[data-take-over]");
      if (takeOver) takeOver.hidden = !answer.autopilot;
      runClock(root, clock, () => timeout(clock, view));
    },

    /** Ask for the computers' move after the pause when `computerMoves` (dropping one asked before). */
    next(computerMoves) {
      clearTimeout(timer);
      timer = null;
      if (!computerMoves) return;
      timer = setTimeout(() => {
        timer = null;
        computerStep();
      }, computerDelay());
    },

    /** Whether a computer's move is due after its pause. */
    get waiting() {
      return timer !== null;
    },

    /** No clock runs, no computer move is due, and the next turn is said afresh. */
    stop() {
      clearTimeout(timer);
      timer = null;
      lastTurn = undefined;
      stopClock();
    },
  };
}
