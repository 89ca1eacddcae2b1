// The headless screen: absolute line numbers, history, alternate buffer, styles.
import { describe, expect, it } from "vitest";
import { Screen } from "../../../src/observe/emulator/screen.js";

async function written(screen: Screen, data: string): Promise<void> {
  screen.write(data);
  await screen.flush();
}

function lines(count: number, from = 0): string {
  return Array.from({ length: count }, (_, i) => `line ${from + i}`).join("\r\n");
}

describe("Screen", () => {
  it("modes() names the scroll region, autowrap, insert mode and tab stops a program set, for a recording that starts now", async () => {
    const screen = new Screen({ cols: 20, rows: 6 });
    expect(screen.modes()).toEqual({ scrollTop: 0, scrollBottom: 5, modes: { origin: false, wrap: true, insert: false, cursorVisible: true }, tabs: [8, 16] });
    await written(screen, "\x1b[2;4r\x1b[?7l\x1b[4h\x1b[3g\x1b[6G\x1bH\x1b[?25l");
    expect(screen.modes()).toEqual({ scrollTop: 1, scrollBottom: 3, modes: { origin: false, wrap: false, insert: true, cursorVisible: false }, tabs: [5] });
  });

  it("numbers lines absolutely, so screen row 0 follows the scroll", async () => {
    const screen = new Screen({ cols: 20, rows: 4 });
    await written(screen, lines(10));
    expect(screen.top).toBe(6);
    expect(screen.visibleRows()).toEqual(["line 6", "line 7", "line 8", "line 9"]);
    expect(screen.lineText(2)).toBe("line 2");
  });

  it("rows as displayed keep the cursor row's blanks up to the cursor, and only those", async () => {
    const screen = new Screen({ cols: 20, rows: 4 });
    await written(screen, "result   \r\n>>> ");
    expect(screen.visibleRows()).toEqual(["result", ">>>", "", ""]);
    expect(screen.displayedRows()).toEqual(["result", ">>> ", "", ""]);
    await written(screen, "x\x1b[3D"); // cursor back inside the text: nothing to add
    expect(screen.displayedRows()).toEqual(["result", ">>> x", "", ""]);
    await written(screen, "\x1b[4;6H"); // cursor on a blank row
    expect(screen.displayedRows()[3]).toBe("     ");
  });

  it("a row a soft wrap continues is kept as printed for matching: a blank at the wrap stays, a wide character's filler does not", async () => {
    const screen = new Screen({ cols: 10, rows: 5 });
    await written(screen, "abcdefghi xyz\r\n123456789日本\r\nend");
    expect(screen.displayedRows()).toEqual(["abcdefghi", "xyz", "123456789", "日本", "end"]);
    expect(screen.wrapTails()).toEqual(["abcdefghi ", undefined, "123456789", undefined, undefined]);
  });

  it("a flush with nothing queued resolves before the next timer, one with queued data after it is applied", async () => {
    const screen = new Screen({ cols: 20, rows: 4 });
    await written(screen, "ready");
    const order: string[] = [];
    const timer = new Promise((resolve) => setTimeout(resolve, 0)).then(() => order.push("timer"));
    await screen.flush().then(() => order.push("idle flush"));
    await timer;
    screen.write("\r\nmore");
    await screen.flush();
    expect(order).toEqual(["idle flush", "timer"]);
    expect(screen.visibleRows()).toEqual(["ready", "more", "", ""]);
  });

  it("keeps line numbers after the scrollback is trimmed", async () => {
    const screen = new Screen({ cols: 20, rows: 4, scrollback: 5 });
    await written(screen, lines(5000));
    expect(screen.top).toBe(4996);
    expect(screen.firstLine).toBe(4991);
    expect(screen.lineText(4991)).toBe("line 4991");
    expect(screen.lineText(4990)).toBeUndefined();
    expect(screen.rowText(3)).toBe("line 4999");
  });

  it("keeps every line's number when the screen is erased with the scrollback full (ED disposes markers on the rows it erases)", async () => {
    const screen = new Screen({ cols: 20, rows: 4, scrollback: 5 });
    await written(screen, `${lines(40)}\r\n`);
    const seen = new Map<number, string>();
    for (let n = 0; n < 6; n++) {
      // `clear` without its CSI 3J, then lines: each erase comes just before a trim.
      await written(screen, `\x1b[H\x1b[2Jcleared ${n}\r\n${lines(5, 100 + 10 * n)}\r\n`);
      for (let line = screen.firstLine; line < screen.top; line++) {
        const text = screen.lineText(line);
        expect(text, `line ${line} after clear ${n}`).toBe(seen.get(line) ?? text);
        seen.set(line, text ?? "");
      }
    }
    expect(screen.lineText(screen.top - 1)).toBe("line 151");
  });

  it("a line deleted or scrolled off inside the screen with no history yet trims nothing (CSI M, CSI S, CSI T, CSI L)", async () => {
    // xterm moved the numbering marker (then on the bottom row) with the deleted line: CSI M made
    // top 1 and every row's number shift, and a reader was told missed: overflow (tmux 3.3a: top 0).
    const screen = new Screen({ cols: 20, rows: 10 });
    await written(screen, "a1\r\na2\r\na3\r\na4\r\na5\x1b[2;1H\x1b[M");
    expect(screen.top).toBe(0);
    expect(screen.firstLine).toBe(0);
    expect(screen.visibleRows().slice(0, 4)).toEqual(["a1", "a3", "a4", "a5"]);
    await written(screen, "\x1b[2S\x1b[T\x1b[3;1H\x1b[2L");
    expect([screen.top, screen.firstLine]).toEqual([0, 0]);
    // Real scrolls still count, and a trim still moves the first line held.
    const small = new Screen({ cols: 20, rows: 4, scrollback: 5 });
    await written(small, `\x1b[M\x1b[S${lines(20)}\x1b[2;1H\x1b[M\x1b[S`);
    expect([small.top, small.firstLine]).toEqual([16, 11]);
    expect(small.lineText(11)).toBe("line 11");
  });

  it("counts a huge single write of newlines exactly", async () => {
    const screen = new Screen({ cols: 10, rows: 3, scrollback: 2 });
    await written(screen, "x" + "\r\n".repeat(100_000) + "end");
    expect(screen.top).toBe(100_000 - 2);
    expect(screen.rowText(2)).toBe("end");
  });

  it("freezes top while the alternate screen is shown and restores the normal one", async () => {
    const screen = new Screen({ cols: 20, rows: 3 });
    await written(screen, lines(5));
    const top = screen.top;
    await written(screen, "\x1b[?1049h\x1b[Hfull screen");
    expect(screen.alternate).toBe(true);
    expect(screen.top).toBe(top);
    expect(screen.rowText(0)).toBe("full screen");
    await written(screen, "\x1b[?1049l");
    expect(screen.alternate).toBe(false);
    expect(screen.visibleRows()).toEqual(["line 2", "line 3", "line 4"]);
  });

  it("clearing the scrollback (clear's CSI 3J, reset's ESC c) never moves line numbers back", async () => {
    const screen = new Screen({ cols: 20, rows: 4, scrollback: 100 });
    await written(screen, lines(10));
    expect(screen.top).toBe(6);
    await written(screen, "\x1b[H\x1b[2J\x1b[3J");
    expect(screen.top).toBe(6);
    expect(screen.firstLine).toBe(6);
    expect(screen.visibleRows()).toEqual(["", "", "", ""]);
    await written(screen, `after\r\n${lines(6)}`);
    expect(screen.top).toBe(9);
    expect(screen.lineText(6)).toBe("after");
    await written(screen, "\x1bc");
    expect(screen.top).toBe(9);
    expect(screen.firstLine).toBe(9);
    expect(screen.visibleRows()).toEqual(["", "", "", ""]);
    // Numbering goes on from there, and trimming is still counted.
    await written(screen, lines(150));
    expect(screen.top).toBe(9 + 146);
    expect(screen.visibleRows()).toEqual(["line 146", "line 147", "line 148", "line 149"]);
    expect(screen.lineText(screen.top - 1)).toBe("line 145");
  });

  it("CSI 3J on the alternate screen leaves the normal screen's numbering alone", async () => {
    const screen = new Screen({ cols: 20, rows: 4, scrollback: 100 });
    await written(screen, lines(10));
    await written(screen, "\x1b[?1049h\x1b[3J\x1b[Hfull screen");
    expect(screen.top).toBe(6);
    await written(screen, "\x1b[?1049l");
    expect(screen.top).toBe(6);
    expect(screen.visibleRows()).toEqual(["line 6", "line 7", "line 8", "line 9"]);
    expect(screen.lineText(0)).toBe("line 0");
  });

  it("a resize while the alternate screen is shown trims nothing from the normal one's numbering", async () => {
    const screen = new Screen({ cols: 30, rows: 4, scrollback: 100 });
    await written(screen, `${Array.from({ length: 10 }, (_, i) => `line ${i} ${"x".repeat(20)}`).join("\r\n")}\r\n`);
    expect(screen.firstLine).toBe(0);
    await written(screen, "\x1b[?1049h\x1b[Hfull screen");
    // xterm reflows the normal buffer at once, behind the alternate one: each line now takes two rows.
    screen.resize(15, 4);
    await written(screen, "\x1b[?1049l");
    expect(screen.firstLine).toBe(0);
    await written(screen, "after\r\n");
    expect(screen.firstLine).toBe(0);
    expect(screen.lineText(0)).toBe("line 0 xxxxxxxx");
  });

  it("continues numbering after its predecessor when given a line base", async () => {
    const screen = new Screen({ cols: 20, rows: 3, lineBase: 100 });
    await written(screen, lines(4));
    expect(screen.top).toBe(101);
    expect(screen.lineText(100)).toBe("line 0");
  });

  it("reads rows at the new width after a shrink", async () => {
    const screen = new Screen({ cols: 20, rows: 3 });
    await written(screen, "\x1b[?7l0123456789abcdefghij");
    screen.resize(10, 3);
    expect(screen.rowText(0).length).toBeLessThanOrEqual(10);
  });

  it("reports colours as sparse style runs and as SGR text", async () => {
    const screen = new Screen({ cols: 20, rows: 2 });
    await written(screen, "plain \x1b[1;31mred\x1b[0m \x1b[48;2;255;136;0mrgb\x1b[0m");
    const snap = screen.snapshot();
    expect(snap.lines[0]).toBe("plain red rgb");
    expect(snap.styles).toEqual([
      { row: 0, start: 6, end: 9, fg: { kind: "palette", index: 1 }, bold: true },
      { row: 0, start: 10, end: 13, bg: { kind: "rgb", rgb: 0xff8800 } },
    ]);
    expect(screen.visibleRowsAnsi()[0]).toBe("plain \x1b[0;1;31mred\x1b[0m \x1b[0;48;2;255;136;0mrgb\x1b[0m");
  });

  it("keeps hidden text (SGR 8) as text, marked hidden, and says so in SGR", async () => {
    const screen = new Screen({ cols: 20, rows: 2 });
    await written(screen, "pw \x1b[8msecret\x1b[0m.");
    const snap = screen.snapshot();
    expect(snap.lines[0]).toBe("pw secret.");
    expect(snap.styles).toEqual([{ row: 0, start: 3, end: 9, hidden: true }]);
    expect(screen.visibleRowsAnsi()[0]).toBe("pw \x1b[0;8msecret\x1b[0m.");
  });

  it("does not underline an OSC 8 link's text (xterm reports it underlined, tmux keeps no attribute), unless SGR 4 did", async () => {
    const screen = new Screen({ cols: 30, rows: 2 });
    await written(screen, "\x1b]8;;https://example.com\x1b\\site\x1b]8;;\x1b\\ \x1b[4m\x1b]8;;https://x.org\x1b\\both\x1b]8;;\x1b\\\x1b[24m");
    const snap = screen.snapshot();
    expect(snap.lines[0]).toBe("site both");
    expect(snap.styles).toEqual([{ row: 0, start: 5, end: 9, underline: true }]);
    expect(screen.visibleRowsAnsi()[0]).toBe("site \x1b[0;4mboth\x1b[0m");
  });

  it("keeps blink, overline, an underline's style and colour, also under a link (xterm reports a link's underline dashed)", async () => {
    const screen = new Screen({ cols: 30, rows: 2 });
    await written(screen, "\x1b[5;53mbo\x1b[0m \x1b[4:3;58:5:9m\x1b]8;;https://x.org\x1b\\curl\x1b]8;;\x1b\\\x1b[0m \x1b[4:2;58;2;1;2;3mdd\x1b[0m");
    expect(screen.snapshot().styles).toEqual([
      { row: 0, start: 0, end: 2, overline: true, blink: true },
      { row: 0, start: 3, end: 7, underline: true, underlineStyle: "curly", underlineColour: { kind: "palette", index: 9 } },
      { row: 0, start: 8, end: 10, underline: true, underlineStyle: "double", underlineColour: { kind: "rgb", rgb: 0x010203 } },
    ]);
    expect(screen.visibleRowsAnsi()[0]).toBe("\x1b[0;5;53mbo\x1b[0m \x1b[0;4:3;58:5:9mcurl\x1b[0m \x1b[0;4:2;58:2::1:2:3mdd\x1b[0m");
  });

  it("measures wide characters with unicode 11 widths", async () => {
    const screen = new Screen({ cols: 10, rows: 2 });
    await written(screen, "日本x");
    expect(screen.cursorX).toBe(5);
  });
});

describe("Screen.lookAtRows", () => {
  const rowsThat = (look: (y: number) => boolean, rows: number): number[] => Array.from({ length: rows }, (_, y) => y).filter(look);

  it("names the rows a parse changed since the last look, and only those", async () => {
    const screen = new Screen({ cols: 20, rows: 4 });
    expect(rowsThat(screen.lookAtRows(), 4)).toEqual([0, 1, 2, 3]); // the first look knows nothing
    await written(screen, "one\r\ntwo\r\nthree");
    expect(rowsThat(screen.lookAtRows(), 4)).toEqual([0, 1, 2]);
    expect(rowsThat(screen.lookAtRows(), 4)).toEqual([]);
    await written(screen, "!"); // a keystroke's echo: its row
    expect(rowsThat(screen.lookAtRows(), 4)).toEqual([2]);
    screen.write("\x1b[1;1Hx");
    await written(screen, "\x1b[2;1Hy");
    // Two parses: both rows, and the row the cursor left (xterm counts it in every parse).
    expect(rowsThat(screen.lookAtRows(), 4)).toEqual([0, 1, 2]);
  });

  it("names every row after a scroll, a reset or a resize", async () => {
    const screen = new Screen({ cols: 20, rows: 4 });
    await written(screen, "a\r\nb\r\nc\r\nd");
    screen.lookAtRows();
    await written(screen, "\r\ne");
    expect(rowsThat(screen.lookAtRows(), 4)).toEqual([0, 1, 2, 3]);
    await written(screen, "\x1bc");
    expect(rowsThat(screen.lookAtRows(), 4)).toEqual([0, 1, 2, 3]);
    screen.resize(10, 4);
    expect(rowsThat(screen.lookAtRows(), 4)).toEqual([0, 1, 2, 3]);
  });

  it("reads many lines (and whether each is blank) in one go as lineText reads each: history, screen, trimmed, under the alternate screen", async () => {
    const screen = new Screen({ cols: 20, rows: 4, scrollback: 6 });
    const same = (): void => {
      const read = screen.lineReader();
      const blank = screen.blankReader();
      for (let line = screen.firstLine - 3; line < screen.top + screen.rows + 3; line++) {
        const text = screen.lineText(line);
        expect(read(line), `line ${line}`).toBe(text);
        expect(blank(line), `line ${line}: blank`).toBe(text === undefined ? undefined : text === "");
      }
    };
    await written(screen, lines(30));
    same();
    await written(screen, "\x1b[?1049h\x1b[Halt 1\r\nalt 2");
    same();
    await written(screen, "\x1b[?1049l\x1b[2J\x1b[3J");
    same();
  });
});

describe("a screen whose emulator fails", () => {
  it("stops parsing and says so once, instead of throwing out of write (xterm 6.0: ED 1 in the last cell, no history)", async () => {
    const failures: unknown[] = [];
    const screen = new Screen({ cols: 12, rows: 5, onFailure: (error) => failures.push(error) });
    await written(screen, "before");
    const applied: string[] = [];
    screen.write("\x1b[5;12H\x1b[1J", () => applied.push("failing write"));
    screen.write("after", () => applied.push("next write"));
    await screen.flush();
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toMatch(/TypeError/);
    expect(applied).toEqual(["failing write", "next write"]); // callbacks still run, in order
    expect(screen.visibleRows()[0]).toBe("before"); // nothing parsed after the failure
  });

  it("also when xterm throws while resizing (found by fuzzing: its Buffer.resize after these)", async () => {
    const failures: unknown[] = [];
    const screen = new Screen({ cols: 8, rows: 2, scrollback: 0, onFailure: (error) => failures.push(error) });
    await written(screen, "世界\x1b[99b\x1b[?6h\r\n");
    screen.resize(2, 4);
    await written(screen, "\x1b[1J");
    screen.resize(8, 5);
    await written(screen, "\r\n");
    expect(failures).toHaveLength(0);
    screen.resize(5, 4);
    expect(failures).toHaveLength(1);
    expect((failures[0] as Error).stack).toMatch(/resize/);
  });
});
