// The machine's own floor for a stdio round trip: a separate Node process that echoes each line
// back. Timed next to panescope's reads under the same load, it shows what any process answering
// on a pipe pays there (scheduling on a busy machine), apart from what panescope adds.
//
// More echoes model where a server's work can sit (figure 5d, 5e): beside the thread that answers,
// in a worker thread busy all the time; or on the answering thread itself, in 8 ms turns (as a
// server that parses its panes' output on its main thread does under a flood). Two more (5f, 5g)
// add the work of an answer itself: 1 ms of CPU per answer, alone and beside a busy worker. The
// last (5h) answers each line with a whole read's answer, the same bytes, which the bench parses as
// it parses a read's: what moving and parsing an answer that size costs here.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";

export interface Echo {
  /** One round trip, in ms. */
  ping(): Promise<number>;
  /** Stop the process (SIGSTOP) so that a busy echo takes no CPU while others are timed. */
  pause(): void;
  resume(): void;
  close(): void;
}

export type EchoKind = "idle" | "busy-worker" | "busy-turns" | "working" | "working-beside-worker";

// A busy echo keeps itself alive (its worker, its turns): it ends with its stdin, so a bench that
// dies leaves none spinning.
const ANSWER = "process.stdin.on('data', (d) => process.stdout.write(d)); process.stdin.on('end', () => process.exit());";
// A working echo spends 1 ms of CPU on each answer before it writes it: about what a 16 KiB read of
// a flooding pane costs panescope's server (docs/benchmarks.md, "Reads under twenty floods").
const WORKING = "process.stdin.on('data', (d) => { const t = performance.now(); while (performance.now() - t < 1); process.stdout.write(d); }); process.stdin.on('end', () => process.exit());";
const BUSY_WORKER = "new (require('node:worker_threads').Worker)('for (;;);', { eval: true });";
const SCRIPTS: Record<EchoKind, string> = {
  idle: ANSWER,
  "busy-worker": `${BUSY_WORKER} ${ANSWER}`,
  "busy-turns": `const turn = () => { const t = Date.now(); while (Date.now() - t < 8); setImmediate(turn); }; turn(); ${ANSWER}`,
  working: WORKING,
  "working-beside-worker": `${BUSY_WORKER} ${WORKING}`,
};

/**
 * An echo that answers each line with `line` (a JSON-RPC answer; no newline in it), timed until the
 * whole of it came back and was parsed, as the bench times a read.
 */
export function startAnswerEcho(line: string): Echo {
  // Its first line is the answer to give (an argument or the environment may not hold 128 KiB);
  // every line after it is a ping, each answered with the whole answer.
  const script =
    "let answer; let held = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => { held += d; let end; " +
    "while ((end = held.indexOf('\\n')) !== -1) { const first = held.slice(0, end + 1); held = held.slice(end + 1); " +
    "if (answer === undefined) answer = Buffer.from(first); else process.stdout.write(answer); } }); process.stdin.on('end', () => process.exit());";
  let buffered = "";
  const echo = echoOf(script, "a read's answer", (text) => {
    buffered += String(text);
    const end = buffered.indexOf("\n");
    if (end === -1) return false;
    JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    return true;
  });
  echo.child.stdout.setEncoding("utf8");
  echo.child.stdin.write(`${line}\n`);
  return echo;
}

export function startEcho(kind: EchoKind = "idle"): Echo {
  return echoOf(SCRIPTS[kind], kind, () => true);
}

/** The echo process running `script`; a ping has its answer when `answered` says so of the output. */
function echoOf(script: string, what: string, answered: (output: string | Buffer) => boolean): Echo & { child: ChildProcessByStdio<Writable, Readable, null> } {
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "ignore"] });
  let waiting: { resolve: (ms: number) => void; reject: (error: Error) => void; t0: number } | undefined;
  child.stdout.on("data", (output: string | Buffer) => {
    if (!answered(output)) return;
    const ping = waiting;
    waiting = undefined;
    ping?.resolve(performance.now() - ping.t0);
  });
  child.once("exit", () => waiting?.reject(new Error(`echo (${what}): the process ended`)));
  return {
    child,
    ping: () =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject, t0: performance.now() };
        child.stdin.write("x\n");
      }),
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
    close: () => {
      child.kill("SIGCONT");
      child.kill();
    },
  };
}
