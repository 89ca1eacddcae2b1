// A snapshot taken once the program has exited (`expect exit` then `snapshot`) is its last screen,
// the same as tmux's, on every run. tmux 3.3+ destroys a pane as soon as its process exits, dropping
// what it had not read of the pty, and what it had not yet sent us: the wrapper waits until tmux
// has parsed all the program printed (launch.ts), the session waits for the watch's last audit, and
// that audit's heal keeps the cursor as the program left it (tmux hides a dead pane's cursor).
// Before, under load, a flood's last lines were lost (even in tmux), a snapshot could show the
// flood's middle, and the cursor line flipped between `hidden` and a position, from run to run.
import { describe, expect, it } from "vitest";
import { startPaneSession, type PaneSession } from "../../../src/golden/session.js";

async function afterExit(command: string): Promise<{ ours: string[]; tmux: string[]; cursorVisible: boolean; holds: boolean }> {
  const session: PaneSession = await startPaneSession({ size: { cols: 30, rows: 5 }, command: ["sh", "-c", command] });
  try {
    expect((await session.waitExit(60_000)).code).toBe(0);
    const snapshot = await session.snapshot();
    const tmux = await session.captureTmux();
    const trim = (lines: readonly string[]): string[] => lines.map((line) => line.trimEnd());
    return { ours: trim(snapshot.lines), tmux: trim(tmux.lines), cursorVisible: snapshot.cursorVisible, holds: session.holdsPane };
  } finally {
    await session.close();
  }
}

describe("a snapshot after the program exited", () => {
  it("is tmux's last screen of a flood still coming in when the program exited, on every run", { timeout: 180_000 }, async () => {
    for (let run = 0; run < 3; run++) {
      const { ours, tmux } = await afterExit("seq 1 200000; echo final line");
      expect(ours, `run ${run}`).toEqual(tmux);
      expect(ours.filter((line) => line !== "").at(-1), `run ${run}`).toBe("final line");
    }
  });

  it("keeps the cursor the program left visible when the end's audit heals the screen", { timeout: 60_000 }, async () => {
    // DECSET 1048 (save and restore the cursor) is one of the sequences tmux ignores: the replica's
    // row differs from tmux's, so the audit at the program's end heals it.
    const { ours, tmux, cursorVisible, holds } = await afterExit("printf 'abc\\033[?1048h\\033[5Gxyz\\033[?1048lQ\\n'");
    expect(cursorVisible).toBe(true);
    // Where the pane does not die (the wrapper holds it, tmux 3.2) no audit comes at the end.
    if (!holds) expect(ours).toEqual(tmux);
  });
});
