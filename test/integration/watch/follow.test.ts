// A watched pane that leaves the session panescope attached through keeps being watched: however it
// leaves (break-pane, join-pane, swap-pane, move-window, unlink-window, the session killed while
// its window lives on, panescope's client detached or switched from outside), reads go on, a gap
// is flagged `moved` at most, a pane that printed is never answered with a timeout, `closed` is
// never reported for it, and at rest the screen rebuilt from the answers equals tmux's.
import { afterEach, describe, expect, it } from "vitest";
import { RebuiltScreen, tmuxRows } from "../../support/rebuild.js";
import { closeAll, connect, paneIn, texts, type Capture, type Faults } from "../../support/mcp-hub.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

/** The control client panescope attached (tmux names it after its process). */
async function ourClient(test: TestServer): Promise<string> {
  const [line = ""] = (await test.run(["list-clients", "-F", "#{client_control_mode} #{client_name}"])).filter((l) => l.startsWith("1 "));
  return line.slice(2);
}

/** Moves pane `pane` (in window main:0 beside a second pane, main also has window 1) out of "main". */
const MOVES: Record<string, (test: TestServer, pane: string) => Promise<void>> = {
  "break-pane into another session": async (test, pane) => void (await test.run(["break-pane", "-d", "-s", pane, "-t", "other:"])),
  "join-pane into another session's window": async (test, pane) => void (await test.run(["join-pane", "-d", "-s", pane, "-t", "other:0"])),
  "swap-pane with a pane of another session": async (test, pane) => void (await test.run(["swap-pane", "-d", "-s", pane, "-t", "other:0.0"])),
  "move-window to another session": async (test) => void (await test.run(["move-window", "-d", "-s", "main:0", "-t", "other:"])),
  "swap-window with a window of another session": async (test) => void (await test.run(["swap-window", "-d", "-s", "main:0", "-t", "other:0"])),
  "unlink-window from our session, linked in another": async (test) => {
    await test.run(["link-window", "-d", "-s", "main:0", "-t", "other:"]);
    await test.run(["unlink-window", "-t", "main:0"]);
  },
  "kill-session of our session, the window linked in another": async (test) => {
    await test.run(["link-window", "-d", "-s", "main:0", "-t", "other:"]);
    await test.run(["kill-session", "-t", "main"]);
  },
  "detach-client of panescope's client": async (test) => void (await test.run(["detach-client", "-t", await ourClient(test)])),
  "switch-client of panescope's client to another session": async (test) => void (await test.run(["switch-client", "-c", await ourClient(test), "-t", "other"])),
};

/**
 * Reads until `line` shows. Reads go on: every answer until it arrives is a change (never a
 * timeout), the pane is never called closed, a gap may only be flagged as a move, and the line
 * comes in the output stream unless a gap was flagged (a heal from tmux's screen alone would be
 * output lost unsaid).
 */
async function readUntil(mcp: Faults, rebuilt: RebuiltScreen, delta: Capture, line: string): Promise<Capture> {
  const deltas = await mcp.captureUntil(delta, (x) => texts(x).includes(line) || x.raw.includes(line), 20);
  for (const d of deltas) {
    expect(d.closed).toBe(false);
    expect(d.waitEnded).not.toBe("timeout");
    if (d.missed) expect(d.reason).toBe("moved");
    rebuilt.apply((delta = d));
  }
  expect(deltas.some((d) => d.raw.includes(line)) || deltas.some((d) => d.missed), `"${line}" in the output, or a gap flagged`).toBe(true);
  return delta;
}

/** Reads on until the screen rebuilt from the answers equals tmux's; the pane still open. */
async function expectRebuiltAsTmux(test: TestServer, mcp: Faults, rebuilt: RebuiltScreen, from: Capture, pane: string): Promise<void> {
  let delta = from;
  await waitFor(async () => {
    rebuilt.apply((delta = await mcp.capture({ cursor: delta.cursor })));
    const tmux = tmuxRows(await test.run(["capture-pane", "-p", "-t", pane]));
    return JSON.stringify(rebuilt.rows()) === JSON.stringify(tmux);
  }, 10_000, "the rebuilt screen to equal tmux's");
  expect(delta.closed).toBe(false);
}

describe("following a pane out of the session panescope watches it through", () => {
  for (const [name, move] of Object.entries(MOVES)) {
    it(name, { timeout: 60_000 }, async () => {
      const test = await startServer({ cols: 60, rows: 12, command: "sh", env: { PS1: "$ " } });
      const pane = await paneIn(test, "main");
      await test.run(["split-window", "-d", "-t", "main:0", "sh"]);
      await test.run(["new-window", "-d", "-t", "main:", "sh"]);
      await test.run(["new-session", "-d", "-s", "other", "-x", "60", "-y", "12", "sh"]);
      const mcp = await connect(test.server);
      const rebuilt = new RebuiltScreen();
      let delta: Capture = await mcp.capture({ paneId: pane });
      rebuilt.apply(delta);
      await test.run(["send-keys", "-t", pane, "-l", "echo before-move\n"]);
      for (const d of await mcp.captureUntil(delta, (x) => texts(x).includes("before-move"))) rebuilt.apply((delta = d));

      await move(test, pane);
      await test.run(["send-keys", "-t", pane, "-l", "echo after-move\n"]);
      delta = await readUntil(mcp, rebuilt, delta, "after-move");
      await expectRebuiltAsTmux(test, mcp, rebuilt, delta, pane);
    });
  }
});

/** Moves pane `pane`, alone in a window of "main" since a `break-pane -d`, out of "main". */
const AFTER_BREAK: Record<string, (test: TestServer, pane: string) => Promise<void>> = {
  "move-window to another session": async (test, pane) => void (await test.run(["move-window", "-d", "-s", pane, "-t", "other:"])),
  "join-pane into another session's window": async (test, pane) => void (await test.run(["join-pane", "-d", "-s", pane, "-t", "other:0"])),
  "break-pane into another session": async (test, pane) => void (await test.run(["break-pane", "-d", "-s", pane, "-t", "other:"])),
  "swap-window with a window of another session": async (test, pane) => void (await test.run(["swap-window", "-d", "-s", pane, "-t", "other:0"])),
  "swap-pane with a pane of another session": async (test, pane) => void (await test.run(["swap-pane", "-d", "-s", pane, "-t", "other:0.0"])),
};


describe("following a pane broken out into its own window of the same session, then moved out of it", () => {
  for (const [name, move] of Object.entries(AFTER_BREAK)) {
    it(name, { timeout: 60_000 }, async () => {
      const test = await startServer({ cols: 60, rows: 12, command: "sh", env: { PS1: "$ " } });
      const pane = await paneIn(test, "main");
      await test.run(["split-window", "-d", "-t", "main:0", "sh"]);
      await test.run(["new-session", "-d", "-s", "other", "-x", "60", "-y", "12", "sh"]);
      const mcp = await connect(test.server);
      const rebuilt = new RebuiltScreen();
      let delta: Capture = await mcp.capture({ paneId: pane });
      rebuilt.apply(delta);

      // Into a new window of the same session: our client still sees it; reads go on.
      await test.run(["break-pane", "-d", "-s", pane]);
      await test.run(["send-keys", "-t", pane, "-l", "echo after-break\n"]);
      delta = await readUntil(mcp, rebuilt, delta, "after-break");

      await move(test, pane);
      await test.run(["send-keys", "-t", pane, "-l", "echo after-move\n"]);
      delta = await readUntil(mcp, rebuilt, delta, "after-move");
      // And it stays followed: a later line arrives too.
      await test.run(["send-keys", "-t", pane, "-l", "echo later-on\n"]);
      delta = await readUntil(mcp, rebuilt, delta, "later-on");
      await expectRebuiltAsTmux(test, mcp, rebuilt, delta, pane);
    });
  }
});

describe("a move tmux tells a control client nothing about", () => {
  it("a quiet pane whose window is swapped with another session's is followed, the gap flagged, and its next line arrives", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 60, rows: 12, command: "sh", env: { PS1: "$ " } });
    const pane = await paneIn(test, "main");
    await test.run(["new-session", "-d", "-s", "other", "-x", "60", "-y", "12", "sh"]);
    const mcp = await connect(test.server);
    const rebuilt = new RebuiltScreen();
    let delta: Capture = await mcp.capture({ paneId: pane });
    rebuilt.apply(delta);
    // tmux 3.2a–3.7c: `swap-window` across sessions sends the watching client no event at all, and
    // nothing prints, so no audit looks either: only the session's pane list shows the pane left.
    await test.run(["swap-window", "-d", "-s", "main:0", "-t", "other:0"]);
    delta = await mcp.capture({ cursor: delta.cursor, waitMs: 10_000 });
    expect(delta.waitEnded).not.toBe("timeout");
    expect(delta.missed).toBe(true);
    expect(delta.reason).toBe("moved");
    rebuilt.apply(delta);
    await test.run(["send-keys", "-t", pane, "-l", "echo after-swap\n"]);
    const deltas = await mcp.captureUntil(delta, (x) => x.raw.includes("after-swap"), 20);
    for (const d of deltas) expect(d.missed).toBe(false);
  });
});

/**
 * Where the `seq -f L%g` lines in the raw output of answers do not follow one another. An answer
 * flagged missed may join lines anywhere (raw starts afresh after a gap, maybe mid-line, and one
 * answer can hold two gaps): its lines are not checked, and the stream goes on after the screen it
 * took (its last line there), or after its last raw line. Lines maxBytes cut are not a jump either.
 */
function unflaggedJumps(deltas: readonly Capture[]): string[] {
  const jumps: string[] = [];
  let previous: number | undefined;
  let carry = "";
  const numbers = (lines: readonly string[]): number[] => lines.map((line) => /^L(\d+)$/.exec(line)?.[1]).filter((n) => n !== undefined).map(Number);
  for (const d of deltas) {
    // maxBytes cut the start of raw (truncated.rawChars says how much): it goes on from the cut.
    const cut = d.truncated.rawChars > 0;
    const lines = (cut ? d.raw : carry + d.raw).split("\n");
    carry = lines.pop() ?? "";
    if (cut) previous = undefined;
    if (d.missed) {
      // The row the terminal cursor is in the middle of is the line the stream goes on with.
      const cursorLine = d.screen.top + d.screen.cursorY;
      const partial = d.screen.cursorX > 0 ? d.rows.find((r) => r.line === cursorLine) : undefined;
      const shown = numbers(d.rows.filter((r) => r !== partial).map((r) => r.text));
      previous = shown.length > 0 ? Math.max(...shown) : (numbers(lines).at(-1) ?? previous);
      carry = partial?.text ?? "";
      continue;
    }
    for (const next of numbers(lines)) {
      if (previous !== undefined && next !== previous + 1) jumps.push(`L${previous} then L${next}`);
      previous = next;
    }
  }
  return jumps;
}

describe("a pane that leaves the session and comes back while it prints", () => {
  // tmux 3.2a–3.7c (control.c, control_write_pending): output blocks it queued for our client for a
  // pane that is then out of our session are freed without our read offset moving past them, so once
  // the pane is back every %output of it is that many bytes late and the last ones are never sent.
  // The pane goes out without a word (swap-window with another session's window) and comes back by
  // a join into another window of the session.
  it("its output arrives whole or the gap is flagged moved, never late: the flood's end in the stream, and no old line printed again", { timeout: 90_000 }, async () => {
    const test = await startServer({ cols: 60, rows: 12, command: "sh", env: { PS1: "$ " } });
    const pane = await paneIn(test, "main");
    await test.run(["new-window", "-d", "-t", "main:", "sh"]);
    await test.run(["new-session", "-d", "-s", "other", "-x", "60", "-y", "12", "sh"]);
    const mcp = await connect(test.server);
    const rebuilt = new RebuiltScreen();
    let delta: Capture = await mcp.capture({ paneId: pane });
    rebuilt.apply(delta);
    const deltas: Capture[] = [];
    const read = async (done: (d: Capture) => boolean): Promise<void> => {
      for (const d of await mcp.captureUntil(delta, (x) => done(x), 400, 60_000)) {
        expect(d.closed).toBe(false);
        if (d.missed) expect(d.reason).toBe("moved");
        deltas.push(d);
        rebuilt.apply((delta = d));
      }
    };
    await test.run(["send-keys", "-t", pane, "-l", "seq -f L%g 1 200000; echo flood''-ended\n"]);
    await read((d) => /(^|\n)L\d+\n/.test(d.raw));

    // Away while it prints: tmux drew lines our client was not sent. Then back, into window 1.
    await test.run(["swap-window", "-d", "-s", "main:0", "-t", "other:0"]);
    /** The last line tmux drew (history_size stops at history-limit). */
    const drawn = async (): Promise<number> => Math.max(0, ...(await test.run(["capture-pane", "-p", "-t", pane])).map((row) => Number(/^L(\d+)$/.exec(row)?.[1] ?? 0)));
    const away = await drawn();
    // Or the flood's end, on a machine fast enough to finish it first (the trip still goes out and back).
    await waitFor(async () => (await drawn()) > Math.min(away + 1000, 199_999), 20_000, "the pane to print while away");
    await test.run(["join-pane", "-d", "-s", pane, "-t", "main:1"]);

    const ended = (d: Capture): boolean => d.raw.includes("flood-ended") || texts(d).includes("flood-ended");
    await read(ended);
    expect(unflaggedJumps(deltas)).toEqual([]);
    // The end came in the output stream (from a screen taken after a flagged gap, at most), not
    // only drawn by a heal from tmux's screen while the stream held it back.
    const last = deltas.at(-1);
    expect(last?.raw.includes("flood-ended") === true || last?.missed === true, "flood-ended in the stream, or after a flagged gap").toBe(true);
    expect(deltas.some((d) => d.missed)).toBe(true);

    // What the pane prints next comes as itself, not as old lines tmux held back.
    await test.run(["send-keys", "-t", pane, "-l", "echo after''-return\n"]);
    const before = deltas.length;
    await read((d) => d.raw.includes("after-return"));
    const next = deltas.slice(before).map((d) => d.raw).join("");
    expect(next).not.toMatch(/(^|\n)L\d+/);
    await expectRebuiltAsTmux(test, mcp, rebuilt, delta, pane);
  });
});
