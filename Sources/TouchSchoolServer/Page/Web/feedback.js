// What a tap and a refusal sound and feel like: a short click and a low double buzz made with Web
// Audio oscillators (no sound files to load), and a tick of vibration on a phone that has it.
/** A tap's click and buzz at most this often: a burst of taps is one rattle, not hundreds of voices. */
const TAP_FEEDBACK_MS = 40;
const TAP_VIBRATION_MS = 8;
const WARNING_VIBRATION = [120, 80, 120];

let context = null, lastTap = -Infinity;

/**
 * The audio context, made at the first sound: browsers let a page start audio only after a
 * user gesture, and the first tap is one. A context the browser suspended is resumed.
 */
function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === 'suspended') context.resume().catch(() => {});
  return context;
}

/** One tone: `type` wave at `frequency` Hz from `at` seconds for `length` seconds, fading out. */
function tone(audioContext, type, frequency, at, length, volume) {
  const oscillator = audioContext.createOscillator();
  const gain = audioContext.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.001, at + length);
  oscillator.connect(gain).connect(audioContext.destination);
  oscillator.start(at);
  oscillator.stop(at + length);
}

function vibrate(pattern) {
  if (typeof navigator.vibrate === 'function') navigator.vibrate(pattern);
}

export function tap(muted) {
  const now = performance.now();
  if (now - lastTap < TAP_FEEDBACK_MS) return;
  lastTap = now;
  vibrate(TAP_VIBRATION_MS);
  const audioContext = !muted && audio();
  if (audioContext) tone(audioContext, 'triangle', 880, audioContext.currentTime, 0.06, 0.25);
}

export function warning(muted) {
  vibrate(WARNING_VIBRATION);
  const audioContext = !muted && audio();
  if (!audioContext) return;
  const at = audioContext.currentTime;
  tone(audioContext, 'square', 196, at, 0.18, 0.2);
  tone(audioContext, 'square', 147, at + 0.22, 0.3, 0.2);
}
