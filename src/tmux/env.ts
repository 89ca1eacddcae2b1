// What tmux tells a program running in one of its panes: TMUX="socket,server-pid,session" and
// TMUX_PANE="%N" (environ.c, 3.2a–3.7c). Pure, and free of anything that runs tmux, so the small
// shell client can read it too.
import { canonicalPaneId } from "./pane-id.js";

export interface TmuxEnv {
  /** TMUX_PANE, canonical (`%N`). */
  paneId?: string;
  /** From TMUX: that server's socket path, as tmux wrote it. */
  socket?: string;
  /** From TMUX: that server's pid, when it parses. */
  serverPid?: number;
}

export function tmuxEnv(env: Readonly<Record<string, string | undefined>>): TmuxEnv {
  const pane = env.TMUX_PANE;
  const found: TmuxEnv = pane !== undefined && /^%\d+$/.test(pane) ? { paneId: canonicalPaneId(pane) } : {};
  const tmux = env.TMUX ?? "";
  // The socket path may itself contain commas: pid and session are the last two fields.
  const last = tmux.lastIndexOf(",");
  const middle = last <= 0 ? -1 : tmux.lastIndexOf(",", last - 1);
  if (middle <= 0) return found;
  const pid = tmux.slice(middle + 1, last);
  return { ...found, socket: tmux.slice(0, middle), ...(/^\d+$/.test(pid) ? { serverPid: Number(pid) } : {}) };
}
