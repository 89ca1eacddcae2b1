// The economy workloads (figure 6, and the text-rebuild tests), run inside tmux panes:
// `node programs.mjs <workload> [tickMs]`. Each draws the way a familiar kind of program does, one
// step per tick, then leaves its last frame on the screen. Deterministic: same bytes every run.
const [workload = "", tickArg] = process.argv.slice(2);
const out = (s) => process.stdout.write(s);
const sleep = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

/** A `\r` progress bar: 100 frames over one line. */
async function progress(tick = 25) {
  out("fetching index\n");
  for (let i = 1; i <= 100; i++) {
    out(`\rdownloading [${"#".repeat(i >> 1).padEnd(50, ".")}] ${String(i).padStart(3)}%`);
    await sleep(tick);
  }
  out("\ndone\n");
}

/** Like docker pull: ten layer lines redrawn 50 times in place by moving the cursor up. */
async function dockerPull(tick = 50) {
  const sizes = [12.1, 45.6, 3.2, 88.0, 7.7, 23.4, 1.9, 64.3, 30.0, 5.5];
  const done = sizes.map(() => 0);
  out("Using default tag: latest\nlatest: Pulling from library/bench\n");
  for (let round = 0; round < 50; round++) {
    if (round > 0) out(`\x1b[${sizes.length}A`);
    sizes.forEach((size, i) => {
      done[i] = round === 49 ? size : Math.min(size, done[i] + random() * size * 0.06);
      const bar = `${"=".repeat(Math.floor((done[i] / size) * 30))}>`.padEnd(31).slice(0, 31);
      const state = done[i] >= size ? "Pull complete" : `Downloading [${bar}] ${done[i].toFixed(1)}MB/${size}MB`;
      out(`\x1b[2K${(0xa3f0 + i * 4099).toString(16)}: ${state}\n`);
    });
    await sleep(tick);
  }
  out("Status: Downloaded newer image for bench:latest\n");
}

/** A log: 300 lines, a few per tick. */
async function log(tick = 10) {
  for (let n = 0; n < 300; n++) {
    const level = n % 17 === 0 ? "WARN" : "INFO";
    out(`2026-01-01T00:${String(Math.floor(n / 60)).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}Z ${level} worker-${n % 4} processed item ${n} in ${Math.floor(random() * 40)} ms\n`);
    await sleep(tick);
  }
}

/**
 * A chat TUI on the normal screen: messages scroll in a region anchored at the top (rows 1-21,
 * DECSTBM), a status bar and an input line stay fixed below it; 100 messages.
 */
async function chat(tick = 30) {
  const users = ["alice", "bob", "carol", "dave"];
  const words = "the build is green again after the cache fix so we can ship the release candidate tonight".split(" ");
  const status = (n) => `\x1b[22;1H\x1b[7m ${`#general · ${n} messages · 4 users`.padEnd(79)}\x1b[0m`;
  out(`\x1b[H\x1b[2J${status(0)}\x1b[23;1H> \x1b[1;21r`);
  for (let n = 1; n <= 100; n++) {
    const text = Array.from({ length: 3 + Math.floor(random() * 9) }, () => words[Math.floor(random() * words.length)]).join(" ");
    // Scroll the region by a line feed at its bottom row, write the message, back to the input line.
    out(`\x1b[21;1H\n<${users[n % users.length]}> ${text}`);
    if (n % 25 === 0) out(status(n));
    out("\x1b[23;3H");
    await sleep(tick);
  }
}

/**
 * A full-screen TUI that draws every frame inside synchronized-output brackets (DEC mode 2026):
 * a build dashboard, 60 frames, each redrawing every row though only a few change.
 */
async function sync(tick = 50) {
  const tasks = Array.from({ length: 16 }, (_, i) => ({ name: `package-${String.fromCharCode(97 + i)}`, done: 0, size: 20 + ((i * 7) % 30) }));
  const spinner = "|/-\\";
  out("\x1b[?1049h\x1b[H\x1b[2J");
  for (let frame = 0; frame < 60; frame++) {
    const running = tasks.filter((t) => t.done < t.size).slice(0, 3);
    for (const t of running) t.done = Math.min(t.size, t.done + 1 + Math.floor(random() * 3));
    const finished = tasks.filter((t) => t.done >= t.size).length;
    const rows = [
      `\x1b[1m build dashboard \x1b[0m ${finished}/${tasks.length} packages`,
      "",
      ...tasks.map((t) => {
        const pct = Math.floor((t.done / t.size) * 100);
        const state = t.done >= t.size ? "done" : running.includes(t) ? `building ${spinner[frame % 4]}` : t.done > 0 ? "waiting" : "queued";
        return ` ${t.name.padEnd(12)} [${"#".repeat(Math.floor(pct / 5)).padEnd(20, ".")}] ${String(pct).padStart(3)}%  ${state}`;
      }),
      "",
      ` frame ${frame}`,
    ];
    out(`\x1b[?2026h\x1b[H${rows.map((row) => `${row}\x1b[K`).join("\r\n")}\x1b[?2026l`);
    await sleep(tick);
  }
}

const workloads = { progress, "docker-pull": dockerPull, log, chat, sync };
if (!(workload in workloads)) throw new Error(`unknown workload ${workload}: use ${Object.keys(workloads).join(", ")}`);
await workloads[workload](tickArg === undefined ? undefined : Number(tickArg));
