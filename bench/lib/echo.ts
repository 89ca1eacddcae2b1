// The machine's own floor for a stdio round trip: a separate Node process that echoes each line
// back. Timed next to panescope's reads under the same load, it shows what any process answering
// on a pipe pays there (scheduling on a busy machine), apart from what panescope adds.
import { spawn, type ChildProcess } from "node:child_process";

export interface Echo {
  /** One round trip, in ms. */
  ping(): Promise<number>;
  close(): void;
}

export function startEcho(): Echo {
  const child: ChildProcess = spawn(process.execPath, ["-e", "process.stdin.on('data', (d) => process.stdout.write(d))"], { stdio: ["pipe", "pipe", "ignore"] });
  const { stdin, stdout } = child;
  if (!stdin || !stdout) throw new Error("echo: spawned without pipes");
  return {
    ping: () =>
      new Promise((resolve, reject) => {
        const t0 = performance.now();
        stdout.once("data", () => resolve(performance.now() - t0));
        child.once("exit", () => reject(new Error("echo: the process ended")));
        stdin.write("x\n");
      }),
    close: () => child.kill(),
  };
}
