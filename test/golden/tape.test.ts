// Tape parsing: every statement, the defaults, and errors that name file:line, what is wrong and
// the accepted form. A fuzz property checks that no input escapes as anything but a golden error.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { parseTape, TAPE_DEFAULTS, type Tape } from "../../src/golden/tape.js";

const parse = (text: string): Tape => parseTape(text, "demo.tape");

function failure(text: string): string {
  try {
    parse(text);
  } catch (error) {
    expect(isPanescopeError(error, "golden")).toBe(true);
    return (error as Error).message;
  }
  throw new Error("parsed without error");
}

describe("parseTape: statements", () => {
  it("reads a full tape with settings, run and every step in file order", () => {
    const tape = parse(
      [
        "# a scenario",
        "size 100x30",
        'env GREETING="hello world"',
        "env MODE=fast",
        "settle 150ms",
        "timeout 2s",
        "colors on",
        'mask /\\d\\d:\\d\\d/ "HH:MM"',
        "",
        'run ["less", "-R", "README.md"]',
        'type "/Quick\\n"',
        "press Enter C-c Up*3",
        'wait "Quick start" timeout 1.5s',
        "wait /^\\$ $/m",
        "quiet 300ms",
        "snapshot first-screen",
        "resize 60x20",
        "press q",
        "expect exit 0",
        "snapshot after.exit",
      ].join("\n"),
    );
    expect(tape.path).toBe("demo.tape");
    expect(tape.size).toEqual({ cols: 100, rows: 30 });
    expect(tape.env).toEqual({ GREETING: "hello world", MODE: "fast" });
    expect(tape.settleMs).toBe(150);
    expect(tape.timeoutMs).toBe(2000);
    expect(tape.colors).toBe(true);
    expect(tape.masks).toEqual([{ pattern: /\d\d:\d\d/, placeholder: "HH:MM" }]);
    expect(tape.run).toEqual({ line: 10, command: { kind: "argv", argv: ["less", "-R", "README.md"] } });
    expect(tape.steps).toEqual([
      { kind: "type", line: 11, text: "/Quick\n" },
      { kind: "press", line: 12, keys: ["Enter", "C-c", "Up", "Up", "Up"] },
      { kind: "wait", line: 13, match: { kind: "text", text: "Quick start" }, timeoutMs: 1500 },
      { kind: "wait", line: 14, match: { kind: "regex", regex: /^\$ $/m }, timeoutMs: 2000 },
      { kind: "quiet", line: 15, ms: 300, timeoutMs: 2000 },
      { kind: "snapshot", line: 16, name: "first-screen" },
      { kind: "resize", line: 17, size: { cols: 60, rows: 20 } },
      { kind: "press", line: 18, keys: ["q"] },
      { kind: "expect-exit", line: 19, code: 0 },
      { kind: "snapshot", line: 20, name: "after.exit" },
    ]);
  });

  it("uses the documented defaults when a tape gives only run", () => {
    const tape = parse("run top");
    expect(tape.size).toEqual(TAPE_DEFAULTS.size);
    expect(tape.settleMs).toBe(TAPE_DEFAULTS.settleMs);
    expect(tape.timeoutMs).toBe(TAPE_DEFAULTS.timeoutMs);
    expect(tape.colors).toBe(false);
    expect(tape.env).toEqual({});
    expect(tape.masks).toEqual([]);
    expect(tape.steps).toEqual([]);
  });

  it("gives a plain run line to the shell, including a line that starts with a [ test", () => {
    expect(parse("run printf 'a b' | tee out.txt").run.command).toEqual({ kind: "shell", command: "printf 'a b' | tee out.txt" });
    expect(parse("run [ -f x ] && echo yes").run.command).toEqual({ kind: "shell", command: "[ -f x ] && echo yes" });
  });

  it("decodes JSON escapes in type text, including ESC", () => {
    const tape = parse('run cat\ntype "a\\tb\\u001b[A \\"q\\" \\\\"');
    expect(tape.steps[0]).toEqual({ kind: "type", line: 2, text: 'a\tb\u001b[A "q" \\' });
  });

  it("keeps a / inside a regex character class or after a backslash", () => {
    const tape = parse("run cat\nwait /a[/]b\\/c/i");
    expect(tape.steps[0]).toMatchObject({ match: { kind: "regex", regex: /a[/]b\/c/i } });
  });

  it("gives quiet a timeout of at least twice its quiet period", () => {
    const tape = parse("timeout 1s\nrun cat\nquiet 800ms");
    expect(tape.steps[0]).toEqual({ kind: "quiet", line: 3, ms: 800, timeoutMs: 1600 });
  });

  it("ignores comments, blank lines, a BOM and CRLF line ends", () => {
    const tape = parse("\uFEFF# c\r\n\r\n   # indented comment\r\nsize 20x5\r\nrun cat\r\npress Enter\r\n");
    expect(tape.size).toEqual({ cols: 20, rows: 5 });
    expect(tape.steps).toEqual([{ kind: "press", line: 6, keys: ["Enter"] }]);
  });

  it("takes an empty env value", () => {
    expect(parse("env EMPTY=\nrun cat").env).toEqual({ EMPTY: "" });
  });
});

describe("parseTape: errors", () => {
  it.each([
    ["size 80by24\nrun x", 1, "bad size", "size 80x24"],
    ["size 0x24\nrun x", 1, "bad size", "size 80x24"],
    ["size 1x24\nrun x", 1, "at least 2 columns", "size 80x24"],
    ["run x\nresize 1x5", 2, "at least 2 columns", "resize 100x30"],
    ["size 80x24\nsize 90x24\nrun x", 2, "already given on line 1", "size 80x24"],
    ["env 1X=a\nrun x", 1, "NAME=value", "env NAME=value"],
    ["env A=b c\nrun x", 1, 'unexpected "c"', "env NAME=value or"],
    ["env A=1\nenv A=2\nrun x", 2, "already given", "env NAME=value"],
    ["settle 200\nrun x", 1, "bad duration", "settle 200ms"],
    ["colors maybe\nrun x", 1, "on or off", "colors on | colors off"],
    ['mask /(/ "x"\nrun x', 1, "invalid regex", "mask /regex/flags"],
    ["mask /a/ x\nrun x", 1, "quoted string", "mask /regex/flags"],
    ['mask /a/g "x"\nrun x', 1, "flags may be i m s u", "mask /regex/flags"],
    ["run x\nsize 10x10", 2, "put it before run (line 1)", "size 80x24"],
    ["press Enter\nrun x", 1, "put run before it", "press Enter"],
    ["run x\nrun y", 2, "already given on line 1", "run ["],
    ["run", 1, "run needs a command", "run ["],
    ['run ["a", 1]', 1, "array of strings", "run ["],
    ["run []", 1, "non-empty", "run ["],
    ["run x\ntype hello", 2, "quoted string", 'type "text"'],
    ['run x\ntype "abc', 2, "unterminated string", 'type "text"'],
    ['run x\ntype "\\x41"', 2, "bad escape", 'type "text"'],
    ['run x\ntype ""', 2, "needs some text", 'type "text"'],
    ['run x\ntype "a" "b"', 2, 'unexpected "\\"b\\""', 'type "text"'],
    ["run x\npress", 2, "at least one key", "press Enter"],
    ["run x\npress Enter;kill-server", 2, "contains \";\"", "press Enter"],
    ["run x\npress Bogus", 2, "not a key tmux knows", "press Enter"],
    ["run x\npress Up*0", 2, "repeat count 0", "press Enter"],
    ["run x\nwait Ready", 2, "quoted string", 'wait "text"'],
    ["run x\nwait /ready", 2, "unterminated /regex/", 'wait "text"'],
    ['run x\nwait "a" within 5s', 2, 'unexpected "within"', 'wait "text" or wait /regex/flags, optionally'],
    ['run x\nwait "a" timeout 0s', 2, "above 0", 'wait "text"'],
    ["run x\nquiet", 2, "missing duration", "quiet 300ms"],
    ["run x\nquiet 11m", 2, "bad duration", "quiet 300ms"],
    ["run x\nquiet 900s", 2, "over 10 minutes", "quiet 300ms"],
    ["run x\nsnapshot Main", 2, "bad snapshot name", "snapshot NAME"],
    ["run x\nsnapshot ../up", 2, "bad snapshot name", "snapshot NAME"],
    ["run x\nsnapshot a\nsnapshot a", 3, "already given on line 2", "snapshot NAME"],
    ["run x\nresize 100", 2, "bad size", "resize 100x30"],
    ["run x\nexpect 0", 2, "expect exit N", "expect exit 0"],
    ["run x\nexpect exit 256", 2, "0..255", "expect exit 0"],
    ["run x\nexpect exit 0\npress q", 3, "only snapshot may follow expect exit (line 2)", "press Enter"],
  ])("rejects %j at line %i: %s", (text, line, what, form) => {
    const message = failure(text);
    expect(message).toContain(`demo.tape:${line}: `);
    expect(message).toContain(what);
    expect(message).toContain(`expected: ${form}`);
  });

  it.each([
    ["size 80", "size 80x24"],
    ["timeout 5", "timeout 5s"],
    ["timeout 0s", "timeout 5s"],
    ["settle 5", "settle 5ms"],
    ["colors maybe", "colors on"],
    ["env A=b c", "env A=1"],
  ])("a refused %j does not count as given: %j after it is accepted", (bad, good) => {
    const message = failure(`${bad}\n${good}\nrun x`);
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toContain("demo.tape:1: ");
    expect(message).not.toContain("already given");
  });

  it("a refused snapshot or expect exit does not count as given either", () => {
    const message = failure("run x\nsnapshot a b\nsnapshot a\nexpect exit 0 now\npress q");
    expect(message.split("\n").map((line) => /^demo\.tape:(\d+): /.exec(line)?.[1])).toEqual(["2", "4"]);
  });

  it.each([["press Bogus"], ["press a;b"]])("a bad key in %j names the tape's type statement, not the MCP tool's field", (statement) => {
    const message = failure(`run x\n${statement}`);
    expect(message).toContain('type "text"');
    expect(message).not.toMatch(/with `text`|with text\)/);
  });

  it("names the known statements when the keyword is unknown", () => {
    const message = failure("run x\nsleep 1s");
    expect(message).toContain("demo.tape:2: unknown statement \"sleep\"");
    expect(message).toContain("known: size, env, settle, timeout, colors, mask, run, type, press, wait, quiet, snapshot, resize, expect");
  });

  it("reports every bad line of a tape, each with file:line, not only the first", () => {
    const message = failure(["size 80by24", "colors maybe", 'run ["a", 1]', "press Bogus", "wait Ready", "snapshot Main"].join("\n"));
    expect(message.split("\n").map((line) => /^demo\.tape:(\d+): /.exec(line)?.[1])).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(message).not.toContain("put run before it");
  });

  it("caps the errors of one tape at 20 and counts the rest", () => {
    const message = failure(["run x", ...Array.from({ length: 30 }, () => "bogus")].join("\n"));
    expect(message.split("\n")).toHaveLength(21);
    expect(message.split("\n").at(-1)).toBe("demo.tape: … and 10 more errors");
  });

  it.each([
    ['Type "ls"', 'did you mean: type "text"'],
    ['Type@100ms "ls"', 'did you mean: type "text"'],
    ["Sleep 500ms", "did you mean: wait \"text\" (until the screen shows it) or quiet 300ms"],
    ["Set FontSize 32", "did you mean: size 80x24 for Width/Height"],
    ["Output demo.gif", "did you mean: snapshot NAME"],
    ["Hide", "did you mean: nothing: only snapshot steps are compared"],
    ["Show", "did you mean: nothing"],
    ["Wait+Screen /\\$/", "did you mean: wait \"text\" or wait /regex/"],
    ["Enter", "did you mean: press Enter"],
    ["Enter 3", "did you mean: press Enter*3"],
    ["Backspace 2", "did you mean: press BSpace*2"],
    ["Ctrl+C", "did you mean: press C-c"],
    ["Ctrl+Alt+x", "did you mean: press C-M-x"],
    ["Alt+Enter", "did you mean: press M-Enter"],
    ["Shift+Tab", "did you mean: press BTab"],
    ["Up@50ms 4", "did you mean: press Up*4"],
    ["Snapshot main", "did you mean: snapshot (statements are lowercase)"],
  ])("answers the VHS habit %j with the statement to use", (statement, hint) => {
    expect(failure(`run x\n${statement}`)).toContain(`demo.tape:2: unknown statement "${statement.split(" ")[0]}"; ${hint}`);
  });

  it("gives no hint for a word that is neither VHS nor a statement", () => {
    for (const word of ["q", "toString", "Ctrl+Bogus", "constructor"]) expect(failure(`run x\n${word}`)).toContain("(known: size, env");
  });

  it("rejects a tape without run and says how to write one", () => {
    expect(failure("size 80x24\n# nothing to run")).toBe(
      'demo.tape: no run statement; expected: run ["prog", "arg"] (argv, no shell) or run a shell command line (given to sh -c)',
    );
  });

  it("only ever throws golden errors, whatever the text (seeded fuzz)", () => {
    const words = ["size", "env", "run", "type", "press", "wait", "quiet", "snapshot", "resize", "expect", "exit", "mask", "colors", "timeout", "#"];
    const piece = fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 8 }), fc.constantFrom('"', "/", "\\", "[", "]", "\n", " ", "80x24", "5s"));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        try {
          parse(pieces.join(" "));
        } catch (error) {
          if (!isPanescopeError(error, "golden")) throw error;
        }
      }),
      { seed: 20_251_130, numRuns: 2000 },
    );
  });
});
