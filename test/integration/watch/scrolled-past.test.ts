// Rows that scrolled past the emulator's history between two reads of one cursor: the answer cannot
// list them, so it counts them (truncated.rows) and its text says so, through MCP and through the
// shell's `panescope read` alike; raw still has every line.
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_SCROLLBACK } from "../../../src/observe/emulator/screen.js";
import { closeAll, connect, texts, type Capture } from "../../support/mcp-hub.js";
import { textOf } from "../../support/mcp-link.js";
import { daemonLogsOnFailure, shellPlace, type ShellPlace } from "../../support/shell-daemon.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

let place: ShellPlace | undefined;
daemonLogsOnFailure(() => place);

afterEach(async () => {
  await place?.clean();
  place = undefined;
  await closeAll();
  await killAllServers();
});

const LINES = 3 * DEFAULT_SCROLLBACK;
/** Every row the flood changes: "1" (on the pane's first line, line 0) to "flood-done". */
const CHANGED = LINES + 1;
const NOTE = "rows: they scrolled past the history before this read (the raw output has them)";

/** A pane that floods `seq 1 LINES` once Enter is sent to it. */
async function floodPane(test: TestServer): Promise<string> {
  const [pane = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", `stty -echo; read go; seq 1 ${LINES}; echo flood-done; exec sleep 600`]);
  return pane;
}

describe(`${LINES} numbered lines between two reads of one cursor`, () => {
  it("capture_since counts the rows it cannot list (truncated.rows) and says so; raw has every line", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 10, command: "sh" });
    const pane = await floodPane(test);
    const mcp = await connect(test.server);
    // Limits that hold every row: nothing the answer leaves out is theirs.
    const limits = { maxLines: 10_000, maxBytes: 4_000_000 };
    const start = await mcp.capture({ paneId: pane, ...limits });
    await test.run(["send-keys", "-t", pane, "Enter"]);
    // Another reader from the same cursor waits for the end, so the read below holds all of it.
    await mcp.captureUntil(start, (delta) => delta.raw.includes("flood-done") || texts(delta).includes("flood-done"));
    const result = await mcp.call("capture_since", { cursor: start.cursor, ...limits });
    const delta = result.structuredContent as unknown as Capture;

    expect(delta.raw.split("\n").filter((line) => /^\d+$/.test(line))).toHaveLength(LINES);
    expect(delta.missed).toBe(false);
    // The rows are the newest lines the emulator still held; every older one is counted.
    const first = delta.rows[0] ?? { line: -1, text: "" };
    expect(first.text).toBe(String(first.line + 1));
    expect(texts(delta).at(-1)).toBe("flood-done");
    expect(delta.truncated.rows).toBe(first.line);
    expect(delta.rows.length + delta.truncated.rows).toBe(CHANGED);
    expect(textOf(result)).toContain(`\ncut ${delta.truncated.rows} ${NOTE}\n`);
  });

  it("panescope read says it too, and --json counts it", { timeout: 90_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 10, command: "sh" });
    const pane = await floodPane(test);
    place = shellPlace(test.name);
    const shell = place;
    const read = async (args: string[]): Promise<string> => {
      const run = await shell.run(["read", pane, ...args]);
      expect(run.exitCode, run.stderr).toBe(0);
      return run.stdout;
    };
    const cursor = (JSON.parse(await read(["--json"])) as Capture).cursor;
    await test.run(["send-keys", "-t", pane, "Enter"]);
    await waitFor(async () => (JSON.parse(await read(["--cursor", cursor, "--json"])) as Capture).raw.includes("flood-done"), 30_000, "the flood's end");
    const delta = JSON.parse(await read(["--cursor", cursor, "--json"])) as Capture;
    expect(delta.rows.length + delta.truncated.rows).toBe(CHANGED);
    expect(delta.truncated.rows).toBeGreaterThan(0);
    const text = await read(["--cursor", cursor]);
    expect(text).toContain(`\ncut ${delta.truncated.rows} ${NOTE}\n`);
  });
});
