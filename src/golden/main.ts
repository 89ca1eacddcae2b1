// `panescope golden [--update] [--check-tmux] [--list-stale] [PATH...]`: finds *.tape files, runs
// each in its own tmux server, prints a line per scenario and `N passed, N failed` (scenarios).

import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, join, relative } from "node:path";
import { isPanescopeError, messageOf } from "../errors.js";
import { TmuxServer } from "../tmux/server.js";
import { runTape, type TapeResult } from "./run.js";
import { goldenPath, isCI, isUpdate, listStale } from "./store.js";
import { parseTape, type Tape } from "./tape.js";

export const GOLDEN_USAGE = `usage: panescope golden [--update] [--check-tmux] [--list-stale] [PATH...]
  PATH          *.tape files or folders searched for them (default: golden/)
  --update      rewrite goldens that differ (also PANESCOPE_UPDATE=1); never under CI=true
  --check-tmux  also compare each snapshot with tmux's own rendering (capture-pane -p)
  --list-stale  list golden files that no snapshot of these tapes writes, and run nothing
goldens live beside the tape: <folder>/<tape name>/<snapshot>.golden`;

export interface GoldenIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

const defaultIo: GoldenIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
};

class UsageError extends Error {}

interface Args {
  update: boolean;
  checkTmux: boolean;
  listStale: boolean;
  paths: string[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { update: false, checkTmux: false, listStale: false, paths: [] };
  let options = true;
  for (const arg of argv) {
    if (options && arg === "--") options = false;
    else if (options && arg === "--update") args.update = true;
    else if (options && arg === "--check-tmux") args.checkTmux = true;
    else if (options && arg === "--list-stale") args.listStale = true;
    else if (options && arg.startsWith("-")) throw new UsageError(`unknown option ${arg}`);
    else args.paths.push(arg);
  }
  if (args.paths.length === 0) args.paths.push("golden");
  return args;
}

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") await walk(path, out);
    else if (entry.isFile() && extname(entry.name) === ".tape") out.push(path);
  }
}

/** The tape files named or found under the paths, each once, in a stable order. */
export async function findTapes(paths: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) throw new UsageError(`${path}: no such file or folder`);
    if (info.isDirectory()) await walk(path, found);
    else found.push(path);
  }
  const tapes = [...new Set(found)];
  if (tapes.length === 0) throw new UsageError(`no *.tape files under ${paths.join(", ")}`);
  return tapes;
}

/** Goldens in the tapes' folders that no snapshot writes: of these tapes, or of tapes that are gone. */
async function staleGoldens(tapes: Tape[]): Promise<string[]> {
  const used = new Set<string>();
  const dirs = new Set<string>();
  const ran = new Set(tapes.map((t) => join(dirname(t.path), basename(t.path, ".tape"))));
  for (const tape of tapes) {
    dirs.add(dirname(tape.path));
    for (const step of tape.steps) if (step.kind === "snapshot") used.add(goldenPath(dirname(tape.path), tape.path, step.name));
  }
  const stale: string[] = [];
  for (const dir of dirs) {
    for (const path of await listStale(dir, used)) {
      const suite = dirname(path);
      // A golden of a tape not given here is neither used nor stale, unless that tape is gone.
      if (ran.has(suite) || (await stat(`${suite}.tape`).catch(() => undefined)) === undefined) stale.push(path);
    }
  }
  return [...new Set(stale)].sort();
}

/** A path as the user will read it: relative to the working directory when inside it. */
function shown(file: string): string {
  const rel = relative(".", file);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? file : rel;
}

function report(result: TapeResult, io: GoldenIo): void {
  const seconds = (result.ms / 1000).toFixed(1);
  const count = `${result.snapshots.length} snapshot${result.snapshots.length === 1 ? "" : "s"}`;
  io.out(`${result.passed ? "PASS" : "FAIL"} ${result.path} (${count}, ${seconds}s)`);
  for (const s of result.snapshots) {
    const d = s.decision;
    if (d.kind === "written") io.out(`  wrote ${s.path} (${d.reason === "new" ? "new golden" : "updated"}): review it before committing`);
    if (d.kind === "fail" || d.kind === "missing-in-ci") io.out(indent(`${s.where} snapshot ${s.name}: ${d.message}`));
    if (s.disagreements !== undefined && s.disagreements.length > 0) {
      io.out(indent(`${s.where} snapshot ${s.name}: tmux's own rendering disagrees with panescope's:\n${s.disagreements.join("\n")}`));
    }
  }
  if (result.error !== undefined) io.out(indent(result.error));
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

/** The `golden` face of the CLI: 0 all passed, 1 some failed, 2 usage or tape syntax errors. */
export async function main(argv: string[], io: GoldenIo = defaultIo): Promise<number> {
  let args: Args;
  let tapes: Tape[];
  if (argv.includes("--help") || argv.includes("-h")) {
    io.out(GOLDEN_USAGE);
    return 0;
  }
  try {
    args = parseArgs(argv);
    const files = await findTapes(args.paths);
    tapes = await Promise.all(files.map(async (file) => parseTape(await readFile(file, "utf8"), shown(file))));
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`panescope golden: ${error.message}\n${GOLDEN_USAGE}`);
      return 2;
    }
    if (isPanescopeError(error, "golden")) {
      io.err(`panescope golden: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (args.listStale) {
    const stale = await staleGoldens(tapes);
    for (const path of stale) io.out(path);
    io.out(`${stale.length} stale golden file${stale.length === 1 ? "" : "s"}`);
    return 0;
  }
  // An old tmux is refused once, here, rather than by every tape (a missing one fails each tape).
  const tmux = await new TmuxServer().requireSupported().catch((error: unknown) => error);
  if (isPanescopeError(tmux, "tmux-unsupported")) {
    io.err(`panescope golden: ${tmux.message}`);
    return 2;
  }
  const ci = isCI(io.env);
  const update = isUpdate(args.update, io.env);
  if (update && ci) io.err("panescope golden: CI=true: --update is ignored, CI never writes goldens");
  let passed = 0;
  let failed = 0;
  for (const tape of tapes) {
    let result: TapeResult;
    try {
      result = await runTape(tape, { update, ci, checkTmux: args.checkTmux });
    } catch (error) {
      result = { path: tape.path, snapshots: [], error: `${tape.path}: ${messageOf(error)}`, passed: false, ms: 0 };
    }
    report(result, io);
    if (result.passed) passed++;
    else failed++;
  }
  io.out(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
