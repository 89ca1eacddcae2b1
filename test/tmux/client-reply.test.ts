// What a reply covers: tmux writes a command's reply after every byte it queued for the client
// before running the command, and one chunk of its output can hold the reply and output after it.
// atReply marks the reply's place in the stream; the promise settles only after the whole chunk.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ControlClient, type ControlProcess } from "../../src/tmux/client.js";
import { TmuxServer } from "../../src/tmux/server.js";

function fakeTmux(): { proc: ControlProcess; stdout: PassThrough; end: () => void } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let end!: () => void;
  const done = new Promise<{ exitCode?: number }>((resolve) => (end = () => resolve({ exitCode: 0 })));
  const proc: ControlProcess = {
    stdin: new PassThrough(),
    stdout,
    stderr,
    kill: () => {
      stdout.end();
      end();
      return true;
    },
    done,
  };
  return { proc, stdout, end };
}

describe("a command's reply in the stream", () => {
  it("atReply sees the output before the reply and none after it, in one chunk", async () => {
    const fake = fakeTmux();
    const server = new TmuxServer({ socketName: "panescope-never-started" });
    const starting = ControlClient.start({ server, session: "main", pauseAfterSeconds: 0, nudgeAfterMs: 0, spawn: () => fake.proc });
    fake.stdout.write("%begin 1 1 0\n%end 1 1 0\n");
    const client = await starting;
    let received = 0;
    client.on((event) => {
      if (event.type === "output") received += event.data.length;
    });
    let atReply = -1;
    const reply = client.command(["display-message", "-p", "x"], { atReply: () => (atReply = received) });
    fake.stdout.write("%output %1 ab\n%begin 2 2 1\nx\n%end 2 2 1\n%output %1 cdef\n");
    expect(await reply).toEqual(["x"]);
    expect(atReply).toBe(2);
    expect(received).toBe(6);
    fake.stdout.end();
    fake.end();
    await client.close();
  });
});
