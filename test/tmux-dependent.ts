// Which test files run on every tmux version (CI's version matrix, `npm run test:tmux`): the ones
// whose behaviour depends on tmux, i.e. that start a real tmux server (the private servers of
// test/integration/tmux-fixture.ts, or panescope's CLI, demo and golden runner, which start their
// own). Every other test is pure and runs once, in `npm test`. The list is globs, not a marker in
// each file, so moving a test inside a listed folder keeps it listed; test/tmux-dependent.test.ts
// fails when a test file outside the list starts tmux.

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
