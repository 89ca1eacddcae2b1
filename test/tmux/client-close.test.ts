// Closing a control client pauses every pane of its session for it first, then ends tmux's stdin:
// a pause discards the output tmux still queues for the client, which on tmux 3.2a–3.7c could make
// its server exit once the client's stdin closed (ControlClient.pauseEveryPane, docs/faults.md).
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ControlClient, type ControlProcess } from "../../src/tmux/client.js";
import { TmuxServer } from "../../src/tmux/server.js";

/** A tmux process made of pipes: the test reads what the client writes and answers for tmux. */
function fakeTmux(): { proc: ControlProcess; stdout: PassThrough; written: string[]; stdinEnded: Promise<void> } {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: string[] = [];
  stdin.on("data", (chunk: Buffer) => written.push(...chunk.toString().split("\n").filter((line) => line !== "")));
  let end!: () => void;
  const done = new Promise<{ exitCode?: number }>((resolve) => (end = () => resolve({ exitCode: 0 })));
  const stdinEnded = new Promise<void>((resolve) =>
    stdin.on("end", () => {
      resolve();
      // tmux detaches the client and exits once its stdin has closed.
      stdout.end();
      end();
    }),
  );
  stdin.resume();
  const proc: ControlProcess = { stdin, stdout, stderr: new PassThrough(), kill: () => true, done };
  return { proc, stdout, written, stdinEnded };
}

const server = new TmuxServer({ socketName: "panescope-never-started" });
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function attached(fake: ReturnType<typeof fakeTmux>, noOutput = false): Promise<ControlClient> {
  const starting = ControlClient.start({ server, session: "main", pauseAfterSeconds: 0, nudgeAfterMs: 0, noOutput, spawn: () => fake.proc });
  fake.stdout.write("%begin 1 1 0\n%end 1 1 0\n");
  return starting;
}

describe("closing a control client", () => {
  it("pauses every pane of its session for it, then ends tmux's stdin", async () => {
    const fake = fakeTmux();
    const client = await attached(fake);
    const pauses: Array<{ paneId: string; requested?: boolean }> = [];
    client.on((event) => {
      if (event.type === "pause") pauses.push(event);
    });
    let ended = false;
    void fake.stdinEnded.then(() => (ended = true));
    const closed = client.close();
    await turn();
    expect(fake.written).toEqual(['list-panes -s -F "#{pane_id}"']);
    fake.stdout.write("%begin 2 2 1\n%1\n%7\n%end 2 2 1\n");
    await turn();
    expect(fake.written.at(-1)).toBe('refresh-client -A "%1:pause" -A "%7:pause"');
    expect(ended).toBe(false);
    // tmux says %pause for each inside the reply: ours, not tmux's flow control.
    fake.stdout.write("%begin 3 3 1\n%pause %1\n%pause %7\n%end 3 3 1\n");
    await closed;
    expect(ended).toBe(true);
    expect(pauses).toEqual([
      { type: "pause", paneId: "%1", requested: true },
      { type: "pause", paneId: "%7", requested: true },
    ]);
    // Closing again is the same close.
    await client.close();
    expect(fake.written).toHaveLength(2);
  });

  it("still closes when tmux refuses the list", async () => {
    const fake = fakeTmux();
    const client = await attached(fake);
    const closed = client.close();
    await turn();
    fake.stdout.write("%begin 2 2 1\nno current session\n%error 2 2 1\n");
    await closed;
    expect(fake.written).toEqual(['list-panes -s -F "#{pane_id}"']);
  });

  it("a no-output client has nothing queued: it closes at once", async () => {
    const fake = fakeTmux();
    const client = await attached(fake, true);
    await client.close();
    expect(fake.written).toEqual([]);
  });
});
