// Skipping a plain-text flood's doomed lines: the plan (pure), and a screen that skips against one
// that parses every byte, over random streams and random chunkings. They must end identical.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { planFloodSkip, type SkipStart } from "../../../src/observe/emulator/flood-skip.js";
import { PaneObserver } from "../../../src/observe/pane/observer.js";
import { Screen } from "../../../src/observe/emulator/screen.js";
import { PLAIN_DELAY_MS, SKIP_BACKLOG, SKIP_SCAN_BYTES } from "../../../src/observe/emulator/scheduler.js";
import { prng } from "../../support/prng.js";

const bytes = (text: string): Uint8Array => Buffer.from(text, "latin1");
const at = (x: number, y: number, wraparound = true): SkipStart => ({ x, y, cols: 10, rows: 3, wraparound });

describe("planFloodSkip", () => {
  it("skips up to the last CR LF that still leaves `keep` scrolls, counting the scrolls it skips", () => {
    // Cursor on the bottom row: every LF scrolls. 10 lines, keep 4: resume after line 6's CR LF.
    const lines = Array.from({ length: 10 }, (_, i) => `l${i}\r\n`).join("");
    const plan = planFloodSkip([bytes(lines)], at(0, 2), 4);
    expect(plan).toEqual({ pieces: 1, resume: { piece: 0, offset: lines.indexOf("l6"), scrolls: 6, replay: new Uint8Array() } });
  });

  it("counts rows the cursor walks down before the first scroll, and wraps of long lines", () => {
    // From row 0: two LFs walk to the bottom; then 25 characters wrap twice (three rows) on 10 columns.
    const text = "a\r\nb\r\n" + "x".repeat(25) + "\r\n" + "c\r\n".repeat(6);
    const plan = planFloodSkip([bytes(text)], at(0, 0), 3);
    // Scrolls: 2 wraps + 1 LF for the long line, then one per short line (6): 9; keep 3 → cut after 6.
    expect(plan.resume?.scrolls).toBe(6);
    expect(text.slice(plan.resume?.offset)).toBe("c\r\n".repeat(3));
  });

  it("without wraparound a long line overwrites its last column instead of wrapping", () => {
    const text = "x".repeat(25) + "\r\n" + "c\r\n".repeat(5);
    expect(planFloodSkip([bytes(text)], at(0, 2, false), 3).resume?.scrolls).toBe(3);
    expect(planFloodSkip([bytes(text)], at(0, 2, true), 3).resume?.scrolls).toBe(5);
  });

  it("a pending wrap is dropped by a LF, and a cut needs column 0", () => {
    // x = cols (wrap pending): "\n" goes down and to the last column, so no cut there; "\r\n" cuts.
    const text = "\n" + "\r\nz".repeat(8) + "\r\n";
    const plan = planFloodSkip([bytes(text)], at(10, 2), 2);
    // Ten scrolls in all; the last two are kept.
    expect(plan.resume?.scrolls).toBe(8);
    expect(text.slice(plan.resume?.offset)).toBe("z\r\nz\r\n");
    expect(planFloodSkip([bytes("\n".repeat(9))], at(10, 2), 2)).toEqual({ pieces: 1 });
  });

  it("stops before the first piece that is not plain text, and plans only within whole pieces", () => {
    const plain = bytes("p\r\n".repeat(8));
    const escape = bytes("\x1b[2;1Hmoved\r\n".repeat(20));
    const plan = planFloodSkip([plain, escape, plain], at(0, 2), 3);
    expect(plan).toEqual({ pieces: 1, resume: { piece: 0, offset: 3 * 5, scrolls: 5, replay: new Uint8Array() } });
    expect(planFloodSkip([escape, plain], at(0, 2), 3)).toEqual({ pieces: 0 });
    expect(planFloodSkip([bytes("é\r\n".repeat(9))], at(0, 2), 3)).toEqual({ pieces: 0 });
    expect(planFloodSkip([bytes("tab\there\r\n".repeat(9))], at(0, 2), 3)).toEqual({ pieces: 0 });
  });

  it("walks colour (SGR) and erase-in-line escapes as moving no cursor, and replays the colours since the last reset", () => {
    const lines = ["\x1b[1ma\x1b[K", "\x1b[31mb", "\x1b[0;32mc", "\x1b[4md\x1b[2K", "e", "f", "g"];
    const text = lines.join("\r\n") + "\r\n";
    const plan = planFloodSkip([bytes(text)], at(0, 2), 3);
    // Seven scrolls, as plain lines would make; resume after the fourth line.
    expect(plan.resume?.scrolls).toBe(4);
    expect(text.slice(plan.resume?.offset)).toBe("e\r\nf\r\ng\r\n");
    // "\x1b[0;32m" resets everything before it: only it and what came after count.
    expect(Buffer.from(plan.resume?.replay ?? []).toString("latin1")).toBe("\x1b[0;32m\x1b[4m");
    // No reset in the skipped bytes: every colour sequence counts.
    const noReset = planFloodSkip([bytes("\x1b[1mh\r\n\x1b[33mi\r\n" + "j\r\n".repeat(5))], at(0, 2), 3);
    expect(Buffer.from(noReset.resume?.replay ?? []).toString("latin1")).toBe("\x1b[1m\x1b[33m");
  });

  it("follows a sequence cut across pieces, and copies it whole into the replay", () => {
    const text = "\x1b[0;35mk\r\n" + "l\r\n".repeat(6);
    const pieces = [bytes(text.slice(0, 4)), bytes(text.slice(4))];
    const plan = planFloodSkip(pieces, at(0, 2), 3);
    expect(plan.pieces).toBe(2);
    expect(Buffer.from(plan.resume?.replay ?? []).toString("latin1")).toBe("\x1b[0;35m");
  });

  it("stops at any other escape, and at an underline colour, which SGR 0 does not reset whole in xterm", () => {
    const plain = bytes("p\r\n".repeat(8));
    for (const other of ["\x1b[2J", "\x1b[?25l", "\x1b]0;title\x07", "\x1b(0", "\x1b[58;5;3m", "\x1b[4;59m", "\x1b[3\n1m"]) {
      expect(planFloodSkip([bytes(`${other}q\r\n`), plain], at(0, 2), 3), JSON.stringify(other)).toEqual({ pieces: 0 });
    }
  });

  it("finds nothing to skip when the flood is too short or never reaches the bottom row", () => {
    expect(planFloodSkip([bytes("q\r\n".repeat(3))], at(0, 2), 3)).toEqual({ pieces: 1 });
    expect(planFloodSkip([bytes("q\r\n")], at(0, 0), 1)).toEqual({ pieces: 1 });
  });
});

/** A random stream: a prelude that leaves the terminal in some state, a plain flood, an epilogue. */
function stream(random: () => number, cols: number): string {
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const word = (): string => "w".repeat(1 + Math.floor(random() * 6)) + String(Math.floor(random() * 1000));
  const n = (): number => Math.floor(random() * 256);
  // A coloured log's escapes: SGR in its forms (reset by 0, by an empty first parameter, or not at
  // all), erase in line, and now and then an underline colour, which a skip must not go past.
  const colours = (): string =>
    pick([
      `\x1b[3${n() % 8}m`,
      `\x1b[1;3${n() % 8}m`,
      `\x1b[0m`,
      `\x1b[m`,
      `\x1b[;7m`,
      `\x1b[00;4${n() % 8}m`,
      `\x1b[38;5;${n()}m`,
      `\x1b[48;2;${n()};${n()};${n()}m`,
      `\x1b[38:2::${n()}:${n()}:${n()}m`,
      `\x1b[4:3m`,
      `\x1b[24;39;49m`,
      `\x1b[K`,
      `\x1b[1K`,
      `\x1b[2K`,
    ]) + (random() < 0.0005 ? `\x1b[58;5;${n()}m` : "");
  // Some floods colour only their first lines: the colours then in force come from skipped bytes.
  const length = 3000 + Math.floor(random() * 5000);
  const colouredLines = random() < 0.4 ? Math.floor(length / 10) : length;
  let line = 0;
  const plainLine = (): string => {
    const kind = line++ < colouredLines ? random() : 0.1 + random() * 0.2 + (random() < 0.5 ? 0.6 : 0);
    if (kind < 0.1) return ""; // blank line
    if (kind < 0.2) return "y".repeat(cols + Math.floor(random() * 3 * cols)); // wraps
    if (kind < 0.3) return `${word()}\r${word()}`; // overwritten in place
    if (kind < 0.55) return `${colours()}${word()} ${colours()}${word()}${random() < 0.5 ? colours() : ""}`;
    return Array.from({ length: 1 + Math.floor(random() * 8) }, word).join(" ");
  };
  const prelude = [
    pick(["", "\x1b[31;1m", "\x1b[44m", "\x1b[7m"]),
    pick(["", "\x1b[?7l", "\x1b[?7l\x1b[?7h"]), // wraparound off (sometimes back on)
    pick(["", "\x1b[2J\x1b[H", "\x1b[5;3H", "\x1b[999;999H"]),
    pick(["", "partial line with no end", "x".repeat(cols)]), // the last leaves a wrap pending
    pick(["", "\x1b[4h"]), // insert mode
  ].join("");
  const flood = Array.from({ length }, plainLine).join("\r\n") + pick(["\r\n", "", "\r\ntail"]);
  const epilogue = pick(["", "\x1b[0m\x1b[2;2Hafter", "\x1b[32mgreen\r\nmore\r\n"]);
  return prelude + flood + epilogue;
}

function chunks(data: Uint8Array, random: () => number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < data.length; ) {
    const size = random() < 0.05 ? 1 : 1 + Math.floor(random() * 4096);
    out.push(data.subarray(at, at + size));
    at += size;
  }
  return out;
}

function state(screen: Screen): unknown {
  return {
    top: screen.top,
    firstLine: screen.firstLine,
    cursor: [screen.cursorX, screen.cursorY],
    rows: screen.visibleRowsAnsi(),
    history: screen.historyRows(1_000_000),
  };
}

describe("a screen skipping a plain flood", () => {
  it("ends exactly like a screen that parsed every byte (random streams, random chunkings)", async () => {
    let skipped = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const random = prng(seed);
      const size = { cols: 20 + Math.floor(random() * 100), rows: 5 + Math.floor(random() * 40), scrollback: 50 + Math.floor(random() * 300) };
      const data = bytes(stream(random, size.cols));
      const pieces = chunks(data, random);
      // Reference: parsed chunk by chunk as it comes, so its backlog never reaches a skip.
      const parsed = new Screen(size);
      for (const piece of pieces) {
        parsed.write(piece);
        while (parsed.pump());
      }
      // Everything queued first: a backlog, as when a flood outruns the emulator.
      const skipping = new Screen(size);
      for (const piece of pieces) skipping.write(piece);
      await skipping.flush();
      if (skipping.passed.to > skipping.passed.from) skipped++;
      expect(state(skipping), `seed ${seed}`).toEqual(state(parsed));
      expect(parsed.passed, `seed ${seed}`).toEqual({ from: 0, to: 0 });
      parsed.dispose();
      skipping.dispose();
    }
    // The comparison means something only if most streams were skipped in part.
    expect(skipped).toBeGreaterThanOrEqual(36);
  });

  it("skips nothing inside an escape sequence or a UTF-8 character cut across writes", async () => {
    const flood = bytes("n\r\n".repeat(60_000));
    const pieces = Array.from({ length: Math.ceil(flood.length / 4096) }, (_, i) => flood.subarray(i * 4096, (i + 1) * 4096));
    // [cut, whether the flood after it can still be skipped once the parser is back at rest]
    const cuts: Array<[string, boolean]> = [["\x1b[3", true], ["\xe2\x94", true], ["\x1b]0;title ", false]];
    for (const [cut, skips] of cuts) {
      const parsed = new Screen({ cols: 20, rows: 5, scrollback: 100 });
      const skipping = new Screen({ cols: 20, rows: 5, scrollback: 100 });
      // The flood's first bytes finish what this write began: there they are not plain text.
      for (const screen of [parsed, skipping]) screen.write(bytes("start\r\n" + cut));
      for (const piece of pieces) {
        parsed.write(piece);
        while (parsed.pump());
      }
      for (const piece of pieces) skipping.write(piece);
      await skipping.flush();
      expect(state(skipping), JSON.stringify(cut)).toEqual(state(parsed));
      expect(skipping.passed.to > 0, JSON.stringify(cut)).toBe(skips);
    }
  });
});

/** One turn of the event loop (the feeder parses on setImmediate). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("plain text waits for more before it is parsed", () => {
  // Only the delay's timer is faked: the feeder's turns run for real.
  afterEach(() => vi.useRealTimers());

  it("until the delay ends, or until a waiting reader hurries it", async () => {
    // The delay is reckoned from when the data came (performance.now()): fake both clocks.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const screen = new Screen({ cols: 20, rows: 5 });
    // Output nobody waits on yet, under a skip's backlog.
    screen.write(bytes("plain\r\n".repeat(1000)), undefined, false);
    for (let i = 0; i < 5; i++) await turn();
    expect(screen.busy).toBe(true);
    vi.advanceTimersByTime(PLAIN_DELAY_MS + 1);
    await turn();
    expect(screen.busy).toBe(false);

    screen.write(bytes("more\r\n".repeat(1000)), undefined, false);
    await turn();
    expect(screen.busy).toBe(true);
    screen.hurry();
    await turn();
    expect(screen.busy).toBe(false);

    // Anything else is parsed on the next turn, as before.
    screen.write(bytes("\x1b[Hhome\r\n".repeat(1000)), undefined, false);
    await turn();
    expect(screen.busy).toBe(false);
    screen.dispose();
  });

  it("what a skip leaves over waits too, so a flood is skipped a backlog at a time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const screen = new Screen({ cols: 20, rows: 5, scrollback: 10 });
    const reference = new Screen({ cols: 20, rows: 5, scrollback: 10 });
    // More than one skip looks at: the first skip covers part, the rest is under a backlog.
    let lines = "";
    for (let i = 0; lines.length < SKIP_SCAN_BYTES + SKIP_BACKLOG / 2; i++) lines += `line ${i}\r\n`;
    for (let offset = 0; offset < lines.length; offset += 4096) {
      const chunk = bytes(lines.slice(offset, offset + 4096));
      screen.write(chunk, undefined, false);
      reference.write(chunk);
    }
    for (let i = 0; i < 5; i++) await turn();
    // Parsed at once, the rest would be gone by now (it was: half of a `seq` flood got parsed so).
    expect(screen.backlog).toBeGreaterThan(0);
    expect(screen.backlog).toBeLessThan(lines.length - SKIP_SCAN_BYTES + 4096);
    expect(screen.busy).toBe(true);
    vi.advanceTimersByTime(PLAIN_DELAY_MS + 1);
    await turn();
    expect(screen.busy).toBe(false);
    await reference.flush();
    expect(screen.visibleRows()).toEqual(reference.visibleRows());
    expect(screen.historyRows(10)).toEqual(reference.historyRows(10));
    expect(screen.top).toBe(reference.top);
    screen.dispose();
    reference.dispose();
  });

  it("a reader waiting on the pane is answered without the delay", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const pane = new PaneObserver({ identity: { paneId: "%1", panePid: 1, serverPid: 2, serverStart: 3, instance: randomBytes(8) }, cols: 20, rows: 5, key: randomBytes(32) });
    let cursor = (await pane.read()).cursor;
    // Output that comes while the reader waits, and output that came just before it began to wait.
    for (const already of [false, true]) {
      const waiting = pane.waitForChange(cursor, 60_000);
      if (!already) await turn();
      pane.ingest(bytes("news\r\n".repeat(1000) + "last"));
      const delta = await waiting;
      expect(delta.rows.at(-1)?.text, `already ${already}`).toBe("last");
      cursor = delta.cursor;
    }
    pane.dispose();
  });
});
