// Sequences tmux does not know draw nothing in the replica either. Each expectation is what tmux
// 3.3a showed for the same bytes (capture-pane -p, #{cursor_x},#{cursor_y}); 3.2a–3.7c share its CSI table.
import { describe, expect, it } from "vitest";
import { Screen } from "../../../src/observe/emulator/screen.js";

async function drawn(bytes: string): Promise<{ rows: string[]; cursor: [number, number] }> {
  const screen = new Screen({ cols: 40, rows: 6 });
  screen.write(bytes);
  await screen.flush();
  const { cursorX, cursorY } = screen.snapshot();
  return { rows: screen.visibleRows().slice(0, 3), cursor: [cursorX, cursorY] };
}

describe("sequences tmux does not know", () => {
  it("CHT (CSI I) moves nothing; CBT (CSI Z), which tmux knows, still moves back", async () => {
    expect(await drawn("abcdefghijklmnopqrstuvwxyz\r\x1b[2I1\x1b[3Z2\x1b[5I3")).toEqual({ rows: ["23cdefghijklmnopqrstuvwxyz", "", ""], cursor: [2, 0] });
  });

  it("HPR (CSI a) and VPR (CSI e) move nothing; HPA (CSI `) and VPA (CSI d) do", async () => {
    expect(await drawn("\x1b[5GA\x1b[3dB\x1b[10`C\x1b[2aD\x1b[2eE")).toEqual({ rows: ["    A", "", "     B   CDE"], cursor: [12, 2] });
  });

  it("DECSTR (CSI ! p) keeps origin mode, the scroll region and insert mode", async () => {
    expect((await drawn("\x1b[3;6r\x1b[?6h\x1b[4h\x1b[!p\x1b[1;1Hxyz")).rows).toEqual(["", "", "xyz"]);
  });

  it("selective erase (DECSCA, CSI ? J, CSI ? K) erases nothing", async () => {
    expect((await drawn('abc\x1b[1"qprot\x1b[0"q\x1b[?2J')).rows[0]).toBe("abcprot");
    expect((await drawn("abc\x1b[1;3H\x1b[?2K\x1b[?1KY")).rows[0]).toBe("abY");
  });

  it("column scrolls and edits (SL, SR, DECIC, DECDC) change no cell", async () => {
    expect((await drawn("abcdef\r\nghijkl\x1b[1;3H\x1b[2 @\x1b[2 A\x1b[2'}\x1b[1'~X")).rows).toEqual(["abXdef", "ghijkl", ""]);
  });
});
