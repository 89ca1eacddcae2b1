// The tmux version matrix (CI, `npm run test:tmux`): every test whose behaviour depends on tmux
// (test/tmux-dependent.ts) once per tmux build in ../shared/tmux/bin (docs/tmux-versions.md), each
// build first on PATH and in PANESCOPE_TMUX as ../shared/tmux/each sets them. One vitest run holds
// every version as a project, so the versions share one transform of the sources and keep every
// worker busy (a version's slowest file no longer waits alone). The system tmux is not a project:
// `npm test` runs every test on it.
import { existsSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { defineConfig } from "vitest/config";
import { SAME_ON_EVERY_TMUX, TMUX_DEPENDENT } from "./test/tmux-dependent.js";
import { TEST_FILES_AT_ONCE } from "./test/workers.js";

const builds = resolve(import.meta.dirname, process.env.PANESCOPE_TMUX_BUILDS ?? "../shared/tmux/bin");
const versions = existsSync(builds) ? readdirSync(builds).filter((name) => name.startsWith("tmux-")).map((name) => name.slice("tmux-".length)).sort() : [];
if (versions.length === 0) throw new Error(`no tmux builds (tmux-<version>) in ${builds}: set PANESCOPE_TMUX_BUILDS to their folder`);

/** A folder whose `tmux` is that build: first on PATH, tests and the programs they start run it. */
function pathFor(version: string): string {
  const dir = join(tmpdir(), `panescope-tmux-matrix-${process.getuid?.() ?? 0}`, version);
  const target = join(builds, `tmux-${version}`);
  mkdirSync(dir, { recursive: true });
  let current: string | undefined;
  try {
    current = readlinkSync(join(dir, "tmux"));
  } catch {
    current = undefined;
  }
  if (current !== target) {
    // Made beside it and renamed over it: another run setting up the same folder never sees a gap.
    const made = join(dir, `tmux.${process.pid}`);
    rmSync(made, { force: true });
    symlinkSync(target, made);
    renameSync(made, join(dir, "tmux"));
  }
  return dir;
}

/** One line per version at the end, as ../shared/tmux/each prints them. */
class VersionSummary implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines = versions.map((version) => {
      const mine = modules.filter((m) => m.project.name === `tmux ${version}`);
      const failed = mine.filter((m) => m.state() !== "passed" && m.state() !== "skipped").length;
      return `${failed === 0 ? "ok  " : "FAIL"}  tmux ${version} (${mine.length} test file${mine.length === 1 ? "" : "s"}${failed === 0 ? "" : `, ${failed} failed`})`;
    });
    process.stdout.write(`\n${lines.join("\n")}\n`);
  }
}

export default defineConfig({
  test: {
    globalSetup: ["./test/support/build-dist.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts", new VersionSummary()],
    maxWorkers: TEST_FILES_AT_ONCE,
    projects: versions.map((version) => {
      const dir = pathFor(version);
      return {
        test: {
          name: `tmux ${version}`,
          include: [...TMUX_DEPENDENT],
          // What comes out the same on any tmux ran once already, on the system tmux (npm test).
          exclude: Object.keys(SAME_ON_EVERY_TMUX),
          // As in vitest.config.ts: real tmux servers want generous timeouts and a process per file.
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: "forks",
          env: { PATH: `${dir}:${process.env.PATH ?? ""}`, PANESCOPE_TMUX: join(dir, "tmux") },
        },
      };
    }),
  },
});
