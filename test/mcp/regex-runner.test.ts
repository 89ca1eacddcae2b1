// The regex runner: matches run in a worker with a time budget; a catastrophic pattern is stopped
// and reported as bad input while the event loop keeps turning; the worker is replaced, reused,
// and never keeps the process alive.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { RegexRunner } from "../../src/mcp/regex-runner.js";

const runners: RegexRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});
function runner(budgetMs = 100): RegexRunner {
  const r = new RegexRunner({ budgetMs });
  runners.push(r);
  return r;
}

/** Patterns known to backtrack exponentially (or with a high power) on the text beside them. */
const CATASTROPHIC: [string, string][] = [
  ["(a|a)*b", "a".repeat(40)],
  ["(?:a|a)*b", "a".repeat(40)],
  ["(.|a)*b", "a".repeat(40)],
  ["(a|aa)*c", "a".repeat(80)],
  ["\\w*\\w*\\w*\\w*\\w*x", "a".repeat(1000)],
  ["(a+)+b", "a".repeat(40)],
  ["(a*)*b", "a".repeat(40)],
  ["((a+)+)+b", "a".repeat(40)],
  ["(x+x+)+y", "x".repeat(40)],
  ["(a|a?)+b", "a".repeat(40)],
  ["(\\w+\\s?)+$", `${"a".repeat(40)}!`],
  ["(?=(a|a)*b)", "a".repeat(40)],
  ["(?=(?=(?:a|a)*b))", "a".repeat(40)],
  ["^(?:(?!b)(?:a|a))*b", "a".repeat(40)],
  ["(?=((a|a)*)\\1b)", "a".repeat(40)],
];

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(isPanescopeError(error, "bad-input"), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("the match was not stopped");
}

describe("RegexRunner", () => {
  it("finds the first match with its index, or nothing, with the flags given", async () => {
    const r = runner();
    expect(await r.exec("o+", "m", "foo boo")).toEqual({ index: 1, text: "oo" });
    expect(await r.exec("^B", "mi", "a\nboo")).toEqual({ index: 2, text: "b" });
    expect(await r.exec("z", "m", "foo")).toBeUndefined();
  });

  it("stops every pattern of the catastrophic corpus at its budget, naming it, and the event loop keeps turning", async () => {
    // Three runners share the corpus: each stopped match costs a budget plus a new worker's start.
    const shares = [0, 1, 2].map((k) => CATASTROPHIC.filter((_, i) => i % 3 === k));
    await Promise.all(
      shares.map(async (share) => {
        const r = runner(50);
        for (const [pattern, text] of share) {
          const order: string[] = [];
          const match = refusal(r.exec(pattern, "m", text)).then((message) => {
            order.push("stopped");
            return message;
          });
          // A timer far shorter than the budget: it fires first only if the match is not on this thread.
          await new Promise((resolve) => setTimeout(resolve, 2)).then(() => order.push("timer"));
          const message = await match;
          expect(order, pattern).toEqual(["timer", "stopped"]);
          expect(message, pattern).toMatch(/^pattern ran out of its time budget \(50 ms\) on \d+ characters and was stopped: .*Use a simpler pattern/);
        }
        expect(await r.exec("a+", "m", "xaa"), "a fresh worker answers after the last overrun").toEqual({ index: 1, text: "aa" });
      }),
    );
  });

  it("quick matches beside a stopped one run normally", async () => {
    const r = runner(100);
    const slow = refusal(r.exec("(a|a)*b", "m", "a".repeat(40)));
    const quick = Promise.all([r.exec("b", "m", "ab"), r.exec("c", "m", "ab")]);
    await slow;
    expect(await quick).toEqual([{ index: 1, text: "b" }, undefined]);
  });

  it("a plain match is answered while several catastrophic ones still run, each in a worker of its own", async () => {
    // A budget no catastrophic match can finish within this test: only close() ends them.
    const r = runner(60_000);
    const settled: string[] = [];
    const slow = CATASTROPHIC.slice(0, 5).map(([pattern, text]) =>
      r.exec(pattern, "m", text).then(
        () => settled.push(`matched ${pattern}`),
        () => settled.push(`stopped ${pattern}`),
      ),
    );
    expect(await r.exec("ready", "m", "the build is ready")).toEqual({ index: 13, text: "ready" });
    settled.push("plain");
    expect(r.workers).toBe(6);
    await r.close();
    await Promise.all(slow);
    expect(settled[0]).toBe("plain");
  });

  it("past its worker cap a runner queues matches: a plain one waits for a stopped one", async () => {
    const r = new RegexRunner({ budgetMs: 100, maxWorkers: 2 });
    runners.push(r);
    const order: string[] = [];
    const slow = CATASTROPHIC.slice(0, 2).map(([pattern, text]) => refusal(r.exec(pattern, "m", text)).then(() => order.push("stopped")));
    const plain = r.exec("b", "m", "ab").then(() => order.push("plain"));
    await Promise.all([...slow, plain]);
    expect(r.workers).toBeLessThanOrEqual(2);
    expect(order.indexOf("plain")).toBeGreaterThan(0);
  });

  it("a pattern that fails while matching (stack overflow) is bad input, and the runner goes on", async () => {
    const r = runner(5000);
    const message = await refusal(r.exec("(?:a|b|(c))+$", "m", `${"ab".repeat(2_000_000)}!`));
    expect(message).toMatch(/^pattern cannot be used: Maximum call stack size exceeded/);
    expect(await r.exec("x", "m", "x")).toEqual({ index: 0, text: "x" });
  });

  it("costs little per match once its worker runs: one worker serves every match", async () => {
    const r = runner(1000);
    const workerOf = (): unknown => (r as unknown as { slots: { worker: unknown }[] }).slots[0]?.worker;
    await r.exec("x", "m", "x"); // start-up, off the measured path
    const worker = workerOf();
    expect(worker).toBeDefined();
    const text = Array.from({ length: 24 }, (_, i) => `row ${i} ${"-".repeat(70)}`).join("\n");
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      expect(await r.exec("^\\$ $", "m", text)).toBeUndefined();
      times.push(performance.now() - started);
      // A match never pays for a new worker's start-up (tens of ms): the same thread answers.
      expect(workerOf()).toBe(worker);
      expect(r.workers).toBe(1);
    }
    times.sort((a, b) => a - b);
    console.log(`per-match overhead on an 80x24 screen: median ${((times[100] ?? 0) * 1000).toFixed(0)} µs, p95 ${((times[190] ?? 0) * 1000).toFixed(0)} µs`);
  });

  it("never keeps the process alive: a child that matched, or is stopping a match, exits by itself", () => {
    const module = fileURLToPath(new URL("../../src/mcp/regex-runner.ts", import.meta.url));
    const script = `import { RegexRunner } from ${JSON.stringify(module)};
      const r = new RegexRunner({ budgetMs: 200 });
      console.log(JSON.stringify(await r.exec("b+", "m", "abb")));
      r.exec("(a|a)*b", "m", "a".repeat(40)).catch((e) => console.log(e.kind));`;
    const cwd = fileURLToPath(new URL("../..", import.meta.url));
    const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd, encoding: "utf8", timeout: 20_000 });
    expect(result.signal, "killed by the timeout: the worker kept the process alive").toBeNull();
    expect(result.stdout.trim().split("\n")).toEqual(['{"index":1,"text":"bb"}', "bad-input"]);
    expect(result.status).toBe(0);
  });
});
