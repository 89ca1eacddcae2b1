// Starting one scenario's program: a private tmux server (unique -L, -f /dev/null) with one pane of
// the asked size, a pinned environment, and a wrapper that holds the program until it is watched.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isPanescopeError, PanescopeError } from "../errors.js";
import { TmuxFormat } from "../tmux/format.js";
import { TmuxServer } from "../tmux/server.js";
import type { RunCommand, Size } from "./tape.js";
import { guard, release, socketPathOf } from "./watchdog.js";

/**
 * TERM inside the pane (and tmux's default-terminal): tmux's own description, so programs use what
 * tmux really supports (italics, 256 colours). Every Debian/Ubuntu ncurses-base ships it; a tape can
 * still say `env TERM=screen`.
 */
export const GOLDEN_TERM = "tmux-256color";

export interface PaneSessionOptions {
  size: Size;
  /** Added on top of the pinned environment. */
  env?: Record<string, string>;
  /** argv (run directly) or a shell command line (run by `sh -c`). A plain string is a shell line. */
  command: RunCommand | string[] | string;
  /** The tmux binary (default "tmux"). */
  tmux?: string;
  /** Working directory of the program (default: the current one). */
  cwd?: string;
  /** Record the pane as an asciicast from its first byte, under this title (PaneSession.cast()). */
  record?: { title: string };
  /** What the session's notes on stderr (a screen healed from tmux's) name it by; default: its command. */
  label?: string;
}

// The pane runs this wrapper. It waits on a tmux channel we signal once the Hub is attached, so not
// one byte of the program is missed; env -i replaces the whole environment (the tmux server's, which
// is ours) with the pinned one. It does not exec the program: tmux 3.3a sometimes marks a pane dead
// (pty EOF) without ever recording its exit status or running the pane-died hook (about 1 run in 3
// of `new-session -- sh -c 'echo hi; sleep 0.3; exit 3'` with remain-on-exit on), so the wrapper
// reports the status itself: a pane option, then a channel we wait on. `trap :` (a handler, which
// children do not inherit, unlike an ignored signal) keeps C-c and C-\ for the program alone.
// Where tmux has no remain-on-exit-format (3.2), a dead pane gets "Pane is dead (…)" written over
// its last row, so the wrapper outlives the program instead, waiting on a channel never signalled.
// Before it says the program ended, it sets the pane's title (OSC 2) to the channel's name and waits
// until tmux shows that title: tmux has then read and parsed all the program printed. tmux 3.3+
// destroys a pane as soon as its process exits (server.c server_child_exited), dropping what it had
// not yet read of the pty, so a program that printed much and exited under load lost its last
// lines even in tmux's screen, and a golden after it changed from run to run (at most 5 s: a
// program that ended inside a DCS string, which swallows the title, is not held for ever).
const WRAPPER = [
  'chan=$1 died=$2 hold=$3 tmux=$4; shift 4',
  '"$tmux" wait-for "$chan" || exit 125',
  "trap : INT QUIT",
  'env -i "$@"',
  "status=$?",
  "printf '\\033]2;%s\\033\\\\' \"$died\"",
  'n=0; while [ "$("$tmux" display-message -p -t "$TMUX_PANE" "#{pane_title}" 2>/dev/null)" != "$died" ] && [ "$n" -lt 500 ]; do n=$((n + 1)); sleep 0.01; done',
  '"$tmux" set-option -p -t "$TMUX_PANE" @panescope_status "$status" >/dev/null 2>&1',
  '"$tmux" wait-for -S "$died" >/dev/null 2>&1',
  '[ -z "$hold" ] || "$tmux" wait-for "$hold" >/dev/null 2>&1',
  'exit "$status"',
].join("\n");

function argvOf(command: PaneSessionOptions["command"]): string[] {
  if (typeof command === "string") return ["sh", "-c", command];
  if (Array.isArray(command)) return command;
  return command.kind === "argv" ? command.argv : ["sh", "-c", command.command];
}

export interface Launched {
  server: TmuxServer;
  paneId: string;
  windowId: string;
  /** tmux 3.3a leaves its socket file behind after kill-server: removed by discardLaunch. */
  socket: string | undefined;
  /** The program's fresh, empty HOME. */
  home: string;
  /** Signal this channel to let the program start. */
  gate: string;
  /** The wrapper signals this channel when the program has exited. */
  died: string;
  /**
   * The wrapper outlives the program (tmux 3.2, no remain-on-exit-format): the pane never dies, so
   * its output all reaches us. Elsewhere the pane dies with the program, and tmux 3.3+ drops what
   * it had not yet sent us; the watch's last audit takes it from tmux's screen.
   */
  holds: boolean;
}

// Launches not yet discarded, so an interrupted run can remove them (discardLiveLaunches): those
// still starting, and those started with how to discard each.
const starting = new Set<Promise<Launched>>();
const started = new Map<Launched, () => Promise<void>>();
let stopped = false;

/**
 * How an interrupted run discards this launch, instead of discardLaunch alone: a session closes its
 * Hub first. Its control client's `attach-session` starts a server when none runs, so one racing
 * kill-server brought a socket file back (tmux 3.3a, SIGINT 0.2 s into a run: about 1 in 30).
 */
export function discardWith(launched: Launched, discard: () => Promise<void>): void {
  if (started.has(launched)) started.set(launched, discard);
}

/**
 * Refuses a size no scenario can have, before a server starts: a tape's are checked as it is read
 * (literals.ts), the library's here. xterm has at least 2 columns: a 1-column pane failed only
 * after waiting for the emulator to match it.
 */
export function checkSize(size: Size): void {
  const { cols, rows } = size;
  if (Number.isInteger(cols) && Number.isInteger(rows) && cols >= 2 && cols <= 1000 && rows >= 1 && rows <= 1000) return;
  throw new PanescopeError("bad-input", `bad size ${JSON.stringify(size)}: give whole numbers, cols 2..1000 (xterm's least is 2) and rows 1..1000`);
}

/** Starts the program's private server; the launch is live until discardLaunch. */
export function launchPane(options: PaneSessionOptions): Promise<Launched> {
  try {
    checkSize(options.size);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  if (stopped) return Promise.reject(new PanescopeError("golden", "the run is stopping: no scenario starts any more"));
  const launch = startLaunch(options);
  starting.add(launch);
  void launch.catch(() => undefined).finally(() => starting.delete(launch));
  return launch;
}

/**
 * Discards every live launch, and refuses new ones: for a run that is interrupted. A launch still
 * starting is let finish first (its tmux commands have time limits): killed mid-way, its server
 * could still come up after the kill.
 */
export async function discardLiveLaunches(): Promise<void> {
  stopped = true;
  await Promise.allSettled([...starting]);
  await Promise.all([...started.values()].map((discard) => discard()));
}

async function startLaunch(options: PaneSessionOptions): Promise<Launched> {
  const name = `panescope-golden-${process.pid}-${randomBytes(4).toString("hex")}`;
  const tmux = options.tmux ?? "tmux";
  const server = new TmuxServer({ socketName: name, tmux });
  const version = await server.requireSupported();
  const hold = version.hasRemainOnExitFormat ? "" : `panescope-hold-${randomBytes(4).toString("hex")}`;
  const home = await mkdtemp(join(tmpdir(), "panescope-golden-home-"));
  const gate = `panescope-gate-${randomBytes(4).toString("hex")}`;
  const died = `panescope-died-${randomBytes(4).toString("hex")}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    TERM: GOLDEN_TERM,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TZ: "UTC",
    SHELL: "/bin/sh",
    PS1: "$ ",
    ...options.env,
  };
  const pairs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const { cols, rows } = options.size;
  // Listed before the server starts: an owner killed from here on (SIGKILL before the control client
  // attaches and sets exit-unattached, or after) still has its server killed and files removed.
  await guard({ tmux: tmux.includes("/") ? resolve(tmux) : tmux, name, socket: socketPathOf(name), home });
  try {
    // The server's own locale decides character widths (tmux calls wcwidth): pin it too.
    const format = new TmuxFormat({ paneId: "pane_id", windowId: "window_id", socket: "socket_path" });
    const lines = await server.runMany(
      [
        ["-f", "/dev/null", "start-server"],
        // tmux 3.2 sizes a detached new session by our command client (80x23), not by -x/-y. On this
        // private server window-size manual makes it take -x/-y at once: a resize afterwards could
        // reach the program after a tape's own resize (3.2 spaces pty resizes 250 ms apart).
        ...(version.ignoresDetachedSize ? [["set-option", "-g", "window-size", "manual"]] : []),
        [
          "new-session", "-d", "-x", String(cols), "-y", String(rows), "-P", "-F", format.text,
          ...(options.cwd === undefined ? [] : ["-c", options.cwd]),
          "--", "sh", "-c", WRAPPER, "panescope-wrapper", gate, died, hold, tmux, ...pairs, ...argvOf(options.command),
        ],
        ["set-option", "-g", "status", "off"],
        ["set-option", "-g", "default-terminal", env.TERM ?? GOLDEN_TERM],
        // Where the wrapper holds the pane (3.2) nothing may remain on exit: tmux 3.2 crashes when a
        // watched pane dies that way, and panescope would poll instead of stream (dead-pane-guard.ts).
        ...(hold === "" ? [["set-option", "-g", "remain-on-exit", "on"]] : []),
        // An empty format keeps tmux from writing "Pane is dead (…, <time>)" over the final screen.
        ...(version.hasRemainOnExitFormat ? [["set-option", "-g", "remain-on-exit-format", ""]] : []),
      ],
      { env: { LANG: "C.UTF-8", LC_ALL: "C.UTF-8" } },
    );
    const launched = format.parseOne(lines);
    if (launched === undefined) throw new PanescopeError("protocol", "tmux did not report the new pane");
    const { paneId, windowId, socket } = launched;
    const result = { server, paneId, windowId, socket: socket === "" ? undefined : socket, home, gate, died, holds: hold !== "" };
    started.set(result, () => discardLaunch(result));
    return result;
  } catch (error) {
    // What went wrong is this error: the cleanup's own failures must not replace it.
    await discardServer(server, name).catch(() => undefined);
    await rm(home, { recursive: true, force: true }).catch(() => undefined);
    release(name);
    throw tooLongForTmux(error, [...pairs, ...argvOf(options.command)]) ?? error;
  }
}

/** tmux's "command too long" said in the scenario's words: its own command and env are what is too long. */
function tooLongForTmux(error: unknown, words: readonly string[]): PanescopeError | undefined {
  if (!isPanescopeError(error, "command-failed") || !error.message.includes("command too long")) return undefined;
  const bytes = words.reduce((sum, word) => sum + Buffer.byteLength(word) + 1, 0);
  return new PanescopeError("bad-input", `the scenario's command and env are too long for tmux (${bytes} bytes; tmux takes one command of about 16 KB): pass large values in a file the program reads`, { cause: error });
}

/**
 * Kills the server of a launch that failed part way and removes its socket file. The server may
 * still be starting: a client that started it and then failed (`command too long`) exits before
 * the server has made its socket, so a bare kill-server finds none and the socket appears after
 * it. `start-server` waits on tmux's `<socket>.lock` until that server is up (or starts one) for
 * kill-server to kill. The socket's path is tmux's rule, not asked: a server with no session can
 * exit just as we connect, without answering.
 */
async function discardServer(server: TmuxServer, name: string): Promise<void> {
  await server.runMany([["-f", "/dev/null", "start-server"], ["kill-server"]]).catch(() => undefined);
  const socket = socketPathOf(name);
  // A client that takes the lock just as a server finishes starting leaves the lock file behind.
  await Promise.all([rm(socket, { force: true }), rm(`${socket}.lock`, { force: true })]);
}

/**
 * Ends the server with this process, however the process ends (close() forgotten, an uncaught
 * exception, a SIGKILLed test worker): tmux's `exit-unattached` makes the server exit once no
 * client is attached (server.c server_loop, the same on 3.2a–3.7c), and our watching control client
 * ends with us (its stdin closes; tmux/orphan.ts). Set only while a client is attached, or tmux would
 * exit at once: a pane read by polling (no control client) keeps its server until close(), or until
 * the watchdog (watchdog.ts) kills it once this process is gone. Another client (a person's
 * `tmux attach` to look) would keep the server up until it detaches: the watchdog ends it anyway.
 */
export async function endWithOwner(launched: Launched): Promise<void> {
  await launched.server.run(["if-shell", "-F", "-t", launched.paneId, "#{session_attached}", "set-option -g exit-unattached on"]);
}

/** Kills the server and removes what the launch made (socket file, HOME). Safe after a kill. */
export async function discardLaunch(launched: Launched): Promise<void> {
  // Live until removed: an interrupt meanwhile discards it again (harmlessly) rather than exit midway.
  try {
    await launched.server.run(["kill-server"]).catch(() => undefined);
    if (launched.socket !== undefined) await rm(launched.socket, { force: true });
    await rm(launched.home, { recursive: true, force: true });
  } finally {
    started.delete(launched);
    release(launched.server.socketName);
  }
}
