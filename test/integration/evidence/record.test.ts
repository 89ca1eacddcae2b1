// `panescope record` on a real tmux: the cast of vim, htop and a progress bar replays (parsed, fed
// into a fresh emulator, resizes honoured) to the screen tmux shows, also one begun under a scroll
// region; a gap is marked in the cast.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseCast, type Cast } from "../../../src/evidence/cast.js";
import { replayCast } from "../../../src/evidence/replay.js";
import { record } from "../../../src/record/main.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";
import { pictureDifferences, PROGRESS_BAR, shows, tmuxScreen, vimWithLine } from "../../support/tmux-screen.js";
import { program } from "../../support/programs.js";
import { playInXterm, plainXterm, writeTo, xtermCellDifferences, xtermLines } from "../../support/cast-xterm.js";

const htop = program("htop");

const dir = mkdtempSync(join(tmpdir(), "panescope-record-"));
afterEach(() => killAllServers());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function castOf(file: string): Cast {
  return parseCast(readFileSync(file, "utf8"));
}

/** Records `pane` while `act` runs, until the cast replays to tmux's screen; returns the cast. */
async function recordWhile(test: TestServer, pane: string, name: string, act: () => Promise<void>): Promise<Cast> {
  const file = join(dir, `${name}.cast`);
  const stop = new AbortController();
  const done = record({ server: { socketName: test.name }, paneId: pane, output: file }, stop.signal);
  try {
    await waitFor(() => existsSync(file) && readFileSync(file, "utf8").includes("\n["), 10_000, "the recording's first screen");
    await act();
    // The cast catches up with tmux once every byte tmux had was written: then the screens agree.
    let last = "";
    await waitFor(
      async () => {
        const [ours, theirs] = [await replayCast(castOf(file)), await tmuxScreen(test, pane)];
        const differences = pictureDifferences(ours, theirs);
        last = differences.join("\n");
        return differences.length === 0;
      },
      20_000,
      "the replayed cast to equal tmux's screen",
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${last}`);
    });
  } finally {
    stop.abort();
    await done;
  }
  return castOf(file);
}

/** tmux's visible screen (capture-pane -e) painted into a plain xterm, as tmuxScreen paints it. */
async function tmuxInXterm(test: TestServer, pane: string): Promise<ReturnType<typeof plainXterm>> {
  const [size = ""] = await test.run(["display-message", "-p", "-t", pane, "#{pane_width} #{pane_height}"]);
  const [cols, rows] = size.split(" ").map(Number) as [number, number];
  const lines = await test.run(["capture-pane", "-p", "-e", "-N", "-t", pane]);
  const term = plainXterm(cols, rows);
  await writeTo(term, `\x1b[?7l${lines.slice(0, rows).map((line, y) => `\x1b[${y + 1};1H${line}`).join("")}\x1b[0m`);
  return term;
}

async function paneOf(test: TestServer): Promise<string> {
  const [pane = ""] = await test.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
  return pane;
}


describe("panescope record", () => {
  it("vim with syntax colours, typed text and a resize replays to tmux's screen, the resize as an r event", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 80, rows: 24, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    const cast = await recordWhile(test, pane, "vim", async () => {
      await vimWithLine(test, pane);
      await test.run(["resize-window", "-t", "main", "-x", "90", "-y", "30"]);
      await waitFor(async () => (await test.run(["display-message", "-p", "-t", pane, "#{pane_width}"]))[0] === "90", 10_000, "the resize");
    });
    expect(cast.header).toMatchObject({ version: 2, width: 80, height: 24 });
    expect(cast.events.filter((e) => e[1] === "r").map((e) => e[2])).toEqual(["90x30"]);
    const times = cast.events.map((e) => e[0]);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(cast.events.some((e) => e[1] === "m")).toBe(false);
  });

  it("a recording begun inside vim replays vim's exit to the shell's screen beneath it", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 60, rows: 10, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    await test.run(["send-keys", "-t", pane, "-l", "printf 'before vim \\033[41m   \\033[0m\\n'\n"]);
    await shows(test, pane, "before vim");
    await vimWithLine(test, pane);
    await recordWhile(test, pane, "vim-exit", async () => {
      await test.run(["send-keys", "-t", pane, "-l", ":q!\n"]);
      await waitFor(async () => (await test.run(["display-message", "-p", "-t", pane, "#{alternate_on}"]))[0] === "0", 10_000, "vim to exit");
    });
  });

  it.skipIf(htop.skip)("htop's colours and meters replay to tmux's screen", { timeout: 60_000 }, async () => {
    htop.require();
    const test = await startServer({ cols: 100, rows: 30, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    const cast = await recordWhile(test, pane, "htop", async () => {
      // A 60 s delay: htop draws once and then stands still while the screens are compared.
      await test.run(["send-keys", "-t", pane, "-l", "htop -d 600\n"]);
      await shows(test, pane, "F10");
    });
    expect(cast.header).toMatchObject({ width: 100, height: 30 });
    expect(cast.events.filter((e) => e[1] === "o").length).toBeGreaterThan(1);
    await test.run(["send-keys", "-t", pane, "q"]);
  });

  it("a progress bar redrawn in place replays to its final line, colours included", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 60, rows: 8, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    const cast = await recordWhile(test, pane, "progress", async () => {
      await test.run(["send-keys", "-t", pane, "-l", PROGRESS_BAR]);
      await shows(test, pane, "100%");
      await shows(test, pane, "done");
    });
    const drawn = cast.events.filter((e) => e[1] === "o").map((e) => e[2]).join("");
    expect(drawn).toContain("\r\x1b[36mfetch");
  });

  it("a recording begun under a scroll region a program left replays its scrolling within that region", { timeout: 60_000 }, async () => {
    // A reset (the cast's first event) drops the region: the output after it scrolled the whole screen.
    const test = await startServer({ cols: 60, rows: 10, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    await test.run(["send-keys", "-t", pane, "-l", "printf 'above\\n\\033[3;7r'\n"]);
    await waitFor(async () => (await test.run(["display-message", "-p", "-t", pane, "#{scroll_region_upper},#{scroll_region_lower}"]))[0] === "2,6", 10_000, "the region");
    await recordWhile(test, pane, "region", async () => {
      await test.run(["send-keys", "-t", pane, "-l", "seq 101 112\n"]);
      await shows(test, pane, "112");
    });
  });

  it("blinking cells and curly, double, dotted and dashed underlines in colours on the screen a recording begins with replay cell by cell as tmux holds them", { timeout: 60_000 }, async () => {
    // Overline (SGR 53) is left out: tmux 3.3a's capture-pane -e writes it as "5:3".
    const test = await startServer({ cols: 60, rows: 6, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    const cells = "\\033[5mblink\\033[0m \\033[4:3m\\033[58;5;196mcurly\\033[0m \\033[4:2mdouble\\033[0m \\033[4:4m\\033[58;2;10;20;30mdotted\\033[0m \\033[4:5;44mdashed\\033[0m";
    await test.run(["send-keys", "-t", pane, "-l", `clear; printf '${cells}\\nstyled\\n'\n`]);
    await shows(test, pane, "styled");
    const cast = await recordWhile(test, pane, "styled", async () => undefined);
    expect(xtermCellDifferences(await playInXterm(cast), await tmuxInXterm(test, pane))).toEqual([]);
  });

  it("a recording begun inside a full-screen program replays its output after it leaves with the tab stops tmux kept, in a player keeping stops per buffer", { timeout: 60_000 }, async () => {
    // tmux keeps one set of stops for both screens; xterm.js keeps one per buffer.
    const test = await startServer({ cols: 40, rows: 6, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    const app = "printf '\\033[3g\\033[5G\\033H\\033[11G\\033H\\033[1G\\033[?1049hfull screen'; read x; printf '\\033[?1049la\\tb\\tc\\n'";
    await test.run(["send-keys", "-t", pane, "-l", `clear; ${app}\n`]);
    await shows(test, pane, "full screen");
    // tmux 3.6+ captures a tab written over blanks as one "\t" (docs/tmux-versions.md): laid out at
    // this program's stops (columns 4 and 10) to compare with what a player shows.
    const atStops = (line: string): string => [...line].reduce((out, ch) => (ch === "\t" ? out.padEnd([4, 10].find((stop) => stop > out.length) ?? out.length + 1) : out + ch), "");
    const tmuxLines = async (): Promise<string[]> => (await test.run(["capture-pane", "-p", "-t", pane])).map(atStops);
    const cast = await recordWhile(test, pane, "alt-tabs", async () => {
      await test.run(["send-keys", "-t", pane, "Enter"]);
      await waitFor(async () => (await tmuxLines()).includes("a   b     c"), 15_000, "a, b and c at the program's tab stops");
    });
    expect(xtermLines(await playInXterm(cast))).toEqual(await tmuxLines());
  });

  it("a pane whose program was replaced is marked as missed output, then tmux's new screen follows", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 60, rows: 8, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    const cast = await recordWhile(test, pane, "respawn", async () => {
      await test.run(["send-keys", "-t", pane, "-l", "echo first life\n"]);
      await shows(test, pane, "first life");
      await test.run(["respawn-pane", "-k", "-t", pane, "printf 'second life\\n'; exec sleep 60"]);
      await shows(test, pane, "second life");
    });
    const marker = cast.events.findIndex((e) => e[1] === "m");
    expect(cast.events[marker]?.[2]).toBe("missed: respawned");
    const after = cast.events.slice(marker + 1).filter((e) => e[1] === "o").map((e) => e[2]).join("");
    expect(after).toContain("second life");
  });
});
