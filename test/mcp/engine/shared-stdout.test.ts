// fd 1 shared by the engine and the front, with fd 1 and the worker's stdout played here: the
// engine writes a line itself only when the front is not writing and none of its lines waits in
// the front; a write cut short is finished by the front before anything else; every line whole.
import { describe, expect, it } from "vitest";
import { EngineStdout, FrontStdout, sharedStdoutWords } from "../../../src/mcp/engine/shared-stdout.js";

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const text = (chunk: string | Uint8Array): string => (typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk));

/** fd 1 as a byte log; `take` says how much of each engine write it takes (undefined: all; 0: EAGAIN). */
function setup(take: Array<number | undefined> = []) {
  const fd: string[] = [];
  const words = sharedStdoutWords();
  // The front's process.stdout: written in order, each write done a turn later.
  const front = new FrontStdout(words, {
    write: ((chunk: string | Uint8Array, done: () => void) => {
      fd.push(text(chunk));
      setImmediate(done);
      return true;
    }) as never,
    once: (() => undefined) as never,
  });
  // The worker's stdout: what the engine writes there reaches the front's relay a turn later, as whole lines.
  let partial = "";
  const fallback = {
    write: ((chunk: string | Uint8Array) => {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
      setImmediate(() => {
        partial += text(bytes);
        const end = partial.lastIndexOf("\n");
        if (end === -1) return;
        const whole = new TextEncoder().encode(partial.slice(0, end + 1));
        partial = partial.slice(end + 1);
        front.relay(whole);
      });
      return true;
    }) as never,
    once: (() => undefined) as never,
  };
  const engine = new EngineStdout(words, fallback, true, (bytes) => {
    const n = take.shift() ?? bytes.length;
    if (n === 0) throw Object.assign(new Error("EAGAIN"), { code: "EAGAIN" });
    fd.push(text(bytes.subarray(0, n)));
    return n;
  });
  return { fd, front, engine };
}

describe("fd 1 shared by two threads", () => {
  it("the engine writes itself when fd 1 is free, through the front while the front writes", async () => {
    const { fd, front, engine } = setup();
    engine.write("E1\n");
    expect(fd).toEqual(["E1\n"]);
    front.write("F1\n"); // held until its write is done, a turn later
    engine.write("E2\n"); // the front's: relayed
    expect(fd).toEqual(["E1\n", "F1\n"]);
    await turn();
    await turn();
    expect(fd.join("")).toBe("E1\nF1\nE2\n");
    expect(engine.direct).toBe(1);
    // Relayed and done: the engine writes itself again.
    await turn();
    engine.write("E3\n");
    expect(engine.direct).toBe(2);
    expect(fd.join("")).toBe("E1\nF1\nE2\nE3\n");
  });

  it("keeps the engine's lines in order: none written itself while one waits in the front", async () => {
    const { fd, engine } = setup([0]); // the first write: EAGAIN
    engine.write("E1\n"); // to the front
    engine.write("E2\n"); // E1 is behind: to the front too, after it
    expect(fd).toEqual([]);
    await turn();
    await turn();
    expect(fd.join("")).toBe("E1\nE2\n");
    expect(engine.direct).toBe(0);
  });

  it("a line written in part is finished by the front before the front's own lines", async () => {
    const { fd, front, engine } = setup([4]);
    engine.write("ENGINE-LINE\n"); // fd 1 takes "ENGI"; the rest goes through the front
    front.write("F1\n"); // waits for the rest
    engine.write("E2\n"); // behind the rest: through the front
    expect(fd).toEqual(["ENGI"]);
    for (let i = 0; i < 4; i++) await turn();
    // The rest first; then the front's line it held back, and the engine's next as it came.
    expect(fd.slice(0, 2)).toEqual(["ENGI", "NE-LINE\n"]);
    expect(fd.join("")).toBe("ENGINE-LINE\nF1\nE2\n");
    // All written: fd 1 is free again for either.
    await turn();
    engine.write("E3\n");
    expect(engine.direct).toBe(2);
    expect(fd.join("")).toBe("ENGINE-LINE\nF1\nE2\nE3\n");
  });

  it("a line longer than PIPE_BUF always goes through the front", async () => {
    const { fd, engine } = setup();
    const long = `${"x".repeat(5000)}\n`;
    engine.write(long);
    expect(fd).toEqual([]);
    await turn();
    expect(fd.join("")).toBe(long);
    expect(engine.direct).toBe(0);
  });
});
