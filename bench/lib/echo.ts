// The machine's own floor for a stdio round trip: a separate Node process that echoes each line
// back. Timed next to panescope's reads under the same load, it shows what any process answering
// on a pipe pays there (scheduling on a busy machine), apart from what panescope adds.
import { spawn } from "node:child_process";

export interface Echo {
  /** One round trip, in ms. */
  ping(): Promise<number>;
  close(): void;
}

export function startEcho(): Echo {
  const child = spawn(process.execPath, ["-e", "process.stdin.on('data', (d) => process.stdout.write(d))"], { stdio: ["pipe", "pipe", "ignore"] });
  let waiting: { resolve: (ms: number) => void; reject: (error: Error) => void; t0: number } | undefined;
  child.stdout.on("data", () => {
    const ping = waiting;
    waiting = undefined;
    ping?.resolve(performance.now() - ping.t0);
  });
  child.once("exit", () => waiting?.reject(new Error("echo: the process ended")));
  return {
    ping: () =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject, t0: performance.now() };
        child.stdin.write("x\n");
      }),
    close: () => child.kill(),
  };
}
