// Golden files on disk: where they live, reading and atomic writing, stale listing, and the pure
// approval decision (pass, fail with a diff, write, or refuse because CI never writes).

import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import { PanescopeError } from "../errors.js";
import { envBoolean } from "../options.js";
import { compareGolden } from "./compare.js";

export const GOLDEN_EXT = ".golden";
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

function segment(what: string, value: string): string {
  if (!SEGMENT.test(value) || value.includes("..")) {
    throw new PanescopeError("bad-input", `${what} ${JSON.stringify(value.slice(0, 60))} cannot name a golden file: use letters, digits, . _ - (no "..", not starting with . or -)`);
  }
  return value;
}

/**
 * `<dir>/<suite>/<name>.golden`. `tapeOrSuite` is a suite name or a tape path, whose file name
 * without `.tape` becomes the suite (`golden/less.tape` → suite `less`).
 */
export function goldenPath(dir: string, tapeOrSuite: string, name: string): string {
  const base = basename(tapeOrSuite);
  const suite = extname(base) === ".tape" ? base.slice(0, -".tape".length) : tapeOrSuite;
  return join(dir, segment("suite", suite), `${segment("snapshot name", name)}${GOLDEN_EXT}`);
}

/**
 * The golden's text, or undefined when there is none. Line ends an editor or a checkout changed are
 * read as panescope writes them: CRLF (git autocrlf) as LF, and a final newline an editor or tool
 * stripped is put back, so neither fails a golden. An update writes LF and the final newline.
 */
export async function readGolden(path: string): Promise<string | undefined> {
  try {
    const text = (await readFile(path, "utf8")).replace(/\r\n/g, "\n");
    return text === "" || text.endsWith("\n") ? text : `${text}\n`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new PanescopeError("golden", `cannot read golden ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** Write through a temporary file and rename, so a reader never sees half a golden. */
export async function writeGolden(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(tmp, text, "utf8");
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw new PanescopeError("golden", `cannot write golden ${path}: ${(error as Error).message}`, { cause: error });
  }
}

export type Decision =
  | { kind: "pass" }
  | { kind: "fail"; diff: string; message: string }
  | { kind: "written"; reason: "new" | "updated" }
  | { kind: "missing-in-ci"; message: string };

export interface DecideInput {
  /** The golden on disk, undefined when missing. */
  expected?: string;
  actual: string;
  update: boolean;
  ci: boolean;
  /** Shown in the diff header and messages. */
  path?: string;
}

/**
 * What to do with a fresh snapshot. A missing golden is written, except under CI where it fails;
 * a different one fails unless `update`; CI never writes, even with `update`.
 */
export function decide(input: DecideInput): Decision {
  const label = input.path ?? "golden";
  if (input.expected === undefined) {
    if (input.ci) {
      return { kind: "missing-in-ci", message: `${label} is missing and CI never writes goldens: run the scenario locally, review the new file and commit it` };
    }
    return { kind: "written", reason: "new" };
  }
  const { equal, diff } = compareGolden(input.expected, input.actual, { expected: label, actual: "actual screen" });
  if (equal) return { kind: "pass" };
  if (input.update && !input.ci) return { kind: "written", reason: "updated" };
  const hint = input.ci
    ? "CI never writes goldens: update locally (--update or PANESCOPE_UPDATE=1), review and commit"
    : "if the new screen is right, re-run with --update (or vitest -u, or PANESCOPE_UPDATE=1) and review the change";
  return { kind: "fail", diff, message: `${label} does not match the screen; ${hint}\n${diff}` };
}

const TRUE = /^(1|true|yes)$/i;

/** Running under CI: `CI=true` or `CI=1` (as vitest reads it); `CI=false`/`0`/empty is not CI. */
export function isCI(env: NodeJS.ProcessEnv = process.env): boolean {
  return TRUE.test(env.CI ?? "");
}

/**
 * Update requested by the `--update` flag (the caller's argv parsing) or PANESCOPE_UPDATE
 * (1/true/yes/on or 0/false/no/off; anything else is a bad-input error, not a silent "no").
 */
export function isUpdate(flag: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return flag || envBoolean(env, "PANESCOPE_UPDATE");
}

async function walk(dir: string, out: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new PanescopeError("golden", `cannot list ${dir}: ${(error as Error).message}`, { cause: error });
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    // Symlinks are not followed: a link out of the golden folder must not make files look stale.
    if (entry.isDirectory()) await walk(path, out);
    else if (entry.isFile() && entry.name.endsWith(GOLDEN_EXT)) out.push(path);
  }
}

/**
 * Golden files under `dir` that no scenario used, sorted. Meaningful only after every scenario
 * writing under `dir` ran; `usedPaths` may be relative (resolved against the working directory).
 */
export async function listStale(dir: string, usedPaths: Iterable<string>): Promise<string[]> {
  const used = new Set([...usedPaths].map((p) => resolve(p)));
  const found: string[] = [];
  await walk(dir, found);
  return found.filter((p) => !used.has(resolve(p))).sort();
}
