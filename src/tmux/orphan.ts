// A control client must not outlive panescope. Measured on tmux 3.3a: SIGKILL panescope while a
// watched pane floods and its `tmux -C` process stays, still attached (tmux waits to flush output
// to a reader that is gone); SIGKILL it after it hung for a second and the tmux server died.
// So every control client is started under `setpriv --pdeathsig TERM` where util-linux has it: the
// kernel sends it SIGTERM when panescope dies, however that happens, and tmux detaches it cleanly.
// Elsewhere (macOS), an exit hook covers everything but SIGKILL.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { loadExeca } from "./execa.js";

let setprivWorks: Promise<boolean> | undefined;
let known = false;

/** Finds out once whether `setpriv --pdeathsig` works here (and loads execa); await it before spawning. */
export function orphanGuardReady(): Promise<boolean> {
  setprivWorks ??= loadExeca().then(probeSetpriv).then((works) => (known = works));
  return setprivWorks;
}

/**
 * The command line that starts `file args` so that it ends when this process ends. A binary that
 * cannot be run is started bare, so the spawn fails the usual way (ENOENT/EACCES: "install tmux").
 */
export function orphanGuard(file: string, args: readonly string[]): [string, string[]] {
  return known && runnable(file) ? ["setpriv", ["--pdeathsig", "TERM", "--", file, ...args]] : [file, [...args]];
}

function runnable(file: string): boolean {
  const candidates = file.includes("/") ? [file] : (process.env.PATH ?? "").split(delimiter).filter(Boolean).map((dir) => join(dir, file));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
}

async function probeSetpriv(): Promise<boolean> {
  if (process.platform !== "linux") return false;
  const execa = await loadExeca();
  const result = await execa("setpriv", ["--pdeathsig", "TERM", "--", "true"], { shell: false, reject: false, stdio: "ignore", timeout: 5000 });
  return result.exitCode === 0;
}

/** Kill functions of control clients still running; the exit hook ends them with panescope. */
export const liveProcesses = new Set<(signal?: NodeJS.Signals) => boolean>();

process.once("exit", () => {
  for (const kill of liveProcesses) kill("SIGTERM");
});
