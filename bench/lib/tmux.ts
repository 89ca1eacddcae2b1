// Private tmux servers for the bench (unique -L name, -f /dev/null, never the default server), a
// decode-only control-mode reader (the baseline), and a timed `tmux` spawn.
import { spawn, spawnSync, execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { TmuxServer } from "../../src/tmux/server.js";
import { ControlParser } from "../../src/tmux/protocol.js";

export interface BenchServer {
  server: TmuxServer;
  name: string;
  session: string;
  /** The first pane's id. */
  pane: string;
  run(args: string[]): Promise<string[]>;
  kill(): Promise<void>;
}

const live = new Set<string>();

function socketFile(name: string): string {
  return join(process.env.TMUX_TMPDIR ?? "/tmp", `tmux-${process.getuid?.() ?? 0}`, name);
}

// Whatever happens to the bench, its servers die with it (tmux 3.3a leaves the socket file: remove it).
process.on("exit", () => {
  for (const name of live) {
    spawnSync("tmux", ["-L", name, "kill-server"], { stdio: "ignore" });
    rmSync(socketFile(name), { force: true });
  }
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

export function serverName(): string {
  return `panescope-bench-${process.pid}-${randomBytes(4).toString("hex")}`;
}

export async function startServer(options: { cols?: number; rows?: number; command?: string; name?: string } = {}): Promise<BenchServer> {
  const name = options.name ?? serverName();
  const server = new TmuxServer({ socketName: name });
  const session = "bench";
  const args = ["-f", "/dev/null", "new-session", "-d", "-s", session, "-x", String(options.cols ?? 80), "-y", String(options.rows ?? 24)];
  if (options.command !== undefined) args.push(options.command);
  live.add(name);
  await server.run(args);
  // Keep a finished command's final screen readable (fig. 6 compares it with capture-pane).
  await server.run(["set-option", "-g", "remain-on-exit", "on"]);
  const [pane = ""] = await server.run(["display-message", "-p", "-t", session, "#{pane_id}"]);
  return {
    server,
    name,
    session,
    pane,
    run: (a) => server.run(a),
    kill: async () => {
      if (!live.delete(name)) return;
      await server.run(["kill-server"]).catch(() => undefined);
      rmSync(socketFile(name), { force: true });
    },
  };
}

/** A pane command that waits for `tmux wait-for go` before running `script` (no keystroke echo). */
export function gated(name: string, script: string): string {
  return `sh -c 'tmux -L ${name} wait-for go; ${script}; exec sleep 3600'`;
}

/** Spawns one tmux command and resolves with its wall time in ms (what a polling peer pays). */
export function timedTmux(name: string, args: string[]): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    execFile("tmux", ["-L", name, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) reject(error);
      else resolve({ ms: performance.now() - t0, stdout });
    });
  });
}

/** The baseline reader: `tmux -C attach` and ControlParser, nothing else (no emulator, no ring). */
export class RawControl {
  private readonly proc;
  private readonly parser = new ControlParser();
  private readonly listeners = new Set<(pane: string, data: Uint8Array) => void>();
  private attached: Promise<void>;

  constructor(name: string, session: string) {
    this.proc = spawn("tmux", ["-L", name, "-C", "attach-session", "-t", `=${session}`], { stdio: ["pipe", "pipe", "ignore"] });
    let ready!: () => void;
    this.attached = new Promise((resolve) => (ready = resolve));
    this.proc.stdout.on("data", (chunk: Buffer) => {
      for (const event of this.parser.push(chunk)) {
        if (event.type === "reply") ready();
        else if (event.type === "output") for (const listener of this.listeners) listener(event.paneId, event.data);
      }
    });
  }

  ready(): Promise<void> {
    return this.attached;
  }

  onOutput(listener: (pane: string, data: Uint8Array) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes one command line; the reply is not awaited (the caller watches output). */
  send(line: string): void {
    this.proc.stdin.write(`${line}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.proc.once("exit", () => resolve());
      this.proc.stdin.end();
      setTimeout(() => this.proc.kill("SIGTERM"), 2000).unref();
    });
  }
}

/** Finds `marker` in a byte stream cut anywhere: feed chunks, true once it has been seen. */
export function markerWatch(marker: string): (data: Uint8Array) => boolean {
  const needle = Buffer.from(marker);
  let tail = Buffer.alloc(0);
  return (data) => {
    const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    // The marker inside this chunk, or across the boundary with the previous one.
    if (view.includes(needle) || Buffer.concat([tail, view.subarray(0, needle.length - 1)]).includes(needle)) return true;
    tail = Buffer.concat([tail, view.subarray(Math.max(0, view.length - needle.length + 1))]).subarray(-(needle.length - 1));
    return false;
  };
}
