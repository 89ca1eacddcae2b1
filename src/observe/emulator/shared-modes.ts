// What tmux keeps once per pane and xterm once per buffer. Tab stops: one set, shared by the normal
// and alternate screens, reset to every 8 columns when the width changes (screen.c, 3.2a–3.7c);
// xterm keeps a set per buffer and extends it on a resize. The scroll region: one, which the
// alternate screen neither saves nor restores; xterm keeps one per buffer. A program that set
// either and then switched screens (or was resized) drew elsewhere in the replica than in tmux.
// And two rules of tmux's own: the cursor saved by entering the alternate screen, and backspace
// (below).
import type { Terminal } from "@xterm/headless";
import { afterReset, bothBuffers, reverseWraparound } from "./xterm-internals.js";

export interface SharedModes {
  /** The pane's width changed: every stop back to every 8 columns, as tmux does. */
  widthChanged(): void;
}

/**
 * Makes HTS (ESC H) and TBC (CSI g) act on both buffers, a buffer switch carry the scroll region
 * over, and leaving with 1049 keep the cursor when no 1049 saved one; xterm's own handling where
 * its buffers cannot be read.
 */
export function shareModes(term: Terminal): SharedModes {
  // tmux restores the cursor on leaving with 1049 only once a 1049 entry saved one (saved_cx starts
  // UINT_MAX, alternate_saved_x reports it); xterm always restores its saved-cursor slot.
  let cursorSaved = false;
  term.parser.registerCsiHandler({ prefix: "?", final: "h" }, (params) => {
    if (params.includes(1049) && term.buffer.active.type === "normal") cursorSaved = true;
    return params.length === 1 && params[0] === 45;
  });
  // Backspace at the first column of a wrapped line's continuation goes to the end of the line
  // above, and from just past the last column to the last column (screen_write_backspace,
  // 3.2a–3.7c): xterm does both only in reverse-wraparound mode (DECSET 45), which tmux does not
  // know. Keep it on; a program's DECSET/DECRST 45 alone is ignored, as tmux ignores it.
  reverseWraparound(term, true);
  afterReset(term, () => reverseWraparound(term, true));
  // Leaving the alternate screen, xterm clears the alternate buffer (its region too) before it says
  // so: note the region as the switch begins.
  let leaving: { scrollTop: number; scrollBottom: number } | undefined;
  term.parser.registerCsiHandler({ prefix: "?", final: "l" }, (params) => {
    if (params.length === 1 && params[0] === 45) return true;
    const buffers = bothBuffers(term);
    if (!buffers) return false;
    const active = term.buffer.active.type === "alternate" ? buffers.alt : buffers.normal;
    if (active === buffers.alt && params.some((p) => p === 47 || p === 1047 || p === 1049)) {
      leaving = { scrollTop: active.scrollTop, scrollBottom: active.scrollBottom };
    }
    if (params.includes(1049) && !cursorSaved) {
      // Restoring "where the cursor is" leaves it there, as tmux does.
      buffers.normal.savedX = active.x;
      buffers.normal.savedY = active.y;
    }
    return false;
  });
  term.buffer.onBufferChange(() => {
    const buffers = bothBuffers(term);
    if (!buffers) return;
    const toAlt = term.buffer.active.type === "alternate";
    const from = toAlt ? buffers.normal : leaving;
    const to = toAlt ? buffers.alt : buffers.normal;
    leaving = undefined;
    if (!from) return;
    to.scrollTop = from.scrollTop;
    to.scrollBottom = from.scrollBottom;
  });
  term.parser.registerEscHandler({ final: "H" }, () => {
    const buffers = bothBuffers(term);
    if (!buffers) return false;
    const x = term.buffer.active.cursorX;
    // tmux sets a stop only under the cursor within the line (input.c: cx < screen width).
    if (x < term.cols) for (const buffer of [buffers.normal, buffers.alt]) buffer.tabs[x] = true;
    return true;
  });
  term.parser.registerCsiHandler({ final: "g" }, (params) => {
    const buffers = bothBuffers(term);
    const mode = params[0] ?? 0;
    if (!buffers || (mode !== 0 && mode !== 3)) return false;
    const x = term.buffer.active.cursorX;
    for (const buffer of [buffers.normal, buffers.alt]) {
      if (mode === 3) buffer.tabs = {};
      else delete buffer.tabs[x];
    }
    return true;
  });
  return { widthChanged: () => bothBuffers(term)?.reset() };
}
