// Figure 6's programs, run inside tmux panes: `node programs.mjs <scenario> <ms>`. Each draws the way
// a familiar kind of program does, for about <ms>, then leaves its last frame on the screen.
const [scenario = "", msArg = "4000"] = process.argv.slice(2);
const total = Number(msArg);
const out = (s) => process.stdout.write(s);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

async function progress() {
  out("fetching index\n");
  for (let i = 0; i <= 100; i++) {
    out(`\rdownloading [${"#".repeat(i >> 1).padEnd(50, ".")}] ${String(i).padStart(3)}%`);
    await sleep(total / 100);
  }
  out("\ndone\n");
}

async function log() {
  const start = Date.now();
  for (let n = 0; Date.now() - start < total; n++) {
    const level = n % 17 === 0 ? "WARN" : "INFO";
    out(`2026-01-01T00:00:${String(n % 60).padStart(2, "0")}Z ${level} worker-${n % 4} processed item ${n} in ${Math.floor(random() * 40)} ms\n`);
    await sleep(20);
  }
}

async function repaint() {
  // Like top: the alternate screen, the whole screen redrawn every 250 ms, a few numbers changing.
  out("\x1b[?1049h\x1b[H\x1b[2J");
  const procs = Array.from({ length: 18 }, (_, i) => ({ pid: 1000 + i * 37, name: `proc-${i}`, cpu: 0 }));
  const start = Date.now();
  for (let frame = 0; Date.now() - start < total; frame++) {
    for (const p of procs) p.cpu = random() < 0.3 ? Math.floor(random() * 1000) / 10 : p.cpu;
    const rows = [
      `\x1b[1mtop - up ${frame} ticks, load average: 0.${frame % 10}0\x1b[0m`,
      `Tasks: ${procs.length} total, ${frame % 3} running`,
      `%Cpu(s): ${(random() * 100).toFixed(1)} us`,
      "",
      "\x1b[7m  PID USER      %CPU COMMAND\x1b[0m",
      ...procs.map((p) => `${String(p.pid).padStart(5)} bench    ${p.cpu.toFixed(1).padStart(5)} ${p.name}`),
    ];
    out(`\x1b[H${rows.map((row) => `${row}\x1b[K`).join("\r\n")}`);
    await sleep(250);
  }
}

async function layers() {
  // Like docker pull: one line per layer, redrawn in place by moving the cursor up.
  const sizes = [12.1, 45.6, 3.2, 88.0, 7.7, 23.4];
  const done = sizes.map(() => 0);
  out("Pulling from library/bench\n");
  for (let i = 0; i < sizes.length; i++) out("\n");
  const start = Date.now();
  while (Date.now() - start < total) {
    out(`\x1b[${sizes.length}A`);
    sizes.forEach((size, i) => {
      done[i] = Math.min(size, (done[i] ?? 0) + random() * size * 0.08);
      const bar = "=".repeat(Math.floor(((done[i] ?? 0) / size) * 30)).padEnd(30);
      const state = done[i] >= size ? "Pull complete" : `Downloading [${bar}] ${(done[i] ?? 0).toFixed(1)}MB/${size}MB`;
      out(`\x1b[2K${(0xa3f0 + i * 4099).toString(16)}: ${state}\n`);
    });
    await sleep(100);
  }
}

const programs = { progress, log, repaint, layers };
if (!(scenario in programs)) throw new Error(`unknown scenario ${scenario}: use ${Object.keys(programs).join(", ")}`);
await programs[scenario]();
