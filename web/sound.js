// Optional sounds of the table: a card laid, a capture, a pişti. Off by default, the
// "Sounds" switch turns them on for this visit (nothing is stored). Each is made with
// the Web Audio API (no file to fetch); which one plays is what Python says a move
// did (an answer's moves: their "sound"), never decided here.

let on = false;
let context = null;

/** The page's audio, made on the switch's first turning on (a user's gesture, as browsers ask). */
function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume();
  return context;
}

/** A short burst of filtered noise: a card laid on the felt. */
function slap(ctx, at) {
  const length = Math.round(ctx.sampleRate * 0.07);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  filter.Q.value = 0.8;
  const gain = ctx.createGain();
  gain.gain.value = 0.5;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

/** Notes one after the other (Hz), each a soft sine: a capture's two, a pişti's three. */
function notes(ctx, at, frequencies) {
  frequencies.forEach((frequency, i) => {
    const start = at + i * 0.09;
    const oscillator = ctx.createOscillator();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.22, start + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.22);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(start);
    oscillator.stop(start + 0.25);
  });
}

const SOUNDS = {
  lay: (ctx, at) => slap(ctx, at),
  capture: (ctx, at) => notes(ctx, at, [523.25, 659.25]),
  pishti: (ctx, at) => notes(ctx, at, [523.25, 659.25, 783.99, 1046.5]),
};

/** Follow the page's Sounds switch ([data-sound]). */
export function setupSound() {
  const box = document.querySelector("[data-sound]");
  if (!box) return;
  on = box.checked;
  box.addEventListener("change", () => {
    on = box.checked;
    if (on) audio();
  });
}

/** Play the sound of each of `moves` that names one, move i `delay(i)` ms from now (as the cards move). */
export function playSounds(moves, delay) {
  if (!on) return;
  const named = moves.filter((move) => Object.hasOwn(SOUNDS, move.sound));
  const ctx = named.length ? audio() : null;
  if (!ctx) return;
  named.forEach((move) => SOUNDS[move.sound](ctx, ctx.currentTime + delay(moves.indexOf(move)) / 1000));
}
