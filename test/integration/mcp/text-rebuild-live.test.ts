// The economy workloads in a real tmux pane, read over MCP as an agent reads them (capture_since
// with waitMs, the cursor taken from the text): the screen rebuilt from the answers' TEXT alone
// equals the one rebuilt from structuredContent at every read, and tmux's `capture-pane` at the end.
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { link, textOf, type Linked } from "../../support/mcp-link.js";
import { RebuiltScreen, TextScreen, tmuxRows } from "../../support/rebuild.js";
import type { Delta } from "../../../src/observe/delta.js";
import { killAllServers, startServer, type TestServer } from "../../support/tmux-fixture.js";

const PROGRAMS = resolve(import.meta.dirname, "../../../bench/programs.mjs");

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
  await killAllServers();
});

interface Workload {
  name: string;
  command: (server: string) => string;
  /** A regex on the final screen: once it shows, the program has drawn its last frame. */
  last?: string;
}

const gated = (server: string, script: string) => `sh -c 'tmux -L ${server} wait-for go; ${script}; tmux -L ${server} wait-for -S done; exec sleep 600'`;
const program = (name: string, tick: number, last: string): Workload => ({ name, command: (server) => gated(server, `node ${PROGRAMS} ${name} ${tick}`), last });

const WORKLOADS: Workload[] = [
  program("progress", 10, "^done$"),
  program("docker-pull", 20, "^Status: Downloaded"),
  program("log", 3, "item 299 in"),
  program("chat", 10, "100 messages"),
  program("sync", 20, "frame 59"),
  // top never ends: after a few frames its delay is set to 1000 s, its last frame stays on the screen.
  { name: "top", command: (server) => `sh -c 'tmux -L ${server} wait-for go; exec top -d 0.2'` },
];

async function run(workload: Workload): Promise<void> {
  const test: TestServer = await startServer({ cols: 80, rows: 24, command: "sleep 600" });
  // The command needs the server's name, known only now: respawn the pane with it.
  await test.run(["respawn-pane", "-k", "-t", test.session, workload.command(test.name)]);
  const mcp = await link(test.server);
  linked.push(mcp);
  const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
  const text = new TextScreen();
  const rows = new RebuiltScreen();
  let reads = 0;
  const read = async (args: Record<string, unknown>): Promise<Delta> => {
    const result = await mcp.call("capture_since", args);
    expect(result.isError, textOf(result)).toBeFalsy();
    const delta = result.structuredContent as unknown as Delta;
    text.apply(textOf(result));
    rows.apply(delta);
    reads++;
    expect(delta.missed, textOf(result)).toBe(false);
    expect(text.rows(), `${workload.name}, read ${reads}:\n${textOf(result)}`).toEqual(rows.rows());
    return delta;
  };
  await read({ paneId: pane });
  let ended = false;
  const done = test.run(["wait-for", "done"]).then(() => (ended = true));
  await test.run(["wait-for", "-S", "go"]);
  if (workload.last === undefined) {
    // top: a few changed answers, then a delay of 1000 s (d) so its last frame stays. SIGSTOP would
    // not do: tmux sends SIGCONT to a pane's process stopped by anything but SIGTTIN/SIGTTOU
    // (server.c, server_child_stopped; seen on 3.3a).
    for (let changes = 0; changes < 6; ) if ((await read({ cursor: text.cursor, waitMs: 5000 })).rows.length > 0) changes++;
    await mcp.call("send_keys", { paneId: pane, text: "d" });
    await mcp.call("wait_for", { paneId: pane, pattern: "^Change delay from" });
    await mcp.call("send_keys", { paneId: pane, text: "1000", enter: true });
    const quiet = await mcp.call("wait_for", { paneId: pane, quietMs: 500 });
    expect(quiet.structuredContent, textOf(quiet)).toMatchObject({ outcome: "quiet" });
  } else {
    while (!ended) await read({ cursor: text.cursor, waitMs: 250 });
    await done;
    const seen = await mcp.call("wait_for", { paneId: pane, pattern: workload.last, timeoutMs: 10_000 });
    expect(seen.structuredContent, textOf(seen)).toMatchObject({ outcome: "matched" });
  }
  await read({ cursor: text.cursor });
  const tmux = tmuxRows(await test.run(["capture-pane", "-p", "-t", pane]));
  // tmux 3.2a counts the status line in new-session -y: the pane may be a row shorter than asked.
  const [height = "0"] = await test.run(["display-message", "-p", "-t", pane, "#{pane_height}"]);
  while (tmux.length < Number(height)) tmux.push("");
  expect(text.rows(), `${workload.name} after ${reads} reads`).toEqual(tmux);
  expect(reads).toBeGreaterThan(2);
}

describe("the screen rebuilt from the text of capture_since answers alone, live", () => {
  it.each(WORKLOADS.map((w) => [w.name, w] as const))("%s: equals the structured rebuild at every read and capture-pane at the end", async (_name, workload) => {
    await run(workload);
  });
});
