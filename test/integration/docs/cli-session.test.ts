// docs/cli.md's shell session, replayed command by command on a private tmux server (a 60x8 pane
// running sh) through a daemon of the test's own: each command's output must be what the page
// shows, but for cursors and pids (they differ on every run) and trailing blanks.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shellPlace, type ShellPlace } from "../../support/shell-daemon.js";
import { startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const PAGE = readFileSync(new URL("../../../docs/cli.md", import.meta.url), "utf8");
const EXIT = '; echo "exit $?"';

let tmux: TestServer;
let place: ShellPlace;

beforeAll(async () => {
  tmux = await startServer({ command: "sh", cols: 60, rows: 8 });
  place = shellPlace(tmux.name);
  await waitFor(async () => (await tmux.run(["capture-pane", "-p", "-t", "%0"]))[0]?.startsWith("#") === true, 10_000, "the prompt");
});

afterAll(async () => {
  await place.clean();
  await tmux.kill();
});

/** Words of a command line as sh splits them here: spaces, and single quotes. */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
}

function masked(text: string): string {
  return text
    .replace(/cursor=\S+/g, "cursor=C")
    .replace(/\(pid \d+\)/g, "(pid P)")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
}

describe("the shell session of docs/cli.md", () => {
  it("each command prints what the page shows", async () => {
    const block = /```text\n(\$ panescope [\s\S]*?)```/.exec(PAGE)?.[1] ?? "";
    const steps = block.split(/^\$ /m).filter(Boolean);
    expect(steps.length).toBeGreaterThan(8);
    for (const step of steps) {
      const [command = "", ...shown] = step.trimEnd().split("\n");
      const exits = command.endsWith(EXIT);
      const [, ...args] = words(exits ? command.slice(0, -EXIT.length) : command);
      const run = await place.run(args, { PANESCOPE_READER: "doc" });
      const printed = `${run.stdout}${exits ? `\nexit ${run.exitCode}` : ""}`;
      expect(masked(printed), command).toBe(masked(shown.join("\n")));
    }
  });
});
