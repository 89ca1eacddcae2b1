// Which tmux panescope talks to (`tmux -V`), and everything panescope knows that differs between
// tmux versions, in one place. Pure. Measured with the binaries in ../shared/tmux (3.2a–3.7c).
import { PanescopeError } from "../errors.js";

/** The oldest tmux panescope supports; older ones are refused at start. */
export const MIN_TMUX = { major: 3, minor: 2 } as const;

/** A tmux release, as `tmux -V` names it ("tmux 3.3a", "tmux next-3.8", "tmux master"). */
export class TmuxVersion {
  private constructor(
    /** The version as tmux printed it, without the program name: "3.3a", "next-3.8", "master". */
    readonly label: string,
    readonly major: number,
    readonly minor: number,
  ) {}

  /**
   * Reads `tmux -V` output. The program name comes first and is not always "tmux" (3.2a prints
   * argv[0]: "tmux-3.2a 3.2a"), so the last word is the version. "next-3.8" (a development build
   * before 3.8) counts as 3.8; "3.5a-rc" as 3.5. A label without a number ("master", "openbsd-7.6"
   * builds of tmux's current code) counts as newer than every release.
   */
  static parse(output: string): TmuxVersion {
    const label = output.trim().split(/\s+/).pop() ?? "";
    if (label === "") throw new PanescopeError("protocol", "tmux -V printed nothing: is this really tmux? pass another binary with --tmux PATH");
    const m = /^(?:next-)?(\d+)\.(\d+)/.exec(label);
    if (m === null) return new TmuxVersion(label, Number.POSITIVE_INFINITY, 0);
    return new TmuxVersion(label, Number(m[1]), Number(m[2]));
  }

  atLeast(major: number, minor: number): boolean {
    return this.major > major || (this.major === major && this.minor >= minor);
  }

  get supported(): boolean {
    return this.atLeast(MIN_TMUX.major, MIN_TMUX.minor);
  }

  /**
   * 3.7+ keeps pane titles and command names vis(3)-encoded (`clean_name` in tmux.c: a title set
   * to `a\b` is stored and printed as `a\\b`): decode them once more to get what the program set.
   * Session and window names are stored encoded on every version (`session_check_name`,
   * `window_set_name`); that stored form is the name tmux accepts as a target, so it is kept.
   */
  get storesNamesEncoded(): boolean {
    return this.atLeast(3, 7);
  }

  /**
   * 3.4 and 3.5 pass command output through utf8_stravisx(VIS_OCTAL|VIS_CSTYLE|VIS_NOSLASH)
   * (`server_client_print`): control bytes print as `\ooo`/`\t`-style escapes, a `\` stays bare,
   * and 3.4 also prints `$` before a letter, `_` or `{` as `\$`. format.ts reads every version alike.
   */
  get escapesCommandOutput(): boolean {
    return this.atLeast(3, 4) && !this.atLeast(3, 6);
  }

  /** 3.3 added `remain-on-exit-format`; 3.2 writes "Pane is dead (…)" over a dead pane's last row. */
  get hasRemainOnExitFormat(): boolean {
    return this.atLeast(3, 3);
  }

  /**
   * 3.2 sizes a detached `new-session -x W -y H` by the command client that ran it (80x23 without a
   * terminal: resize.c `default_window_size`; 3.3 ignores clients without a session there).
   */
  get ignoresDetachedSize(): boolean {
    return !this.atLeast(3, 3);
  }

  /**
   * 3.2 crashes (NULL dereference in window_pane_get_new_data, from control_write_pending) when a
   * control client has output queued for a pane that died under remain-on-exit: tmux 3.3 "Treat a
   * pane that has died the same as no pane when sending data to control mode clients" (issue 2828).
   * Reproduced here at the first try with the 3.2a binary.
   */
  get crashesOnDeadPaneOutput(): boolean {
    return !this.atLeast(3, 3);
  }

  /**
   * 3.2–3.6 crash (NULL+0xf0 read in winlinks_RB_MINMAX, from control_check_subs_all_panes) when a
   * control client with a `%*` (or `@*`, or session) subscription has no session at a tick of its
   * subscription timer: its session destroyed, or the client exiting, while its `tmux -C` process
   * is slow to go. 3.7 checks for no session first (control_check_subs_timer). Reproduced on
   * 3.2a–3.6a by stopping the client and killing its session (subscriptions.ts has the safe form).
   */
  get crashesOnSessionlessSubscription(): boolean {
    return !this.atLeast(3, 7);
  }

  /** 3.6+ keeps a tab as one `\t` in `capture-pane -p` output (not the spaces it covers). */
  get captureKeepsTabs(): boolean {
    return this.atLeast(3, 6);
  }

  toString(): string {
    return this.label;
  }
}

/** Refuses a tmux older than MIN_TMUX with what to do about it. */
export function requireSupported(version: TmuxVersion, binary = "tmux"): TmuxVersion {
  if (version.supported) return version;
  throw new PanescopeError(
    "tmux-unsupported",
    `${binary} is tmux ${version.label}, and panescope needs tmux ${MIN_TMUX.major}.${MIN_TMUX.minor} or later: ` +
      "install a newer tmux (your distribution's backports, Homebrew, or a release from https://github.com/tmux/tmux/releases) " +
      "and point panescope at it with --tmux PATH or PANESCOPE_TMUX",
  );
}
