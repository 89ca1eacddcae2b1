// Control sequences xterm obeys and tmux's parser does not know (its input_csi_table, the same on
// 3.2a–3.7c: an unknown sequence is dropped): the replica drops them too, so a program that sends
// one draws in the replica as in tmux, instead of being healed from it after the fact.
import type { Terminal } from "@xterm/headless";

/** [intermediates, final] of CSI sequences with a screen effect in xterm 6 and none in tmux. */
const IGNORED: ReadonlyArray<{ prefix?: string; intermediates?: string; final: string }> = [
  { final: "I" }, // CHT: tab forward N stops (tmux knows CBT, CSI Z, only)
  { final: "a" }, // HPR: cursor right
  { final: "e" }, // VPR: cursor down
  { prefix: "?", final: "J" }, // DECSED: selective erase in display
  { prefix: "?", final: "K" }, // DECSEL: selective erase in line
  { intermediates: '"', final: "q" }, // DECSCA: protection for DECSED/DECSEL
  { intermediates: "!", final: "p" }, // DECSTR: soft reset (tmux keeps origin mode, the region, insert mode)
  { intermediates: " ", final: "@" }, // SL: scroll left
  { intermediates: " ", final: "A" }, // SR: scroll right
  { intermediates: "'", final: "}" }, // DECIC: insert columns
  { intermediates: "'", final: "~" }, // DECDC: delete columns
];

export function ignoreUnknownToTmux(term: Terminal): void {
  for (const id of IGNORED) term.parser.registerCsiHandler(id, () => true);
}
