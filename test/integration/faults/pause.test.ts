// tmux pauses a pane when panescope's control client falls pause-after seconds behind (%pause):
// the watch re-seeds from tmux's screen, the gap is flagged (missed, paused), and reads go on.
import { afterEach, describe, expect, it } from "vitest";
import { ControlClient, defaultSpawn, type ControlProcess } from "../../../src/tmux/client.js";
import { closeAll, connect, texts } from "../../support/mcp-hub.js";
import { killAllServers, lookFor, startServer, waitFor } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

describe("the control client falls behind", () => {
  it("%pause → re-seed → a delta missed with reason paused → later reads are normal", { timeout: 90_000 }, async () => {
    const test = await startServer({ cols: 60, rows: 10, command: "sh", env: { PS1: "$ " } });
    const [pane = ""] = await test.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
    let proc: ControlProcess | undefined;
    const mcp = await connect(test.server, { client: { pauseAfterSeconds: 1, spawn: (file, args) => (proc = defaultSpawn(file, args)) } });
    const start = await mcp.capture({ paneId: pane });
    const events: string[] = [];
    const stdout = proc?.stdout;
    if (!stdout) throw new Error("the hub did not spawn tmux through the seam");
    stdout.on("data", (chunk: Buffer) => {
      if (chunk.includes("%pause")) events.push("pause");
    });
    // tmux 3.3a stops reading a pane whose only attached clients are control clients that cannot
    // take more (server-client.c), and checks a client's age only when new output is queued; so
    // with our client alone, a stall freezes the pane instead of pausing it. A second, reading
    // control client keeps the pane flowing, and our stalled client then gets %pause within ~1 s.
    const bystander = await ControlClient.start({ server: test.server, session: "main", pauseAfterSeconds: 0 });
    // A flood that lasts until we stop it.
    await test.run(["send-keys", "-t", pane, "-l", "yes flood\n"]);
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", pane])).some((l) => l === "flood"), 5000, "the flood");
    // Stop reading tmux's output long enough for it to age past pause-after (1 s): a real stall,
    // repeated while tmux has not paused us yet (a loaded machine may need more than one).
    for (let attempt = 0; attempt < 5 && !events.includes("pause"); attempt++) {
      stdout.pause();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      stdout.resume();
      await lookFor(() => events.includes("pause"), 2000);
    }
    expect(events).toContain("pause");
    await bystander.close();
    const deltas = await mcp.captureUntil(start, (d) => d.missed, 400);
    const paused = deltas.at(-1);
    expect(paused).toMatchObject({ missed: true, reason: "paused", streaming: true, closed: false });
    // Reads go on while the flood does. A further gap is flagged: another pause, or output the
    // ring or the emulator's scrollback dropped between two reads of a `yes` flood (overflow).
    const going = await mcp.captureUntil(paused ?? start, (d) => d.raw.includes("flood\n"), 50);
    const flagged = going.filter((d) => d.missed).map((d) => d.reason);
    expect(going.every((d) => d.closed === false)).toBe(true);
    expect(flagged.filter((reason) => reason !== "paused" && reason !== "overflow")).toEqual([]);
    await test.run(["send-keys", "-t", pane, "C-c"]);
    const wait = going.at(-1) ?? start;
    const rest = [wait];
    // Typed while the shell may still be stopping `yes`: its echo can come before the prompt, and
    // the shell's output after it ("# calm" on one row). So the typed line never ends like the output.
    await test.run(["send-keys", "-t", pane, "-l", 'echo cal""m\n']);
    const calm = await mcp.captureUntil(rest.at(-1) ?? wait, (d) => texts(d).some((row) => row.endsWith("calm")));
    // The first read after the flood may still report a pause that happened during it; once tmux
    // has caught up the stream is continuous again: a read of new output is not flagged.
    await test.run(["send-keys", "-t", pane, "-l", 'echo qui""et\n']);
    const quiet = await mcp.captureUntil(calm.at(-1) ?? wait, (d) => texts(d).some((row) => row.endsWith("quiet")));
    expect(quiet.at(-1)?.missed).toBe(false);
    // And the rendered rows equal tmux's screen.
    await waitFor(async () => {
      const ours = (await (await mcp.hub.observer(pane)).screenText()).rows;
      const tmux = (await test.run(["capture-pane", "-p", "-t", pane])).map((l) => l.trimEnd());
      return JSON.stringify(ours) === JSON.stringify(tmux);
    }, 5000, "rows equal to tmux's");
  });
});
