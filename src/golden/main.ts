// `panescope golden [--update] [--check-tmux] [--list-stale] [--tmux PATH] [PATH...]`: finds *.tape
// files, runs each in its own tmux server, prints a line per scenario and `N passed, N failed`
// (scenarios). A tape with errors is reported (every error, file:line) and the others still run.

import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import { isPanescopeError, messageOf } from "../errors.js";
import type { GoldenOptions } from "../options.js";
import { onReaderGone } from "../reader-gone.js";
import { TmuxServer } from "../tmux/server.js";
import { wantColour } from "./diff-colour.js";
import { discardLiveLaunches } from "./launch.js";
import { GoldenReporter, indent } from "./reporter.js";
import { writeGoldenReport } from "./report/write.js";
import { runTape, type TapeResult } from "./run.js";
import { goldenPath, isCI, listStale } from "./store.js";
import { parseTape, type Tape } from "./tape.js";

export interface GoldenIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Text without a newline, for the live progress line (default: none). */
  write?: (text: string) => void;
  /** stdout is a terminal: progress is drawn in place, diffs are coloured (unless NO_COLOR). */
  tty?: boolean;
}

const defaultIo: GoldenIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  write: (text) => process.stdout.write(text),
  tty: process.stdout.isTTY === true,
};

class UsageError extends Error {}

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
    // Its goldens' folder is its name without .tape: any other name has none (x.txt/s.golden).
    else if (extname(path) !== ".tape") throw new UsageError(`${path}: not a *.tape file (a tape's goldens go in the folder named after it without .tape)`);
    else found.push(path);
  }
  // `g/x.tape` and `./g/x.tape` are one tape: kept once, as first spelled.
  const byPath = new Map<string, string>();
  for (const path of found) if (!byPath.has(resolve(path))) byPath.set(resolve(path), path);
  const tapes = [...byPath.values()];
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

/** A tape that could not be parsed: its path and every error, each `file:line: what`. */
interface BrokenTape {
  path: string;
  message: string;
}

async function loadTapes(files: string[]): Promise<{ tapes: Tape[]; broken: BrokenTape[] }> {
  const tapes: Tape[] = [];
  const broken: BrokenTape[] = [];
  for (const file of files) {
    const path = shown(file);
    try {
      const tape = parseTape(await readFile(file, "utf8"), path);
      const badName = tapeNameProblem(path);
      if (badName === undefined) tapes.push(tape);
      else broken.push({ path, message: badName });
    } catch (error) {
      if (!isPanescopeError(error, "golden")) throw error;
      broken.push({ path, message: error.message });
    }
  }
  return { tapes, broken };
}

/**
 * Why the tape's goldens can have no folder (it is named after the tape), or undefined: found as
 * the tapes load, before any program runs, not in the summary of the whole run (staleGoldens).
 */
function tapeNameProblem(path: string): string | undefined {
  try {
    goldenPath(dirname(path), path, "snapshot");
    return undefined;
  } catch (error) {
    if (!isPanescopeError(error, "bad-input")) throw error;
    return `${path}: the tape's name ${JSON.stringify(basename(path, ".tape"))} cannot name its golden folder: rename the tape with letters, digits, . _ - (no "..", not starting with . or -)`;
  }
}

/** Where `--record` without `--report` keeps the failing tapes' recordings. */
export const DEFAULT_REPORT_DIR = "panescope-report";

/** The report page (with --report) and the failing tapes' recordings; a line says where they are. */
async function saveEvidence(reportDir: string | undefined, results: TapeResult[], io: GoldenIo): Promise<void> {
  const dir = reportDir ?? DEFAULT_REPORT_DIR;
  const written = await writeGoldenReport(dir, results, { page: reportDir !== undefined, when: new Date() });
  const casts = written.casts.length === 0 ? "" : `${written.casts.length} recording${written.casts.length === 1 ? "" : "s"} (${written.casts.map(shown).join(", ")})`;
  if (written.page !== undefined) io.out(`report: ${shown(written.page)} (${written.items} failure${written.items === 1 ? "" : "s"}${casts === "" ? "" : `, ${casts}`})`);
  else if (casts !== "") io.out(`recordings: ${casts}`);
}

/** Exit statuses of a run stopped before its end: 128 + SIGINT, SIGTERM, SIGPIPE. */
const STOPPED = { interrupt: 130, terminate: 143, pipe: 141 } as const;

/** A run stopped before its end: from then on it says nothing, and it exits once the scenario is removed. */
interface Stop {
  /** Set once stopped: the scenario's removal, which ends in process.exit. */
  exiting?: Promise<void>;
  /** Ends the live progress line, if any (set once the reporter exists). */
  abandon: () => void;
}

/** One tape, its progress and its PASS/FAIL block; a scenario that throws is a failed result. */
async function runOne(tape: Tape, options: GoldenOptions, ci: boolean, record: boolean, reporter: GoldenReporter): Promise<TapeResult> {
  let result: TapeResult;
  reporter.start(tape.path);
  try {
    result = await runTape(tape, { update: options.update, ci, checkTmux: options.checkTmux, tmux: options.tmux, record, onStep: (step) => reporter.step(step) });
  } catch (error) {
    result = { path: tape.path, snapshots: [], error: `${tape.path}: ${messageOf(error)}`, passed: false, ms: 0 };
  }
  reporter.finish(result);
  return result;
}

/**
 * The `golden` face of the CLI: 0 all passed, 1 some failed, 2 usage or tape errors (the rest still
 * ran). Ctrl-C, SIGTERM or a reader gone (`| head -1`: EPIPE) end the run at once, the running
 * scenario removed first, with 128 + the signal as a shell reports it (SIGPIPE for the reader).
 */
export async function main(options: GoldenOptions, io: GoldenIo = defaultIo): Promise<number> {
  const stop: Stop = { abandon: () => undefined };
  const stopWith = (status: number): void => {
    if (stop.exiting !== undefined) return;
    if (status !== STOPPED.pipe) stop.abandon();
    stop.exiting = discardLiveLaunches().finally(() => process.exit(status));
  };
  const onInterrupt = (): void => stopWith(STOPPED.interrupt);
  const onTerminate = (): void => stopWith(STOPPED.terminate);
  // From the first line, before any tmux runs: execa's signal-exit, when it is the only listener,
  // re-sends the signal, and that was lost at times (4 of 48 SIGINTs 0.16–0.22 s after start let a
  // 20 s tape run to its end). On, not once, for the same reason (see src/record/main.ts).
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onTerminate);
  // After this run has returned too: a late EPIPE then removes nothing and exits 141, quietly.
  onReaderGone(() => stopWith(STOPPED.pipe));
  // Once stopping, nothing more is said: not the FAIL of the scenario being removed.
  const say = (print: (text: string) => void) => (text: string): void => void (stop.exiting === undefined && print(text));
  const quiet: GoldenIo = { ...io, out: say(io.out), err: say(io.err), ...(io.write === undefined ? {} : { write: say(io.write) }) };
  try {
    const status = await run(options, quiet, stop);
    if (stop.exiting !== undefined) await stop.exiting;
    return status;
  } finally {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onTerminate);
  }
}

async function run(options: GoldenOptions, io: GoldenIo, stop: Stop): Promise<number> {
  let loaded: { tapes: Tape[]; broken: BrokenTape[] };
  try {
    loaded = await loadTapes(await findTapes(options.paths));
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`panescope golden: ${error.message} (see panescope golden --help)`);
      return 2;
    }
    throw error;
  }
  const { tapes, broken } = loaded;
  const tty = io.tty === true;
  const columns = process.stdout.columns;
  const reporter = new GoldenReporter({ out: io.out, write: io.write ?? (() => undefined), tty: tty && io.write !== undefined, colour: wantColour(io.env, tty), ...(columns ? { columns } : {}) });
  stop.abandon = () => reporter.abandon();
  for (const tape of broken) io.out(`FAIL ${tape.path} (tape errors)\n${indent(tape.message)}`);
  if (options.listStale) {
    // A broken tape's snapshots are unknown: its goldens would all look stale.
    if (broken.length > 0) {
      io.err("panescope golden: fix the tape errors above first: --list-stale needs every tape's snapshots");
      return 2;
    }
    const stale = await staleGoldens(tapes);
    for (const path of stale) io.out(path);
    io.out(`${stale.length} stale golden file${stale.length === 1 ? "" : "s"}`);
    return 0;
  }
  // A tmux that is too old, cannot be run (--tmux PATH wrong, not installed) or fails `tmux -V` is
  // refused once, here, as a usage error: each tape failing "at its run line" said tests failed (1).
  const tmux = await new TmuxServer({ tmux: options.tmux }).requireSupported().catch((error: unknown) => error);
  if (isPanescopeError(tmux, "tmux-unsupported") || isPanescopeError(tmux, "tmux-missing") || isPanescopeError(tmux, "command-failed")) {
    io.err(`panescope golden: ${tmux.message}`);
    return 2;
  }
  const ci = isCI(io.env);
  if (options.update && ci) io.err("panescope golden: CI=true: --update is ignored, CI never writes goldens");
  let passed = 0;
  let failed = broken.length;
  // A report always comes with recordings; --record alone keeps them in the default folder.
  const record = options.record || options.report !== undefined;
  const results: TapeResult[] = [];
  for (const tape of tapes) {
    // A stopped run ends in process.exit once the scenario is removed (main): start no other.
    if (stop.exiting !== undefined) await stop.exiting;
    results.push(await runOne(tape, options, ci, record, reporter));
  }
  for (const result of results) {
    if (result.passed) passed++;
    else failed++;
  }
  // Obsolete goldens are counted only when every tape's snapshots are known.
  if (broken.length === 0) reporter.counts.obsolete = (await staleGoldens(tapes)).length;
  const summary = reporter.summary();
  if (summary !== undefined) io.out(summary);
  if (record) await saveEvidence(options.report, results, io);
  io.out(`${passed} passed, ${failed} failed`);
  if (broken.length > 0) return 2;
  return failed === 0 ? 0 : 1;
}
