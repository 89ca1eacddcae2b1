import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { parseRecord, RECORD_HELP } from "../../src/record/options.js";

function refusal(argv: string[]): string {
  try {
    parseRecord(argv, {});
  } catch (error) {
    if (isPanescopeError(error, "bad-input")) return error.message;
    throw error;
  }
  throw new Error("accepted");
}

describe("panescope record options", () => {
  it("takes a pane, an output file, a duration and the server flags", () => {
    expect(parseRecord(["%3", "-o", "run.cast", "--duration", "2.5", "-L", "work"], {})).toEqual({
      paneId: "%3",
      output: "run.cast",
      duration: 2.5,
      server: { socketName: "work" },
    });
  });

  it("without a pane records tmux's active one; the environment names the server", () => {
    expect(parseRecord(["-o", "a.cast"], { PANESCOPE_SOCKET_PATH: "/tmp/s" })).toEqual({ output: "a.cast", server: { socketPath: "/tmp/s" } });
  });

  it("refuses a missing output, a bad duration, two panes and unknown flags, saying where help is", () => {
    expect(refusal(["%3"])).toMatch(/-o FILE is required/);
    expect(refusal(["%3", "-o", "a", "--duration", "0"])).toMatch(/--duration takes seconds above 0/);
    expect(refusal(["%3", "%4", "-o", "a"])).toMatch(/one pane/);
    expect(refusal(["%3", "-o", "a", "--bogus"])).toBe("unknown option --bogus for panescope record (see panescope record --help)");
    expect(refusal(["-o", "a", "-L", "x", "-S", "y"])).toMatch(/both name a tmux server/);
    expect(refusal(["%3"])).toMatch(/panescope record --help/);
  });

  it("words a refusal as the other commands do: a pane is %N, and a negative duration goes after \"=\"", () => {
    expect(refusal(["1", "-o", "a"])).toBe('a pane is %N (e.g. %3; panescope list shows them), got "1" (see panescope record --help)');
    expect(refusal(["%3", "-o", "a", "--duration", "-1"])).toBe('--duration needs a value: --duration S (a value that starts with "-" goes after "=": --duration=-1) (see panescope record --help)');
    expect(refusal(["%3", "-o", "a", "--duration=-1"])).toBe('--duration takes seconds above 0, got "-1" (see panescope record --help)');
    expect(refusal(["%3", "-o", "a", "--duration", "--socket", "x"])).toMatch(/^--duration needs a value/);
    expect(refusal(["%3", "-o", "a", "--duration", "1", "--duration", "2"])).toMatch(/given twice/);
  });

  it("--help is the help docs/cli.md shows", () => {
    expect(parseRecord(["--help"], {})).toBe("help");
    const page = readFileSync(resolve(import.meta.dirname, "../../docs/cli.md"), "utf8");
    expect(/## `panescope record`[\s\S]*?```text\n([\s\S]*?)\n```/.exec(page)?.[1]).toBe(RECORD_HELP);
  });
});
