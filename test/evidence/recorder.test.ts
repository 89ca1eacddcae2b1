import { describe, expect, it } from "vitest";
import { parseCast } from "../../src/evidence/cast.js";
import { replayCast } from "../../src/evidence/replay.js";
import type { ScreenSnapshot } from "../../src/observe/emulator/snapshot.js";
import { CastRecorder } from "../../src/evidence/recorder.js";
import { Screen } from "../../src/observe/emulator/screen.js";
import { playInXterm, plainXterm, writeTo, xtermCellDifferences, xtermLines } from "../support/cast-xterm.js";

const START: ScreenSnapshot = {
  cols: 20,
  rows: 3,
  cursorX: 2,
  cursorY: 1,
  cursorVisible: true,
  alternate: false,
  lines: ["hello", "$", ""],
  styles: [{ row: 0, start: 0, end: 5, fg: { kind: "palette", index: 1 }, bold: true }],
};

function recorder(gaps: string[] = []): { rec: CastRecorder; text: () => string; tick: (s: number) => void } {
  let now = 100;
  let text = "";
  const rec = new CastRecorder({ clock: () => now, sink: (line) => (text += line), header: { env: { TERM: "screen" } }, onGap: (r) => gaps.push(r) });
  return { rec, text: () => text, tick: (s) => (now += s) };
}

describe("the cast recorder", () => {
  it("starts at 0 s with the pane's size and the screen drawn as output, colours and cursor included", async () => {
    const { rec, text } = recorder();
    rec.start(START);
    const cast = parseCast(text());
    expect(cast.header).toEqual({ version: 2, width: 20, height: 3, env: { TERM: "screen" } });
    expect(cast.events).toHaveLength(1);
    expect(cast.events[0]?.[0]).toBe(0);
    const replayed = await replayCast(cast);
    expect({ lines: replayed.lines, styles: replayed.styles, x: replayed.cursorX, y: replayed.cursorY }).toEqual({ lines: START.lines, styles: START.styles, x: 2, y: 1 });
  });

  it("a row printed to its end leaves the next character to wrap, in the replay as in the pane", async () => {
    const { rec, text, tick } = recorder();
    const full = "012345678901234567中";
    const styles = [{ row: 0, start: 18, end: 20, fg: { kind: "palette", index: 2 } } as const];
    rec.start({ ...START, cursorX: 20, cursorY: 0, lines: [full, "", ""], styles: [...styles] });
    tick(1);
    rec.output(new TextEncoder().encode("next"));
    const replayed = await replayCast(parseCast(text()));
    expect({ lines: replayed.lines, styles: replayed.styles, x: replayed.cursorX, y: replayed.cursorY }).toEqual({ lines: [full, "next", ""], styles, x: 4, y: 1 });
  });

  it("a recording started under a scroll region scrolls that region only, as the pane does", async () => {
    // A program (apt's progress bar, a shell after printf '\e[2;3r') left rows 1–2 as the region.
    const { rec, text, tick } = recorder();
    const start = { ...START, rows: 4, cursorX: 1, cursorY: 2, lines: ["top", "a", "b", "$"], styles: [] };
    rec.start(start, undefined, { scrollTop: 1, scrollBottom: 2, modes: { origin: true } });
    tick(1);
    rec.output(new TextEncoder().encode("x\r\ny\r\n\x1b[1;1HO"));
    const replayed = await replayCast(parseCast(text()));
    expect({ lines: replayed.lines, x: replayed.cursorX, y: replayed.cursorY }).toEqual({ lines: ["top", "O", "", "$"], x: 1, y: 1 });
  });

  it("autowrap off, insert mode and the tab stops in force when the recording starts go on in its replay", async () => {
    const { rec, text, tick } = recorder();
    rec.start({ ...START, cursorX: 0, cursorY: 1, lines: ["hello", "world", ""], styles: [] }, undefined, { modes: { wrap: false, insert: true }, tabs: [3] });
    tick(1);
    rec.output(new TextEncoder().encode("\tX\x1b[3;1H0123456789012345678901234"));
    const replayed = await replayCast(parseCast(text()));
    expect(replayed.lines).toEqual(["hello", "worXld", "01234567890123456784"]);
  });

  it("cells blinking, overlined or underlined double, curly, dotted or dashed in a colour before the recording keep every attribute in its replay", async () => {
    // What a program drew before the recording began: the pane's screen (panescope's replica) and
    // a terminal showing the same bytes; the cast's first event must draw it back cell by cell.
    const drawn = [
      "\x1b[5mblink\x1b[0m \x1b[4:3;58:5:196mcurly red\x1b[0m \x1b[4:2mdouble\x1b[0m",
      "\x1b[4:4;58:2::10:20:30mdotted rgb\x1b[0m \x1b[4:5mdashed\x1b[0m \x1b[4mplain\x1b[0m \x1b[53;1;31moverline\x1b[0m",
      "\x1b[5;4:3;44m blinking curl on blue \x1b[0m",
    ].join("\r\n");
    const live = new Screen({ cols: 60, rows: 4 });
    await new Promise<void>((done) => live.write(drawn, done));
    const pane = plainXterm(60, 4);
    await writeTo(pane, drawn);
    const { rec, text } = recorder();
    rec.start(live.snapshot(), undefined, live.modes());
    const replayed = await playInXterm(parseCast(text()));
    expect(xtermCellDifferences(replayed, pane)).toEqual([]);
    live.dispose();
  });

  it("a recording begun under the alternate screen gives the program back its tab stops when it leaves, in a player keeping stops per buffer", async () => {
    // tmux keeps one set of stops for both screens (and so does the replica); xterm.js one per buffer.
    const live = new Screen({ cols: 30, rows: 3 });
    await new Promise<void>((done) => live.write("\x1b[3g\x1b[5G\x1bH\x1b[11G\x1bH\x1b[1G$ app\r\n\x1b[?1049hfull screen", done));
    const { rec, text, tick } = recorder();
    rec.start(live.snapshot(), live.snapshot("normal"), live.modes());
    tick(1);
    const leave = "\x1b[?1049la\tb\tc";
    rec.output(new TextEncoder().encode(leave));
    await new Promise<void>((done) => live.write(leave, done));
    expect(live.snapshot().lines).toEqual(["$ app", "a   b     c", ""]);
    const cast = parseCast(text());
    expect(xtermLines(await playInXterm(cast))).toEqual(live.snapshot().lines);
    expect((await replayCast(cast)).lines).toEqual(live.snapshot().lines);
    live.dispose();
  });

  it("output keeps its arrival time; a resize to the same size is no event", () => {
    const { rec, text, tick } = recorder();
    rec.start(START);
    tick(0.5);
    rec.output(new TextEncoder().encode(" ok"));
    rec.resize(20, 3);
    tick(0.25);
    rec.resize(30, 4);
    expect(parseCast(text()).events.slice(1)).toEqual([
      [0.5, "o", " ok"],
      [0.75, "r", "30x4"],
    ]);
  });

  it("a reseed is one marker naming the reason, then tmux's screen; its gap is not marked twice", async () => {
    const gaps: string[] = [];
    const { rec, text, tick } = recorder(gaps);
    rec.start(START);
    tick(1);
    rec.screen({ cols: 20, rows: 3, lines: ["after the gap"], cursorX: 0, cursorY: 1 }, "paused");
    rec.gap("paused");
    const cast = parseCast(text());
    expect(cast.events.filter((e) => e[1] === "m")).toEqual([[1, "m", "missed: paused"]]);
    expect(cast.events.at(-1)?.[1]).toBe("o");
    expect(gaps).toEqual([]);
    expect((await replayCast(cast)).lines).toEqual(["after the gap", "", ""]);
  });

  it("a gap without a screen is marked and the caller is asked for tmux's screen", () => {
    const gaps: string[] = [];
    const { rec, text } = recorder(gaps);
    rec.start(START);
    rec.gap("not-streaming");
    expect(parseCast(text()).events.at(-1)).toEqual([0, "m", "missed: not-streaming"]);
    expect(gaps).toEqual(["not-streaming"]);
  });

  it("a screen taken with nothing lost (resync, heal) is drawn without a marker", () => {
    const { rec, text } = recorder();
    rec.start(START);
    rec.screen({ cols: 20, rows: 3, lines: ["x"], cursorX: 0, cursorY: 0 }, "resync");
    expect(parseCast(text()).events.map((e) => e[1])).toEqual(["o", "o"]);
  });
});
