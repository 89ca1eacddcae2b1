// Fair feeding of many emulators. xterm parses a terminal's queued writes in timer slices of up
// to ~12 ms each (@xterm/headless 6 WriteBuffer), so twenty flooding panes held the event loop for
// ~240 ms a turn and every read and tmux reply waited behind them (bench figure 5b). A screen
// hands xterm at most a small amount at a time; the rest waits here and is handed on in turn.

/** Something with queued data to hand on when its turn comes. */
export interface Feedable {
  pump(): void;
}

const waiting = new Set<Feedable>();
let scheduled = false;

/** Asks for `feedable.pump()` on a coming turn of the event loop. */
export function wake(feedable: Feedable): void {
  waiting.add(feedable);
  if (!scheduled) {
    scheduled = true;
    setImmediate(turn);
  }
}

function turn(): void {
  scheduled = false;
  const due = [...waiting];
  waiting.clear();
  for (const feedable of due) feedable.pump();
}
