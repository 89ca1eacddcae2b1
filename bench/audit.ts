// Figure 9, the replica audit (watch/audit/): capture-pane calls per minute for a pane that
// prints a line every 200 ms (at rest often: the worst case), a flooding pane (never at rest) and a
// quiet one, vs how often each came to rest after output (what auditing at every rest would cost),
// counted in the same run. Heals are counted too. In-process PaneWatch, as the hub runs it.
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { ControlClient } from "../src/tmux/client.js";
import { QUIET_MS } from "../src/watch/audit/timer.js";
import { resolveSettings } from "../src/watch/settings.js";
import { PaneWatch } from "../src/watch/pane-watch.js";
import type { Result } from "./lib/format.js";
import { gated, serverName, startServer } from "./lib/tmux.js";

const PANES = [
  { id: "9a", label: "a line every 200 ms", script: "while :; do echo line; sleep 0.2; done" },
  { id: "9b", label: "flooding (yes)", script: "yes flood" },
  { id: "9c", label: "quiet", script: "true" },
] as const;

export async function audit(quick: boolean): Promise<Result[]> {
  const seconds = quick ? 10 : 30;
  const name = serverName();
  const bench = await startServer({ name, command: gated(name, PANES[0].script) });
  const client = await ControlClient.start({ server: bench.server, session: bench.session, autoContinue: false });
  const watches: PaneWatch[] = [];
  try {
    const panes = [bench.pane];
    for (const p of PANES.slice(1)) {
      const [pane = ""] = await bench.run(["new-window", "-d", "-P", "-F", "#{pane_id}", gated(name, p.script)]);
      panes.push(pane);
    }
    const rests = panes.map(() => 0);
    const last = panes.map(() => -Infinity);
    client.on((event) => {
      if (event.type !== "output") return;
      const i = panes.indexOf(event.paneId);
      if (i < 0) return;
      const now = performance.now();
      if (now - (last[i] ?? 0) >= QUIET_MS) rests[i] = (rests[i] ?? 0) + 1;
      last[i] = now;
    });
    for (const pane of panes) watches.push(await PaneWatch.start(client, pane, resolveSettings({ server: bench.server, key: randomBytes(32), instance: randomBytes(8) })));
    await bench.run(["wait-for", "-S", "go"]);
    await sleep(seconds * 1000);
    const perMinute = (n: number): number => (n * 60) / seconds;
    return PANES.map((p, i) => {
      const stats = watches[i]?.auditStats ?? { audits: 0, heals: 0, unconverged: 0 };
      return {
        id: p.id,
        label: `audit captures/min, ${p.label}`,
        value: perMinute(stats.audits),
        baseline: perMinute(rests[i] ?? 0),
        baselineLabel: "rests after output /min",
        unit: "count",
        better: "lower",
        note: `${seconds} s; ${stats.audits} audits, ${stats.heals} heals, ${stats.unconverged} unconverged`,
      } satisfies Result;
    });
  } finally {
    for (const watch of watches) watch.dispose();
    await client.close();
    await bench.kill();
  }
}
