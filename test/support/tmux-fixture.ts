// Test fixture: a private, throw-away tmux server on a unique socket (never the default server),
// plus event-driven wait helpers. Reused by every integration test that needs real tmux.

import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { TmuxServer } from "../../src/tmux/server.js";
import type { ControlClient } from "../../src/tmux/client.js";
import type { ControlEvent } from "../../src/tmux/events.js";

export interface StartServerOptions {
  cols?: number;
  rows?: number;
  /** Shell command the first pane runs (default: tmux's default shell). */
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

export async function startServer(options: StartServerOptions = {}): Promise<TestServer> {
  const name = `panescope-test-${process.pid}-${randomBytes(4).toString("hex")}`;
  const server = new TmuxServer({ socketName: name });
  const session = options.session ?? "main";
  const env = Object.entries(options.env ?? {}).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const args = ["-f", "/dev/null", "new-session", "-d", "-s", session, "-x", String(options.cols ?? 80), "-y", String(options.rows ?? 24), ...env];
  if (options.command !== undefined) args.push(options.command);
  await server.run(args);
  await server.sizeNewSession(`=${session}:`, options.cols ?? 80, options.rows ?? 24);
  let killed = false;
  const test: TestServer = {
    server,
    name,
    session,
    run: (a) => server.run(a),
    kill: async () => {
      if (killed) return;
      killed = true;
      live.delete(test);
      await server.run(["kill-server"]).catch(() => undefined);
      rmSync(socketFile(name), { force: true });
    },
  };
  live.add(test);
  return test;
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
export function nextEvent(client: ControlClient, predicate: (event: ControlEvent) => boolean, timeoutMs = 5000): Promise<ControlEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching control event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = client.on((event) => {
      if (!predicate(event)) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

/** Re-check an async condition (e.g. a tmux query) until it holds; reject after `timeoutMs`. */
export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 5000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    // Yield to the event loop between checks; each check is itself a tmux round trip (~5 ms).
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
