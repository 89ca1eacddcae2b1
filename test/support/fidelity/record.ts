// Records a scenario's control-mode stream and tmux's final screen into golden/streams/.
// Usage: npx tsx test/support/fidelity/record.ts [NAME …]   (no name: every scenario)
// A private tmux server (-L, -f /dev/null) runs the program; a raw `tmux -C attach` client is
// attached before the pane may print (the pane waits on `tmux wait-for go`), so the stored bytes
// are the pane's whole life exactly as tmux sent them.
import { execa } from "execa";
import { parseLayout } from "../../../src/tmux/layout.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../tmux-fixture.js";
import { driverFor, preparePane, scenario, scenarios, type Scenario } from "./scenarios.js";
import { SCREEN_FORMAT, joinLines, paneLines, writeRecording, type RecordedScreen } from "./stream.js";

/** No pane output for this long counts as quiet (the recorder may wait; tests never do). */
const QUIET_MS = 600;

interface RawClient {
  bytes(): Uint8Array;
  /** Milliseconds since the last byte arrived. */
  idleMs(): number;
  close(): Promise<void>;
}

async function attachRaw(test: TestServer, extended: boolean): Promise<RawClient> {
  const proc = execa("tmux", ["-L", test.name, "-C", "attach-session", "-t", `=${test.session}`], {
    shell: false,
    stdin: "pipe",
    buffer: false,
    reject: false,
  });
  const chunks: Buffer[] = [];
  let last = Date.now();
  proc.stdout?.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    last = Date.now();
  });
  const text = (): string => Buffer.concat(chunks).toString("latin1");
  await waitFor(() => text().includes("%session-changed"), 5000, "the control client to attach");
  if (extended) {
    proc.stdin?.write("refresh-client -f pause-after=5\n");
    await waitFor(() => /%end \d+ \d+ 1\n/.test(text()), 5000, "refresh-client to be answered");
  }
  return {
    bytes: () => Buffer.concat(chunks),
    idleMs: () => Date.now() - last,
    close: async () => {
      proc.stdin?.end();
      await proc;
    },
  };
}

async function record(s: Scenario): Promise<void> {
  const pane = preparePane(s);
  const test = await startServer({ cols: s.cols, rows: s.rows, command: pane.command, session: "rec" });
  try {
    const [paneId = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
    const [term = ""] = await test.run(["show-options", "-gv", "default-terminal"]);
    const [version = ""] = await test.run(["-V"]);
    const client = await attachRaw(test, s.extendedOutput === true);
    const d = driverFor(test, paneId);
    await test.run(["wait-for", "-S", "go"]);
    await s.drive(d);

    // Quiet, capture, and check nothing arrived after the capture (else the pair would disagree).
    let state: string[] = [];
    let lines: string[] = [];
    let end = 0;
    for (let attempt = 0; ; attempt++) {
      await waitFor(() => client.idleMs() >= QUIET_MS, 15_000, "the pane to go quiet");
      const before = client.bytes().length;
      lines = await test.run(["capture-pane", "-p", "-t", paneId]);
      state = (await test.run(["display-message", "-p", "-t", paneId, "#{pane_width} #{pane_height} #{cursor_x} #{cursor_y} #{alternate_on}"]))[0]?.split(" ") ?? [];
      await waitFor(() => client.idleMs() >= QUIET_MS, 15_000, "the pane to stay quiet");
      end = client.bytes().length;
      if (end === before) break;
      if (attempt > 5) throw new Error(`${s.name}: the pane never stayed quiet`);
    }
    await s.finish?.(d);
    await client.close();

    // Only what tmux sent up to the capture: finish() (quitting the program) comes after it.
    const kept = paneLines(client.bytes().subarray(0, end), paneId);
    const [cols, rows, cursorX, cursorY, alternate] = state.map(Number) as [number, number, number, number, number];
    const sizes = [{ cols: s.cols, rows: s.rows }];
    for (const line of kept) {
      const text = Buffer.from(line).toString("latin1");
      if (!text.startsWith("%layout-change ")) continue;
      const leaf = parseLayout(text.split(" ")[2] ?? "")?.find((p) => p.paneId === paneId);
      const prev = sizes[sizes.length - 1];
      if (leaf && (leaf.cols !== prev?.cols || leaf.rows !== prev.rows)) sizes.push({ cols: leaf.cols, rows: leaf.rows });
    }
    const screen: RecordedScreen = {
      format: SCREEN_FORMAT,
      name: s.name,
      tmux: version,
      term,
      paneId,
      sizes,
      cols,
      rows,
      cursorX,
      cursorY,
      alternate: alternate === 1,
      lines: Array.from({ length: rows }, (_, y) => (lines[y] ?? "").trimEnd()),
    };
    const ctl = joinLines(kept);
    writeRecording({ name: s.name, ctl, screen });
    process.stdout.write(`${s.name}: ${kept.length} lines, ${ctl.length} bytes, final ${cols}x${rows}, cursor ${cursorX},${cursorY}\n`);
  } finally {
    await test.kill();
    pane.cleanup();
  }
}

const names = process.argv.slice(2);
try {
  for (const s of names.length === 0 ? scenarios : names.map(scenario)) await record(s);
} finally {
  await killAllServers();
}
