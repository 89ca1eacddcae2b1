// Which test files run on every tmux version (CI's version matrix, `npm run test:tmux`): the ones
// whose behaviour depends on tmux, i.e. that start a real tmux server (the private servers of
// test/support/tmux-fixture.ts, or panescope's CLI, demo and golden runner, which start their
// own). Every other test is pure and runs once, in `npm test`, and in `npm run test:unit`
// (vitest.unit.config.ts excludes exactly this list). The list is globs, not a marker in each file,
// so a test added or moved inside a listed folder is listed: every folder of test/integration/
// (watch, faults, mcp, golden, cli, docs, tmux, fidelity, shell, evidence, …) is. A file listed
// outside test/integration/ must start a tmux server itself, else it would be missing from
// test:unit; test/tmux-dependent.test.ts checks both ways. A few of them check what comes out the
// same on any tmux (SAME_ON_EVERY_TMUX, each with its reason): those run once, on the system tmux.

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

/**
 * Files that start tmux, but whose checks come out the same on every tmux: they run once, on the
 * system tmux (`npm test`), not in the version matrix. Each names why; the behaviour they lean on
 * is checked on every version by the files named.
 */
export const SAME_ON_EVERY_TMUX: Readonly<Record<string, string>> = {
  "test/integration/cli/startup.test.ts": "which modules a command loads (no tmux call decides it)",
  "test/integration/cli/cli.test.ts": "argv, help and exit statuses of the built command",
  "test/integration/docs/agent-loop.test.ts": "docs text; the loop itself: mcp/agent-loop",
  "test/integration/docs/golden-tape.test.ts": "docs text; tapes: golden/run, golden/session",
  "test/integration/docs/golden-vitest.test.ts": "docs text; the vitest API: golden/*",
  "test/integration/docs/library.test.ts": "docs text; the library's reads: watch/hub",
  "test/integration/docs/cli-session.test.ts": "docs text; the shell commands: shell/commands",
  "test/integration/golden/report-browser.test.ts": "the HTML page in chromium; the recording in it: golden/run, evidence/record",
  "test/integration/golden/update-mode.test.ts": "which golden files are written; screens: golden/run",
  "test/integration/evidence/transcript.test.ts": "the JSON lines of calls and their page",
  "test/integration/mcp/transcript.test.ts": "the transcript file opened once (a FIFO read live); the calls it records: evidence/transcript",
  "test/integration/mcp/stop-signal.test.ts": "how a signal ends the server and its waits (no tmux answer decides it); waits on every tmux: mcp/agent-loop, watch/*",
  "test/integration/mcp/handshake.test.ts": "initialize and tools/list, which need no tmux (a socket no server uses)",
  "test/integration/shell/daemon-start.test.ts": "the daemon's directory, socket file, log and start lock; its tmux faults: shell/faults",
  "test/integration/cli/demo.test.ts": "what the demo prints and its server's removal; the reads it shows: mcp/*, watch/*",
  "test/integration/golden/stop.test.ts": "a golden run ended by a signal or EPIPE removes its scenario (kill-server); launches: golden/session",
  "test/integration/shell/handshake.test.ts": "the CLI–daemon protocol versions, the quiet exit, the exit once the server is gone (a socket that answers or not)",
  "test/mcp/tool-list.test.ts": "the advertised schemas; answers against them on every tmux: mcp/server, mcp/stdio",
  "test/integration/mcp/stopped-exit.test.ts": "how the server process ends beside a stopped tmux (each case waits out the bounded close); a stopped tmux holding a control client's stdout, on every tmux: tmux/close-stopped",
  "test/integration/mcp/answer-backpressure.test.ts": "stdin held while the client reads no answers (10 MiB of requests, no tmux answer decides it); answers on every tmux: mcp/server, mcp/stdio",
  "test/integration/shell/stopped-server.test.ts": "a shell call fails at its first tmux timeout, not the next (no tmux answer decides it); the timeout of a stopped tmux, on every tmux: tmux/stopped-server",
  "test/integration/shell/overlapping-reader.test.ts": "which of one reader's overlapping calls the daemon refuses (its own bookkeeping); reads and waits on every tmux: shell/commands, mcp/*",
  "test/integration/mcp/request-params.test.ts": "JSON-RPC answers to malformed params (a socket no server uses)",
  "test/integration/mcp/batch.test.ts": "JSON-RPC batches answered or refused by protocol version (a socket no server uses)",
  "test/integration/daemon/stopped-tmux.test.ts": "how the daemon ends beside a stopped tmux and what its log says; the client's close, on every tmux: tmux/close-stopped",
};

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
