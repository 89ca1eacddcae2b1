// Figure 12, the shell command: `panescope read %N` through a warm daemon (the answer "no change",
// and a read after one new line) beside the two things a shell agent would otherwise run, each
// spawned the same way in the same rounds: `tmux capture-pane -p` (the whole screen, every time)
// and `node -e ''` (the floor of any Node CLI). Goal (issue 26): read ≤ 1.3× the Node floor.
// The daemon runs in a private XDG_RUNTIME_DIR and is killed (by its pid) at the end.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { percentile, type Result } from "./lib/format.js";
import { daemonPid } from "./lib/daemon.js";
import { startServer } from "./lib/tmux.js";

const CLI = resolve(import.meta.dirname, "../dist/cli.js");

/** Spawns `file args` and resolves with the ms from spawn to its exit (status 0 required). */
function timed(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(file, args, { stdio: ["ignore", "ignore", "ignore"], env });
    child.once("error", fail);
    child.once("exit", (code) => (code === 0 ? done(performance.now() - t0) : fail(new Error(`shell: ${file} ${args.join(" ")} exited ${code}`))));
  });
}

export async function shell(quick: boolean): Promise<Result[]> {
  const rounds = quick ? 10 : 30;
  const tmux = await startServer({ cols: 80, rows: 24, command: "cat" });
  const runtime = mkdtempSync(join(tmpdir(), "panescope-bench-run-"));
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime, PANESCOPE_READER: "bench", PANESCOPE_SOCKET: "", PANESCOPE_SOCKET_PATH: "" };
  const read = [CLI, "read", "-L", tmux.name, tmux.pane];
  const floor: number[] = [];
  const capture: number[] = [];
  const quiet: number[] = [];
  const fresh: number[] = [];
  try {
    await timed(process.execPath, read, env); // starts the daemon and watches the pane
    // Interleaved, one of each per round; the first round warms the file cache and is dropped.
    for (let round = -1; round < rounds; round++) {
      const f = await timed(process.execPath, ["-e", ""], env);
      const c = await timed("tmux", ["-L", tmux.name, "capture-pane", "-p", "-t", tmux.pane], env);
      const q = await timed(process.execPath, read, env);
      await tmux.run(["send-keys", "-t", tmux.pane, "-l", `line ${round}\n`]);
      const n = await timed(process.execPath, read, env);
      if (round < 0) continue;
      floor.push(f);
      capture.push(c);
      quiet.push(q);
      fresh.push(n);
    }
  } finally {
    const pid = daemonPid(runtime);
    if (pid !== undefined) process.kill(pid, "SIGTERM");
    await tmux.kill();
    rmSync(runtime, { recursive: true, force: true });
  }
  const base = percentile(floor, 50);
  const note = `p50 of ${rounds} spawns; goal ≤ 1.3× node -e ''`;
  return [
    { id: "12a", label: "panescope read, no change", value: percentile(quiet, 50), baseline: base, baselineLabel: "node -e ''", unit: "ms", better: "lower", note },
    { id: "12b", label: "panescope read, one new line", value: percentile(fresh, 50), baseline: base, baselineLabel: "node -e ''", unit: "ms", better: "lower", note },
    { id: "12c", label: "panescope read, no change", value: percentile(quiet, 50), baseline: percentile(capture, 50), baselineLabel: "tmux capture-pane -p spawned", unit: "ms", better: "lower", note: `p50 of ${rounds} spawns` },
  ];
}
