// Which test files run on every tmux version (CI's version matrix, `npm run test:tmux`): the ones
// whose behaviour depends on tmux, i.e. that start a real tmux server (the private servers of
// test/support/tmux-fixture.ts, or panescope's CLI, demo and golden runner, which start their
// own). Every other test is pure and runs once, in `npm test`, and in `npm run test:unit`
// (vitest.unit.config.ts excludes exactly this list). The list is globs, not a marker in each file,
// so a test added or moved inside a listed folder is listed: every folder of test/integration/
// (watch, faults, mcp, golden, cli, docs, tmux, fidelity, shell, evidence, …) is. A file listed
// outside test/integration/ must start a tmux server itself, else it would be missing from
// test:unit; test/tmux-dependent.test.ts checks both ways.

export const TMUX_DEPENDENT: readonly string[] = [
  "test/integration/**/*.test.ts",
  "test/mcp/budget.test.ts",
  "test/mcp/fuzz.test.ts",
  "test/mcp/own-pane.test.ts",
  "test/mcp/send-keys.test.ts",
  "test/mcp/server.test.ts",
  "test/mcp/tool-list.test.ts",
  "test/mcp/wait-for.test.ts",
];

/** Whether a repository-relative path matches one of the globs (`**` any folders, `*` within one). */
export function matchesAny(path: string, globs: readonly string[]): boolean {
  return globs.some((glob) => {
    const pattern = glob
      .split(/(\*\*\/|\*)/)
      .map((part) => (part === "**/" ? "(?:.*/)?" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
    return new RegExp(`^${pattern}$`).test(path);
  });
}
