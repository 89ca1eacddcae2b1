// Programs that tests drive in a pane beyond the shell (htop): .ci/run installs them. Where one is
// missing and CI is not set, its tests are skipped, loudly; CI never skips them, and a test that
// needs a missing program fails at once saying so, not after a wait for a screen that cannot come.
import { spawnSync } from "node:child_process";

export interface Program {
  /** Skip its tests: missing here, and not on CI. */
  readonly skip: boolean;
  /** Throws, saying what to install, when the program is missing. */
  require(): void;
}

export function program(name: string): Program {
  const found = spawnSync(name, ["--version"], { stdio: "ignore" }).error === undefined;
  const missing = `${name} is not installed: apt-get install -y ${name} (.ci/run installs it)`;
  const skip = !found && process.env.CI === undefined;
  if (skip) console.warn(`\n*** SKIPPED the tests that drive ${name}: ${missing}. CI never skips them. ***\n`);
  return {
    skip,
    require() {
      if (!found) throw new Error(missing);
    },
  };
}
