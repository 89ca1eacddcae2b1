// Figure 10, width policy: how fast xterm parses with the tmux width policy (observe/widths/rules.ts)
// in its hot path, vs xterm's own Unicode 11 provider, on the same streams in the same run: mostly
// ASCII log lines, then a mix of ASCII, CJK and emoji (ZWJ sequences, skin tones, VS16, flags).
// Rates are per CPU second of this process (xterm parses here), robust to a busy machine.
// Usage alone: npx tsx bench/widths.ts
import { Screen } from "../src/observe/emulator/screen.js";
import { widthPolicy, type WidthPolicy } from "../src/observe/widths/policy.js";
import { median, type Result } from "./lib/format.js";

/** Lines of text, each ending in CRLF, cycling through `pieces`, about `bytes` long in all. */
function stream(pieces: readonly string[], bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `${String(i).padStart(6, "0")} ${pieces[i % pieces.length] ?? ""}\r\n`;
    parts.push(line);
    size += Buffer.byteLength(line);
  }
  return parts.join("");
}

const ASCII = ["GET /api/v1/items?page=3 200 12ms", "INFO worker 7 finished job 4411 in 0.82s", "warn: retrying connection (attempt 2 of 5)"];
const MIXED = [
  "INFO 日本語のログ行 ok", "build ✅ passed 🎉 in 3.2s", "user 👩🏽‍💻 pushed 3 commits ❤️", "한국어 텍스트와 English mixed",
  "family 👨‍👩‍👧 flag 🇫🇷 keycap 1️⃣ done", "plain ascii line between the others", "表示幅のテスト：全角文字ＡＢＣ", "👍🏽👍🏽👍🏽 thumbs",
];

/**
 * CPU milliseconds this process spends parsing `data` into a fresh 80×24 screen: xterm parses in
 * this process, so CPU time is what the policy costs, whatever else keeps the machine busy.
 */
async function parse(data: string, widths: WidthPolicy | undefined): Promise<number> {
  const screen = new Screen({ cols: 80, rows: 24, scrollback: 100, ...(widths ? { widths } : {}) });
  const start = process.cpuUsage();
  await new Promise<void>((resolve) => screen.write(data, resolve));
  await screen.flush();
  const used = process.cpuUsage(start);
  screen.dispose();
  return (used.user + used.system) / 1000;
}

async function figure(id: string, label: string, data: string, policy: WidthPolicy, runs: number): Promise<Result> {
  const mb = Buffer.byteLength(data) / 1e6;
  const ours: number[] = [];
  const theirs: number[] = [];
  await parse(data, policy); // warm both paths up before timing
  await parse(data, undefined);
  for (let i = 0; i < runs; i++) {
    // Alternate, so a change in the machine's load hits both sides alike.
    theirs.push(mb / ((await parse(data, undefined)) / 1000));
    ours.push(mb / ((await parse(data, policy)) / 1000));
  }
  return {
    id,
    label,
    value: median(ours),
    baseline: median(theirs),
    baselineLabel: "xterm Unicode 11",
    unit: "MB/s",
    better: "higher",
    note: `${mb.toFixed(1)} MB × ${runs}, per CPU second`,
  };
}

export async function widths(quick: boolean): Promise<Result[]> {
  const policy = widthPolicy({ version: "3.6a" });
  const size = quick ? 2e6 : 4e6;
  const runs = quick ? 5 : 11;
  return [
    await figure("10a", "parse, ASCII log lines", stream(ASCII, size), policy, runs),
    await figure("10b", "parse, ASCII + CJK + emoji", stream(MIXED, size), policy, runs),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const result of await widths(process.argv.includes("--quick"))) {
    console.log(`${result.id} ${result.label}: ${result.value.toFixed(1)} MB/s vs ${result.baseline.toFixed(1)} MB/s (${(result.value / result.baseline).toFixed(2)}×)`);
  }
}
