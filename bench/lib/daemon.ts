// The shared daemon a bench figure started in its private XDG_RUNTIME_DIR: its pid, from the first
// line of its log (`… daemon pid N: …`), so the figure can stop exactly that process.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function daemonPid(runtime: string): number | undefined {
  const dir = join(runtime, "panescope");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".log"))) {
    const pid = /daemon pid (\d+)/.exec(readFileSync(join(dir, file), "utf8"))?.[1];
    if (pid !== undefined) return Number(pid);
  }
  return undefined;
}
