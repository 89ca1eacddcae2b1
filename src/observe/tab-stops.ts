// Tab stops as tmux keeps them: one set per pane, shared by its normal and alternate screens, reset
// to every 8 columns when the width changes (screen.c, 3.2a–3.7c). xterm keeps a set per buffer and
// extends it on a resize: a program that set stops and then entered the alternate screen (or was
// resized) would tab elsewhere in the replica than in tmux.
import type { Terminal } from "@xterm/headless";
import { tabBuffers } from "./xterm-internals.js";

export interface SharedTabStops {
  /** The pane's width changed: every stop back to every 8 columns, as tmux does. */
  widthChanged(): void;
}

/** Makes HTS (ESC H) and TBC (CSI g) act on both buffers; xterm's own handling where its buffers cannot be read. */
export function shareTabStops(term: Terminal): SharedTabStops {
  term.parser.registerEscHandler({ final: "H" }, () => {
    const buffers = tabBuffers(term);
    if (!buffers) return false;
    const x = term.buffer.active.cursorX;
    // tmux sets a stop only under the cursor within the line (input.c: cx < screen width).
    if (x < term.cols) for (const buffer of [buffers.normal, buffers.alt]) buffer.tabs[x] = true;
    return true;
  });
  term.parser.registerCsiHandler({ final: "g" }, (params) => {
    const buffers = tabBuffers(term);
    const mode = params[0] ?? 0;
    if (!buffers || (mode !== 0 && mode !== 3)) return false;
    const x = term.buffer.active.cursorX;
    for (const buffer of [buffers.normal, buffers.alt]) {
      if (mode === 3) buffer.tabs = {};
      else delete buffer.tabs[x];
    }
    return true;
  });
  return { widthChanged: () => tabBuffers(term)?.reset() };
}
