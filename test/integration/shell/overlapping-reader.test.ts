// One reader's calls on one pane do not overlap: a second call while the first is in the daemon is
// refused at once (exit 4, "busy", what to do), so the reader never sees output twice nor loses it;
// keys alone (a send without --wait-for) are typed, the cursor left to the running call.
// Before, a `read` during the reader's `wait` started from the same cursor: both showed the same
// lines, and whichever answered last set the reader's cursor.
import { describe, expect, it } from "vitest";
import { waitFor } from "../../support/tmux-fixture.js";
import { serverPerTest, type Run } from "../../support/shell-daemon.js";

const setUp = serverPerTest();

const BUSY = /^panescope: error \(not-allowed\): reader "r" is busy on %0: its panescope wait call \(started \d+ s ago\) has not answered yet, and one reader's calls on a pane must not overlap \(both would answer from its one cursor, the same output twice\)\. Wait for that call to end \(or stop it\), then run this again; for calls at the same time, give each its own reader \(--as NAME\), or pass --cursor$/;

describe("one reader's overlapping calls", () => {
  it("a read, or a send that waits, of a reader whose wait is running is refused as busy; keys alone are typed; other readers go on; after the wait the reader continues past what it showed", { timeout: 60_000 }, async () => {
    const { place } = await setUp();
    expect((await place.run(["read", "%0", "--as", "r"])).exitCode).toBe(0);
    const waiting = place.start(["wait", "%0", "--as", "r", "--for", "^marker-42$", "--timeout", "50000"]);
    // The wait holds the reader once its call is in the daemon: until then a read runs before it (nothing printed yet).
    let refused: Run | undefined;
    await waitFor(
      async () => {
        const read = await place.run(["read", "%0", "--as", "r"]);
        if (read.exitCode !== 0) refused = read;
        return refused !== undefined;
      },
      20_000,
      "a read refused while the reader's wait runs",
    );
    expect(refused?.exitCode).toBe(4);
    expect(refused?.stderr).toMatch(BUSY);
    expect(refused?.stdout).toBe("");
    const sendWaiting = await place.run(["send", "%0", "--as", "r", "--text", "echo nope", "--wait-for", "nope"]);
    expect(sendWaiting.exitCode).toBe(4);
    expect(sendWaiting.stderr).toMatch(BUSY);
    // Another reader is not held by it.
    const other = await place.run(["read", "%0", "--as", "other"]);
    expect(other.exitCode, other.stderr).toBe(0);
    // Keys alone are typed, and leave the reader's cursor to its wait, which shows what they print.
    const typed = await place.run(["send", "%0", "--as", "r", "--text", "echo marker-$((6*7))", "--key", "Enter"]);
    expect(typed.exitCode, typed.stderr).toBe(0);
    const waited = await waiting;
    expect(waited.exitCode, String(waited.stderr)).toBe(0);
    expect(String(waited.stdout)).toContain("marker-42");
    expect(String(waited.stdout)).not.toContain("nope"); // the refused send typed nothing
    // The reader's next read starts after what its wait showed: marker-42 is not shown twice.
    const next = await place.run(["read", "%0", "--as", "r"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stdout).not.toContain("marker-42");
  });
});
