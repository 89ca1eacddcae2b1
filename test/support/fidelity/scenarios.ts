// Real programs the fidelity checks run in a tmux pane: the recorder (record.ts) stores their
// control-mode stream as golden data, the live test (test/integration/fidelity/live.test.ts) watches
// them through the Hub. Each pane blocks on `tmux wait-for go` until the watcher is attached, so the
// stream covers the pane's whole life (no race with the first bytes).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor, type TestServer } from "../tmux-fixture.js";

/** What a scenario's steps may do to its pane. */
export interface Driver {
  pane: string;
  tmux(args: string[]): Promise<string[]>;
  /** `send-keys` key names (Enter, Escape, C-c …). */
  keys(...names: string[]): Promise<void>;
  /** `send-keys -l`: literal text. */
  type(text: string): Promise<void>;
  /** Polls capture-pane -p until `predicate(rows)` holds (rows trimmed at the end). */
  screen(predicate: (rows: string[]) => boolean, what: string, timeoutMs?: number): Promise<string[]>;
}

export interface Scenario {
  name: string;
  cols: number;
  rows: number;
  /** Files written to the pane's working directory; `run.sh` is what the pane executes. */
  files: Record<string, string>;
  /** Drives the program, leaving the pane in a state that no longer changes. */
  drive(d: Driver): Promise<void>;
  /** After the screen was compared/recorded (e.g. resume a stopped process so it can exit). */
  finish?(d: Driver): Promise<void>;
  /** Record with `refresh-client -f pause-after`, so tmux sends `%extended-output` lines. */
  extendedOutput?: boolean;
  /**
   * Known gap (measured, tmux 3.3a vs @xterm/headless 6): after a narrowing reflow adds rows, tmux
   * keeps the cursor row and pushes the extra rows into history; xterm keeps the top row and moves
   * the cursor down while there is room. Same text: xterm's screen is tmux's shifted down this much.
   */
  knownRowShift?: number;
}

const progress = String.raw`i=0
while [ $i -le 100 ]; do
  n=$((i / 4)); bar=""; j=0
  while [ $j -lt $n ]; do bar="$bar█"; j=$((j + 1)); done
  pad=$(printf '%*s' $((25 - n)) '')
  printf '\r\033[1;34mfetching\033[0m \033[32m%s\033[2m%s\033[0m \033[33m%3d%%\033[0m' "$bar" "$pad" "$i"
  i=$((i + 2))
done
printf '\n\033[1mdone\033[0m ✔\n'
`;

const dockerPull = String.raw`layers="a3ed95caeb02 1b2c3d4e5f60 9f8e7d6c5b4a 00ff00ff00ff 5e5e5e5e5e5e"
echo "Using default tag: latest"
echo "latest: Pulling from library/demo"
for l in $layers; do echo "$l: Pulling fs layer"; done
step=1
while [ $step -le 14 ]; do
  printf '\033[5A'
  k=0
  for l in $layers; do
    k=$((k + 1)); p=$((step * 10 - k * 4))
    [ $p -lt 0 ] && p=0
    if [ $p -ge 100 ]; then
      printf '\033[2K%s: \033[32mPull complete\033[0m\n' "$l"
    else
      w=$((p / 5)); bar=$(printf '%*s' $w '' | tr ' ' '=')
      printf '\033[2K%s: Downloading [%-20s] %3d%%\n' "$l" "$bar>" "$p"
    fi
  done
  step=$((step + 1))
done
echo "Digest: sha256:4f2a0c9e1d7b3a5c8e6f0a2b4c6d8e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d"
echo "Status: Downloaded newer image for demo:latest"
`;

// ~2800 lines of a coloured log with an occasional wrapping line and CJK text (< 200 KB recorded).
const scrollLog = String.raw`awk 'BEGIN {
  split("INFO WARN DEBUG ERROR", lv, " "); split("32 33 2 31", co, " ")
  for (i = 1; i <= 2800; i++) {
    k = (i % 97 == 0) ? 4 : (i % 13 == 0) ? 2 : (i % 7 == 0) ? 3 : 1
    printf "%02d:%02d \033[%sm%-5s\033[0m GET /api/items/%d %dms\n", int(i / 60) % 60, i % 60, co[k], lv[k], i, (i * 37) % 500
    if (i % 250 == 0) {
      printf "批次 %d 完成：日志轮转 ", i
      for (j = 0; j < 12; j++) printf "segment-%02d ", j
      printf "\n"
    }
  }
  print "log complete"
}'
`;

function lessFile(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 300; i++) {
    if (i === 120 || i === 210) lines.push(`line ${i}: the needle is here, among the hay`);
    else if (i % 37 === 0) lines.push(`line ${i}: ${"a long line that wraps across the terminal width ".repeat(3).trim()}`);
    else if (i % 11 === 0) lines.push(`line ${i}:\ttabbed\tcolumns\there`);
    else lines.push(`line ${i}: lorem ipsum dolor sit amet ${i * 7}`);
  }
  return `${lines.join("\n")}\n`;
}

const rowsInclude = (text: string) => (rows: string[]): boolean => rows.some((row) => row.includes(text));

async function paneSize(d: Driver): Promise<string> {
  const [size = ""] = await d.tmux(["display-message", "-p", "-t", d.pane, "#{pane_width}x#{pane_height}"]);
  return size;
}

async function untilSize(d: Driver, size: string): Promise<void> {
  await waitFor(async () => (await paneSize(d)) === size, 5000, `pane size ${size}`);
}

export const scenarios: Scenario[] = [
  {
    name: "progress",
    cols: 80,
    rows: 24,
    files: { "run.sh": `${progress}exec sleep 86400\n` },
    drive: async (d) => {
      await d.screen(rowsInclude("done"), "the progress bar to finish");
    },
  },
  {
    name: "docker-pull",
    cols: 80,
    rows: 24,
    files: { "run.sh": `${dockerPull}exec sleep 86400\n` },
    drive: async (d) => {
      await d.screen(rowsInclude("Status: Downloaded"), "the pull to finish");
    },
  },
  {
    name: "scroll-log",
    cols: 80,
    rows: 24,
    files: { "run.sh": `${scrollLog}exec sleep 86400\n` },
    drive: async (d) => {
      await d.screen(rowsInclude("log complete"), "the log to finish", 10_000);
    },
  },
  {
    name: "less",
    cols: 80,
    rows: 24,
    files: { "notes.txt": lessFile(), "run.sh": "exec less notes.txt\n" },
    drive: async (d) => {
      let page = await d.screen(rowsInclude("notes.txt"), "less to show the first page");
      for (const which of ["second", "third"]) {
        const top = page[0];
        await d.type(" ");
        page = await d.screen((rows) => rows[0] !== top && rows[rows.length - 1] === ":", `the ${which} page`);
      }
      await d.type("/needle");
      await d.keys("Enter");
      await d.screen((rows) => rows[0]?.startsWith("line 120:") === true, "the first match at the top");
      await d.type("n");
      await d.screen((rows) => rows[0]?.startsWith("line 210:") === true, "the next match at the top");
    },
    finish: async (d) => {
      await d.type("q");
    },
  },
  {
    name: "vim-split",
    cols: 80,
    rows: 24,
    files: { "run.sh": "exec vim -u NONE -i NONE -N\n" },
    drive: async (d) => {
      await d.screen((rows) => rows.filter((row) => row === "~").length > 5, "vim to start");
      await d.type("ihello from vim");
      await d.keys("Escape");
      await d.type(":split");
      await d.keys("Enter");
      await d.screen((rows) => rows.filter((row) => row.startsWith("[No Name]")).length === 2, "two vim windows");
      await d.type("osecond line, typed after the split");
      await d.keys("Escape");
      await d.screen((rows) => rows.filter((row) => row.includes("second line")).length === 2, "the text in both windows");
      await d.tmux(["resize-window", "-t", d.pane, "-x", "100", "-y", "30"]);
      await untilSize(d, "100x30");
      await d.tmux(["split-window", "-h", "-d", "-t", d.pane, "exec sleep 86400"]);
      await d.tmux(["resize-pane", "-t", d.pane, "-x", "61"]);
      await untilSize(d, "61x30");
      await d.screen((rows) => rows.filter((row) => row.includes("second line")).length === 2 && rows.length === 30, "vim redrawn at 61x30");
      await d.type(":resize 8");
      await d.keys("Enter");
      await d.screen((rows) => rows[8]?.startsWith("[No Name]") === true, "vim's own split resized");
    },
    finish: async (d) => {
      await d.type(":qa!");
      await d.keys("Enter");
    },
  },
  {
    // Plain output, then the pane is resized with nothing redrawing it: the screen is what tmux's
    // reflow made of it. Output before a %layout-change must be applied at the old size.
    name: "shell-resize",
    cols: 80,
    rows: 24,
    knownRowShift: 4,
    files: {
      "run.sh": String.raw`printf 'first row[999C|
'
printf '%s
' "a long line: $(printf 'word%02d ' $(seq 1 30))"
printf 'cursor parked mid-row[999C<
[40C'
read x
printf '
after the resizes[999C|
'
read x
`,
    },
    drive: async (d) => {
      await d.screen(rowsInclude("cursor parked"), "the first output");
      await d.tmux(["resize-window", "-t", d.pane, "-x", "50", "-y", "24"]);
      await untilSize(d, "50x24");
      await d.tmux(["resize-window", "-t", d.pane, "-x", "100", "-y", "20"]);
      await untilSize(d, "100x20");
      await d.keys("Enter");
      await d.screen(rowsInclude("after the resizes"), "output after the resizes");
      await d.tmux(["resize-window", "-t", d.pane, "-x", "70", "-y", "20"]);
      await untilSize(d, "70x20");
    },
  },
  {
    name: "top",
    cols: 80,
    rows: 24,
    // top runs as a child of the pane's shell: tmux 3.3a sends SIGCONT to a pane process that stops
    // (server_child_stopped), so only a grandchild of the server can be frozen with SIGSTOP.
    files: { "run.sh": "top -d 0.5\nexec sleep 86400\n" },
    extendedOutput: true,
    drive: async (d) => {
      const [first] = await d.screen((rows) => rows[0]?.startsWith("top - ") === true, "top's first frame");
      // Wait for a later frame (the clock in row 0 moves on), then freeze top so the screen holds still.
      await d.screen((rows) => rows[0] !== first && rows[0]?.startsWith("top - ") === true, "a refresh", 5000);
      process.kill(await topPid(d), "SIGSTOP");
    },
    finish: async (d) => {
      process.kill(await topPid(d), "SIGCONT");
      await d.type("q");
    },
  },
];

/** The pid of the pane shell's only child (Linux /proc). */
async function topPid(d: Driver): Promise<number> {
  const [pid = ""] = await d.tmux(["display-message", "-p", "-t", d.pane, "#{pane_pid}"]);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ");
  if (children.length !== 1 || children[0] === "") throw new Error(`pane process ${pid} has children ${JSON.stringify(children)}, expected top alone`);
  return Number(children[0]);
}

export function scenario(name: string): Scenario {
  const found = scenarios.find((s) => s.name === name);
  if (!found) throw new Error(`no scenario ${name}: one of ${scenarios.map((s) => s.name).join(", ")}`);
  return found;
}

/**
 * Writes the scenario's files to a fresh directory and returns the pane command: wait for the
 * watcher's `go`, then run `run.sh` with a small fixed environment (no user rc files, history or
 * locale surprises). TERM stays tmux's own (`screen` with -f /dev/null).
 */
export function preparePane(s: Scenario): { command: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), `panescope-${s.name}-`));
  for (const [name, text] of Object.entries(s.files)) writeFileSync(join(dir, name), text);
  const env = `PATH=/usr/local/bin:/usr/bin:/bin HOME=${dir} TERM="$TERM" LANG=C.UTF-8 LC_ALL=C.UTF-8 LESSHISTFILE=-`;
  const command = `cd ${dir} && tmux wait-for go && exec env -i ${env} sh run.sh`;
  return { command, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function driverFor(test: TestServer, pane: string): Driver {
  const capture = async (): Promise<string[]> => (await test.run(["capture-pane", "-p", "-t", pane])).map((row) => row.trimEnd());
  return {
    pane,
    tmux: (args) => test.run(args),
    keys: async (...names) => void (await test.run(["send-keys", "-t", pane, ...names])),
    type: async (text) => void (await test.run(["send-keys", "-t", pane, "-l", text])),
    screen: async (predicate, what, timeoutMs = 5000) => {
      let rows: string[] = [];
      await waitFor(async () => predicate((rows = await capture())), timeoutMs, what);
      return rows;
    },
  };
}
