// The cursor rule, as a property over random agent sessions on a real private tmux: reads, waits
// that match, time out or see quiet, and send_keys with and without a wait, the cursor threaded as
// docs/tools.md says (every call gets the cursor of the answer before it). Whatever the calls and
// however the output falls between them, the answers' raw holds every numbered piece the pane
// printed exactly once (lines, \r bar frames, lines redrawn in place), and their rows rebuild
// tmux's own screen. Seeded (PANESCOPE_SEED to replay); fast-check prints the seed and path on failure.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Delta } from "../../../src/observe/delta.js";
import { link, textOf } from "../../support/mcp-link.js";
import { RebuiltScreen, tmuxRows } from "../../support/rebuild.js";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

// Every piece of output carries a number (#1, #2, …) counted by the program, and END says the last.
const PROGRAM = String.raw`
import sys
n = 0
def tok():
    global n
    n += 1
    return "#%d" % n
def w(s):
    sys.stdout.write(s)
    sys.stdout.flush()
w("ready> ")
for line in sys.stdin:
    p = line.split()
    if not p:
        continue
    k, a = p[0], int(p[1]) if len(p) > 1 else 1
    w("\n")
    if k == "p":
        for _ in range(a):
            w("line %s\n" % tok())
    elif k == "b":
        for i in range(a):
            w("\rbar %s %s" % (tok(), "=" * i))
        w("\n")
    elif k == "r":
        w("".join("old %s\n" % tok() for _ in range(3)))
        w("\x1b[3A" + "".join("\rnew %s\x1b[K\n" % tok() for _ in range(3)))
    elif k == "e":
        w("END %d\n" % n)
    w("ready> ")
`;

const dir = mkdtempSync(join(tmpdir(), "panescope-cursor-rule-"));
const program = join(dir, "pieces.py");
writeFileSync(program, PROGRAM);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(killAllServers);

type Command = "p" | "b" | "r";
type Call =
  | { kind: "read"; waitMs: number }
  | { kind: "wait"; until: "prompt" | "never" | "quiet" | "raw" }
  | { kind: "send"; command: Command; size: number; wait: "none" | "prompt" | "quiet" };

const callArb: fc.Arbitrary<Call> = fc.oneof(
  fc.record({ kind: fc.constant("read" as const), waitMs: fc.constantFrom(0, 0, 30) }),
  fc.record({ kind: fc.constant("wait" as const), until: fc.constantFrom("prompt" as const, "never" as const, "quiet" as const, "raw" as const) }),
  fc.record({
    kind: fc.constant("send" as const),
    command: fc.constantFrom<Command>("p", "p", "b", "r"),
    size: fc.integer({ min: 1, max: 40 }),
    wait: fc.constantFrom("none" as const, "prompt" as const, "quiet" as const),
  }),
);

const PROMPT = "^ready> $";
const WAITS = {
  prompt: { pattern: PROMPT, timeoutMs: 5000 },
  never: { pattern: "never printed", timeoutMs: 20 },
  quiet: { quietMs: 30, timeoutMs: 5000 },
  raw: { pattern: "#\\d+|END", in: "raw", timeoutMs: 40 },
} as const;

const structured = (result: CallToolResult) => result.structuredContent as Record<string, unknown>;

/** The delta an answer carries: capture_since's is the answer itself, the others' under `delta`. */
function deltaOf(name: string, result: CallToolResult): Delta | undefined {
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  const data = structured(result);
  return (name === "capture_since" ? data : data.delta) as Delta | undefined;
}

async function session(calls: readonly Call[]): Promise<void> {
  const test = await startServer({ cols: 50, rows: 8, command: `stty -echo; exec python3 -u ${program}` });
  const mcp = await link(test.server);
  try {
    const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
    const rebuilt = new RebuiltScreen();
    let raw = "";
    let cursor = "";
    const answer = (name: string, result: CallToolResult): void => {
      const delta = deltaOf(name, result);
      const data = structured(result);
      cursor = String(data.cursor);
      if (!delta) return;
      expect(delta.missed, `${name} answered missed`).toBe(false);
      expect(delta.truncated, `${name} cut its answer`).toEqual({ rows: 0, rawChars: 0 });
      raw += delta.raw;
      rebuilt.apply(delta);
    };
    const call = async (name: string, args: Record<string, unknown>): Promise<void> => answer(name, await mcp.call(name, args));
    await call("capture_since", { paneId: pane });
    for (const step of calls) {
      if (step.kind === "read") await call("capture_since", { cursor, waitMs: step.waitMs });
      else if (step.kind === "wait") await call("wait_for", { cursor, ...WAITS[step.until] });
      else {
        const wait = step.wait === "none" ? {} : { wait: WAITS[step.wait] };
        await call("send_keys", { paneId: pane, cursor, text: `${step.command} ${step.size}`, enter: true, ...wait });
      }
    }
    // The end: END and the prompt after it on the screen, so nothing more is coming.
    await call("send_keys", { paneId: pane, cursor, text: "e", enter: true, wait: { pattern: "^END \\d+\\nready> $", timeoutMs: 20_000 } });
    const last = Number(/END (\d+)/.exec(raw)?.[1]);
    expect(last, "END reached the answers").toBeGreaterThanOrEqual(0);
    const counts = new Map<number, number>();
    for (const m of raw.matchAll(/#(\d+)/g)) counts.set(Number(m[1]), (counts.get(Number(m[1])) ?? 0) + 1);
    const wrong = Array.from({ length: last }, (_, i) => i + 1).filter((n) => counts.get(n) !== 1);
    expect(wrong.map((n) => `#${n}×${counts.get(n) ?? 0}`), "pieces not in the answers exactly once").toEqual([]);
    expect([...counts.keys()].filter((n) => n > last)).toEqual([]);
    expect(rebuilt.rows()).toEqual(tmuxRows(await test.run(["capture-pane", "-p", "-t", pane])));
  } finally {
    await mcp.close();
    await killAllServers();
  }
}

describe("the cursor rule", () => {
  it("random sessions of reads, waits and send_keys, the cursor threaded: every printed piece once, the rows rebuild tmux's screen (seeded)", async () => {
    const seed = Number(process.env.PANESCOPE_SEED ?? 0x23c0de);
    await fc.assert(
      fc.asyncProperty(fc.array(callArb, { minLength: 3, maxLength: 12 }), async (calls) => session(calls)),
      { seed, numRuns: 6, endOnFailure: true },
    );
  }, 120_000);
});
