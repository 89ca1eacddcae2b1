// Test fixture: a private, throw-away tmux server on a unique socket (never the default server),
// plus event-driven wait helpers. Reused by every integration test that needs real tmux.

import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { TmuxServer } from "../../src/tmux/server.js";
import type { ControlClient } from "../../src/tmux/client.js";
import type { ControlEvent } from "../../src/tmux/events.js";

export interface StartServerOptions {
  cols?: number;
  rows?: number;
  /**
   * Shell command the first pane runs (default: tmux's default shell). With "sh", startServer
   * returns once its prompt shows (promptShown), so a test may type into it at once.
   */
  command?: string;
  /** Environment for the first pane (`new-session -e`). */
  env?: Record<string, string>;
  /** Session name; default "main". */
  session?: string;
}

export interface TestServer {
  server: TmuxServer;
  /** The -L socket name. */
  name: string;
  session: string;
  /** One-shot tmux command against this server. */
  run(args: string[]): Promise<string[]>;
  /** Kill the server and remove its socket file; safe to call twice. */
  kill(): Promise<void>;
}

const live = new Set<TestServer>();

/**
 * PANESCOPE_TEST_TMUX_LOG=DIR: every server started here runs with `tmux -vv` and writes its log
 * (tmux-server-PID.log) into DIR, tmux's working directory: tmux's own account of a server that
 * left during a test. Large (a flooding pane logs tens of MB a second) and slower, so off by default.
 */
const LOG_DIR = process.env.PANESCOPE_TEST_TMUX_LOG;

export async function startServer(options: StartServerOptions = {}): Promise<TestServer> {
  const name = `panescope-test-${process.pid}-${randomBytes(4).toString("hex")}`;
  const server = new TmuxServer({ socketName: name });
  const session = options.session ?? "main";
  const env = Object.entries(options.env ?? {}).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const args = ["-f", "/dev/null", "new-session", "-d", "-s", session, "-x", String(options.cols ?? 80), "-y", String(options.rows ?? 24), ...env];
  if (options.command !== undefined) args.push(options.command);
  let killed = false;
  const stop = async (): Promise<void> => {
    await server.run(["kill-server"]).catch(() => undefined);
    rmSync(socketFile(name), { force: true });
  };
  const test: TestServer = {
    server,
    name,
    session,
    run: (a) => server.run(a),
    kill: async () => {
      if (killed) return;
      killed = true;
      live.delete(test);
      await stop();
    },
  };
  // Listed before it starts: a test that fails or times out while its server starts still has the
  // server killed and its socket file removed (killAllServers in afterEach).
  live.add(test);
  if (LOG_DIR === undefined) await server.run(args);
  else await execa(server.tmux, [...server.clientArgs(), "-vv", ...args], { cwd: LOG_DIR, stdin: "ignore" });
  if (killed) {
    // The test ended (timed out) while new-session ran, and its servers were killed before this one
    // was up: kill it now, or it would outlive the test.
    await stop();
    throw new Error(`tmux server ${name} started after its test's servers were killed (the test ended while it started)`);
  }
  await server.sizeNewSession(`=${session}:`, options.cols ?? 80, options.rows ?? 24);
  if (options.command === "sh") await promptShown(test);
  return test;
}

/**
 * Resolves once `pane` shows anything, such as its shell's prompt. Type into a new shell only after
 * this: a line typed before the prompt is echoed ahead of it, and the shell's output then follows the
 * prompt on its row ("# zero-line", seen on a busy machine; "# abold z", tmux 3.7c), which a pattern
 * for the line misses. startServer waits for it when the first pane runs "sh"; a pane split or
 * opened later still needs it.
 */
export async function promptShown(test: TestServer, pane = "%0"): Promise<void> {
  await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", pane])).some((row) => row.trim() !== ""), undefined, `${pane}'s prompt`);
}

/** Kill every server this process started and has not killed yet (for afterAll). */
export async function killAllServers(): Promise<void> {
  await Promise.all([...live].map((s) => s.kill()));
}

/** Where tmux 3.3a puts a -L socket: $TMUX_TMPDIR (or /tmp) /tmux-UID/NAME. */
export function socketFile(name: string): string {
  const uid = process.getuid?.() ?? 0;
  return join(process.env.TMUX_TMPDIR ?? "/tmp", `tmux-${uid}`, name);
}

/** Resolve with the first event from `client` matching `predicate`; reject after `timeoutMs`. */
export function nextEvent<T extends ControlEvent>(
  client: ControlClient,
  predicate: (event: ControlEvent) => event is T,
  timeoutMs?: number,
): Promise<T>;
export function nextEvent(client: ControlClient, predicate: (event: ControlEvent) => boolean, timeoutMs?: number): Promise<ControlEvent>;
export function nextEvent(client: ControlClient, predicate: (event: ControlEvent) => boolean, timeoutMs = GUARD_MS): Promise<ControlEvent> {
  const guard = Math.max(timeoutMs, GUARD_MS); // a guard, not a latency bound (GUARD_MS)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching control event within ${guard} ms`));
    }, guard);
    const off = client.on((event) => {
      if (!predicate(event)) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

/**
 * A waitFor deadline is a guard against a test that would hang, never a latency bound: it is at least
 * this long, whatever a caller asks (a 5 s guard for a fresh shell's first output ran out on a CI
 * machine at load 20). Only a condition that never comes fails.
 */
export const GUARD_MS = 20_000;

/** Re-check an async condition (e.g. a tmux query) until it holds; reject after the guard (see GUARD_MS). */
export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = GUARD_MS, what = "condition"): Promise<void> {
  const guard = Math.max(timeoutMs, GUARD_MS);
  const deadline = Date.now() + guard;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${guard} ms waiting for ${what}`);
    // Yield to the event loop between checks; each check is itself a tmux round trip (~5 ms).
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Looks for a condition for up to `ms` (not an assertion: false when it did not come in time). */
export async function lookFor(predicate: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await predicate()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Collect every output byte a client receives for one pane. */
export function collectOutput(client: ControlClient, paneId: string): { bytes(): Uint8Array; stop(): void } {
  const chunks: Uint8Array[] = [];
  const off = client.on((event) => {
    if (event.type === "output" && event.paneId === paneId) chunks.push(event.data);
  });
  return { bytes: () => Buffer.concat(chunks), stop: off };
}

/**
 * A pane command that prints "old-process" and ignores SIGHUP: it outlives `respawn-pane -k` (tmux
 * hangs its pty up) and `kill-server`, so a test that starts it kills it; it ends itself after 5
 * minutes in case a test could not.
 */
export const IGNORES_HUP = `sh -c 'trap "" HUP; echo old-process; i=0; while [ $i -lt 300 ]; do sleep 1; i=$((i+1)); done'`;
