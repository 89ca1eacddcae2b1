// No shell in any spawn: only src/tmux/ may start processes, only through execa with an argv array
// and `shell: false`. A static scan of src/, with the scanner itself shown to catch each bad form.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : /\.[cm]?[jt]s$/.test(entry.name) ? [path] : [];
  });
}

/** Problems in one file's text; `inTmux` is true for files under src/tmux/. */
export function spawnProblems(source: string, inTmux: boolean): string[] {
  // Comments may name what they forbid; code may not. (Line comments only at a line's start or
  // after whitespace, so `//` inside strings such as URLs mostly survives.)
  const text = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)\/\/.*$/gm, "$1");
  const problems: string[] = [];
  if (/\bshell\s*:(?!\s*false\b)/.test(text)) problems.push("a shell option other than `shell: false`");
  if (/["'](?:node:)?child_process["']/.test(text)) problems.push("child_process (use execa with an argv array in src/tmux/)");
  if (/\bexeca(?:Command|Node|Sync|CommandSync)\b|\$`/.test(text)) problems.push("a string-command or script form of execa");
  const calls = [...text.matchAll(/\bexeca\s*\(/g)];
  if (!inTmux && (calls.length > 0 || /from\s+["']execa["']/.test(text))) problems.push("execa outside src/tmux/");
  for (const call of calls) {
    const args = text.slice(call.index, call.index + 400);
    if (!/shell:\s*false/.test(args)) problems.push("an execa call without `shell: false` in its options");
  }
  return problems;
}

/**
 * Files allowed an exception to the rules below, with the problem allowed. src/shell/start.ts
 * starts the daemon: Node itself (process.execPath) on panescope's own cli.js, an argv array with
 * `shell: false`, through node:child_process because execa is the heaviest module a `panescope
 * read` would otherwise load (its start-up must stay near Node's own: test/integration/cli/startup).
 * src/golden/watchdog.ts starts the golden watchdog the same way (Node on panescope's own file, an
 * argv array, no shell): detached, with a stdin pipe only this process holds, and neither the
 * process nor the pipe holding this one's event loop (unref), which execa's promise would.
 */
const KNOWN: Record<string, string[]> = {
  "shell/start.ts": ["child_process (use execa with an argv array in src/tmux/)"],
  "golden/watchdog.ts": ["child_process (use execa with an argv array in src/tmux/)"],
};

describe("no shell in any spawn", () => {
  it("src/ starts processes only in src/tmux/, through execa with an argv array and shell: false", () => {
    const found: string[] = [];
    for (const file of sources(SRC)) {
      const rel = relative(SRC, file);
      const known = KNOWN[rel] ?? [];
      for (const problem of spawnProblems(readFileSync(file, "utf8"), rel.startsWith("tmux/"))) {
        if (!known.includes(problem)) found.push(`src/${rel}: ${problem}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("the scan catches each form it forbids", () => {
    expect(spawnProblems(`execa("tmux", args, { shell: true })`, true)).not.toEqual([]);
    expect(spawnProblems(`execa("tmux", args, { stdin: "pipe" })`, true)).toEqual(["an execa call without `shell: false` in its options"]);
    expect(spawnProblems(`import { spawn } from "node:child_process"`, true)).not.toEqual([]);
    expect(spawnProblems(`await execaCommand("tmux kill-server")`, true)).not.toEqual([]);
    expect(spawnProblems(`await $\`tmux ls\``, true)).not.toEqual([]);
    expect(spawnProblems(`import { execa } from "execa"; execa("x", [], { shell: false })`, false)).toEqual(["execa outside src/tmux/"]);
    expect(spawnProblems(`execa(file, args, { shell: "/bin/sh" })`, true)).not.toEqual([]);
    expect(spawnProblems(`execa(file, [...args], { shell: false, stdin: "ignore" })`, true)).toEqual([]);
  });
});
