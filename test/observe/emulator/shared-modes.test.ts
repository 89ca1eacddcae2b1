// Tab stops and the scroll region as tmux keeps them: once per pane, not once per xterm buffer.
import { describe, expect, it } from "vitest";
import { Screen } from "../../../src/observe/emulator/screen.js";

async function drawn(cols: number, rows: number, ...writes: Array<string | [number, number]>): Promise<string[]> {
  const screen = new Screen({ cols, rows });
  for (const write of writes) {
    if (typeof write === "string") screen.write(write);
    else screen.resize(...write);
  }
  await screen.flush();
  const out = screen.visibleRows();
  screen.dispose();
  return out;
}

describe("shared modes", () => {
  it("tab stops set in the normal screen hold in the alternate screen, and back", async () => {
    expect(await drawn(20, 2, "\x1b[3g\x1b[5G\x1bH\r\x1b[?1049ha\tb")).toEqual(["a   b", ""]);
    expect(await drawn(20, 2, "\x1b[?1049h\x1b[3g\x1b[5G\x1bH\x1b[?1049l\ra\tb")).toEqual(["a   b", ""]);
  });

  it("a width change resets the stops to every 8 columns, as tmux does; a height change keeps them", async () => {
    expect(await drawn(20, 2, "\x1b[3g\x1b[5G\x1bH", [30, 2], "\ra\tb")).toEqual(["a       b", ""]);
    expect(await drawn(20, 2, "\x1b[3g\x1b[5G\x1bH", [20, 3], "\ra\tb")).toEqual(["a   b", "", ""]);
  });

  it("a scroll region set in the alternate screen still holds after leaving it", async () => {
    expect(await drawn(10, 5, "\x1b[?1049h\x1b[2;3r\x1b[?1049l\x1b[3;1Ha\r\nb\r\nc")).toEqual(["", "b", "c", "", ""]);
  });

  it("leaving with 1049 an alternate screen entered with 1047 keeps the cursor; entered with 1049, restores it", async () => {
    expect(await drawn(10, 4, "\x1b[2;3H\x1b[?1047h\x1b[4;5H\x1b[?1049lX")).toEqual(["", "", "", "    X"]);
    expect(await drawn(10, 4, "\x1b[2;3H\x1b[?1049h\x1b[4;5H\x1b[?1049lX")).toEqual(["", "  X", "", ""]);
  });

  it("backspace at the first column of a wrapped line goes to the end of the line above, as in tmux, also after a reset", async () => {
    const wrapped = `${"0".repeat(25)}\b\b\b\b\b\b\bX`;
    expect(await drawn(20, 3, wrapped)).toEqual(["000000000000000000X0", "00000", ""]);
    // tmux knows no DECRST 45; RIS resets xterm's modes, not tmux's rule.
    expect(await drawn(20, 3, `\x1b[?45l\x1bc${wrapped}`)).toEqual(["000000000000000000X0", "00000", ""]);
    // Just past the last column, backspace goes to the last column.
    expect(await drawn(20, 2, `${"0".repeat(20)}\bX`)).toEqual(["0000000000000000000X", ""]);
  });
});
