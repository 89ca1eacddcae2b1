// What a pane opened by open_pane runs: the agent's command (or an interactive shell) through tmux's
// default shell, started only once panescope watches the pane (so not one byte is missed, also of
// `echo instant; exit 4`), and then the pane held open so its last screen stays readable until
// close_pane. The pane's process carries the marker and, once held, the exit status in its argv
// (watch/opened-pane.ts reads them); the pane option it sets is only a hint to look.
//
// Why not remain-on-exit: tmux 3.3a sometimes marks a pane dead without recording its exit status
// (about 1 run in 3, golden/launch.ts), and tmux 3.2a crashes when a control client has output
// queued for a pane that died under remain-on-exit (fixed in 3.3). A held pane never dies.
import { randomBytes } from "node:crypto";
import { HELD_MARK, HOLD_SCRIPT, OPEN_MARK } from "../watch/opened-pane.js";

// $1 gate channel · $2 "ended" channel · $3 tmux binary · $4 shell · $5 the command ("" = a shell).
// The gate is awaited away from the tty (a tmux client polling with the tty open reads as ready to
// watch/ready.ts). `set -m` runs the command as the terminal's foreground job in its own process group: tmux then
// names the pane after it (#{pane_current_command}), and C-c reaches it, not the wrapper (`trap :`
// too: a handler, which children do not inherit, unlike an ignored signal). `stty -echo` while
// held: keys typed into the ended pane must not change its last screen. The hold is `sh -c`, not
// exec'd tmux: the pane's process keeps HELD_MARK and the status in its argv (opened-pane.ts), and
// only then sets the hint option and signals $ended.
const WRAPPER = [
  'gate=$1 ended=$2 tmux=$3 shell=$4 command=$5',
  '"$tmux" wait-for "$gate" </dev/null >/dev/null 2>&1 || exit 125',
  "trap : INT QUIT",
  "set -m",
  'if [ -n "$command" ]; then "$shell" -c "$command"; else "$shell"; fi',
  "status=$?",
  "stty -echo -icanon 2>/dev/null",
  `exec sh -c '${HOLD_SCRIPT}' ${HELD_MARK} "$tmux" "$gate-held" "$status" "$shell" "$command" "$ended"`,
].join("\n");

export interface PaneCommand {
  /** argv for new-window/split-window/new-session (after `--`). */
  argv: string[];
  /** Signal it (`wait-for -S`) to let the program start. */
  gate: string;
  /** The wrapper signals it once the program has ended and its status is recorded. */
  ended: string;
}

/**
 * `command` (a shell command line, or undefined for an interactive shell) wrapped as above. `tmux`
 * is the binary panescope runs; inside the pane it reaches the same server through $TMUX.
 */
export function paneCommand(command: string | undefined, defaultShell: string, tmux: string): PaneCommand {
  const id = randomBytes(6).toString("hex");
  const gate = `panescope-open-${id}`;
  const ended = `panescope-ended-${id}`;
  return { argv: ["sh", "-c", WRAPPER, OPEN_MARK, gate, ended, tmux, defaultShell, command ?? ""], gate, ended };
}

/** Statuses a shell gives a command it could not run: 126 (not executable), 127 (not found). */
export function couldNotStart(status: number | undefined): boolean {
  return status === 126 || status === 127;
}
