// The option model of every subcommand, without processes: argv and env in, a command or a
// bad-input error out; help texts name every flag and environment variable.
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../src/errors.js";
import { DEFAULT_MAX_WAIT_MS } from "../src/mcp/server.js";
import { DEFAULT_MAX_PANES } from "../src/watch/settings.js";
import { commandHelp, MAX_PANES_DEFAULT, MAX_WAIT_DEFAULT_MS, OPTIONS, parseBoolean, parseCommand, TERMINAL_HINT, topHelp, type Command, type Env } from "../src/options.js";

function refused(argv: string[], env: Env = {}): string {
  try {
    parseCommand(argv, env);
  } catch (error) {
    expect(isPanescopeError(error, "bad-input"), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`${argv.join(" ")} was accepted`);
}

function options<K extends Command["kind"]>(kind: K, argv: string[], env: Env = {}): Extract<Command, { kind: K }> {
  const command = parseCommand(argv, env);
  expect(command.kind).toBe(kind);
  return command as Extract<Command, { kind: K }>;
}

describe("parseBoolean", () => {
  it.each(["1", "true", "yes", "on", "TRUE", "Yes", "ON", " on "])("reads %j as true", (value) => {
    expect(parseBoolean(value, "X")).toBe(true);
  });
  it.each(["0", "false", "no", "off", "FALSE", "No", "OFF"])("reads %j as false", (value) => {
    expect(parseBoolean(value, "X")).toBe(false);
  });
  it("refuses anything else, naming the variable and the accepted words", () => {
    expect(() => parseBoolean("maybe", "PANESCOPE_READ_ONLY")).toThrow('PANESCOPE_READ_ONLY must be 1/true/yes/on or 0/false/no/off, got "maybe"');
  });
});

describe("the mcp command", () => {
  it("is the default: no arguments is the default server, read-write, a 30 s wait cap", () => {
    expect(parseCommand([], {})).toEqual({ kind: "mcp", options: { server: {}, readOnly: false, maxWaitMs: 30_000, shared: false, engineThread: true } });
    expect(parseCommand(["mcp"], {})).toEqual(parseCommand([], {}));
    expect(MAX_WAIT_DEFAULT_MS).toBe(DEFAULT_MAX_WAIT_MS);
    expect(MAX_PANES_DEFAULT).toBe(DEFAULT_MAX_PANES);
  });

  it("refuses --transcript and --max-panes with --shared, where the daemon answers and watches", () => {
    expect(() => parseCommand(["--shared", "--transcript", "t.jsonl"], {})).toThrow("drop --shared to keep a transcript");
    expect(() => parseCommand(["--max-panes", "9"], { PANESCOPE_SHARED: "1" })).toThrow("give PANESCOPE_MAX_PANES to the command that starts the daemon");
  });

  it("puts the engine on a thread of its own unless --single-thread or PANESCOPE_SINGLE_THREAD, never with --shared", () => {
    expect(options("mcp", [], {}).options).toMatchObject({ engineThread: true });
    expect(options("mcp", ["--engine-thread"], {}).options).toMatchObject({ engineThread: true });
    expect(options("mcp", [], { PANESCOPE_ENGINE_THREAD: "yes" }).options).toMatchObject({ engineThread: true });
    expect(options("mcp", ["--single-thread"], {}).options.engineThread).toBeUndefined();
    expect(options("mcp", [], { PANESCOPE_SINGLE_THREAD: "1" }).options.engineThread).toBeUndefined();
    expect(options("mcp", ["--shared"], {}).options.engineThread).toBeUndefined();
    expect(() => parseCommand(["--engine-thread", "--single-thread"], {})).toThrow("ask for opposite things: drop one of the two");
    expect(() => parseCommand(["--single-thread"], { PANESCOPE_ENGINE_THREAD: "1" })).toThrow("ask for opposite things");
    expect(() => parseCommand(["--engine-thread", "--shared"], {})).toThrow("with --shared the daemon watches them: drop one of the two");
    expect(() => parseCommand([], { PANESCOPE_ENGINE_THREAD: "maybe" })).toThrow("PANESCOPE_ENGINE_THREAD");
    expect(() => parseCommand([], { PANESCOPE_SINGLE_THREAD: "maybe" })).toThrow("PANESCOPE_SINGLE_THREAD");
  });

  it("caps the watched panes with --max-panes or PANESCOPE_MAX_PANES, a flag winning, and refuses nonsense", () => {
    expect(options("mcp", ["--max-panes", "3"], { PANESCOPE_MAX_PANES: "9" }).options).toMatchObject({ maxPanes: 3 });
    expect(options("mcp", [], { PANESCOPE_MAX_PANES: "9" }).options).toMatchObject({ maxPanes: 9 });
    expect(() => parseCommand(["--max-panes", "0"], {})).toThrow("--max-panes must be a whole number from 1 to 100000, got \"0\"");
    expect(() => parseCommand([], { PANESCOPE_MAX_PANES: "lots" })).toThrow("PANESCOPE_MAX_PANES must be a whole number from 1 to 100000");
  });

  it("reads flags, and flags win over the environment", () => {
    const env = { PANESCOPE_SOCKET: "envsock", PANESCOPE_READ_ONLY: "1", PANESCOPE_MAX_WAIT_MS: "5000", PANESCOPE_TMUX: "/opt/tmux" };
    expect(options("mcp", ["--socket", "work", "--max-wait-ms=100"], env).options).toEqual({
      server: { socketName: "work", tmux: "/opt/tmux" },
      readOnly: true,
      maxWaitMs: 100,
      shared: false,
      engineThread: true,
    });
    expect(options("mcp", ["-S", "/tmp/s", "--read-only"], {}).options.server).toEqual({ socketPath: "/tmp/s" });
    expect(options("mcp", ["-Lwork", "--tmux", "/x/tmux"], env).options.server).toEqual({ socketName: "work", tmux: "/x/tmux" });
    expect(options("mcp", ["-S", "/s"], { PANESCOPE_SOCKET: "envsock" }).options.server).toEqual({ socketPath: "/s" });
  });

  it("takes every environment variable when no flag is given", () => {
    expect(options("mcp", [], { PANESCOPE_SOCKET_PATH: "/run/t", PANESCOPE_TMUX: "/opt/tmux", PANESCOPE_MAX_WAIT_MS: "7", PANESCOPE_SHARED: "1" }).options).toEqual({
      server: { socketPath: "/run/t", tmux: "/opt/tmux" },
      readOnly: false,
      maxWaitMs: 7,
      shared: true,
    });
  });

  it.each(["yes", "on", "TRUE", "1"])("PANESCOPE_READ_ONLY=%s is read-only", (value) => {
    expect(options("mcp", [], { PANESCOPE_READ_ONLY: value }).options.readOnly).toBe(true);
  });

  it("PANESCOPE_READ_ONLY=off or empty is read-write, and a word it does not know is refused", () => {
    expect(options("mcp", [], { PANESCOPE_READ_ONLY: "off" }).options.readOnly).toBe(false);
    expect(options("mcp", [], { PANESCOPE_READ_ONLY: "" }).options.readOnly).toBe(false);
    expect(refused([], { PANESCOPE_READ_ONLY: "maybe" })).toContain("PANESCOPE_READ_ONLY must be 1/true/yes/on or 0/false/no/off");
  });

  it("refuses two flags that name two servers, and two environment variables that do", () => {
    expect(refused(["--socket", "a", "--socket-path", "b"])).toContain("-L/--socket and -S/--socket-path both name a tmux server: give one");
    expect(refused(["-L", "a", "-S", "b"])).toContain("give one");
    expect(refused([], { PANESCOPE_SOCKET: "a", PANESCOPE_SOCKET_PATH: "/b" })).toContain("PANESCOPE_SOCKET and PANESCOPE_SOCKET_PATH are both set");
    expect(refused(["-L", "a", "--socket", "b"])).toContain("-L/--socket is given twice");
  });

  it.each([
    [["--bogus"], "unknown option --bogus for panescope mcp"],
    [["--socket"], "--socket needs a value: --socket NAME"],
    [["--socket", "--read-only"], "--socket needs a value"],
    [["--socket="], "--socket was given an empty value: --socket NAME"],
    [["-L=work"], "-L=work: a short flag's value follows it after a space: -L work (or --socket=work)"],
    [["--read-only=yes"], '--read-only takes no value, got "yes"'],
    [["--max-wait-ms", "-1"], '--max-wait-ms needs a value: --max-wait-ms N (a value that starts with "-" goes after "=": --max-wait-ms=-1)'],
    [["--max-wait-ms", "1e9"], "--max-wait-ms must be a whole number"],
    [["--max-wait-ms", "abc"], "--max-wait-ms must be a whole number"],
    [["frobnicate"], 'unknown command "frobnicate": the commands are mcp, demo, golden, report, record, read'],
    [["mcp", "extra"], 'panescope mcp takes no arguments, got "extra"'],
    [["--version", "x"], "--version takes nothing after it"],
  ])("refuses %j: %s", (argv, message) => {
    const text = refused(argv);
    expect(text).toContain(message);
    expect(text).toMatch(/\(see panescope (\w+ )?--help\)$/);
  });

  it("a socket name that starts with a dash is accepted after =", () => {
    expect(options("mcp", ["--socket=-odd"]).options.server).toEqual({ socketName: "-odd" });
  });

  it("adds a one-line hint when stdin is a terminal, and none when a client pipes it", () => {
    expect(parseCommand([], {}, true)).toMatchObject({ kind: "mcp", hint: TERMINAL_HINT });
    expect(parseCommand(["mcp", "-L", "w"], {}, true)).toMatchObject({ kind: "mcp", hint: TERMINAL_HINT });
    expect(parseCommand([], {}, false)).not.toHaveProperty("hint");
    expect(TERMINAL_HINT).not.toContain("\n");
    expect(TERMINAL_HINT).toContain("panescope demo");
  });
});

describe("the demo command", () => {
  it("takes --tmux, or PANESCOPE_TMUX, and the flag wins", () => {
    expect(options("demo", ["demo"]).options).toEqual({});
    expect(options("demo", ["demo"], { PANESCOPE_TMUX: "/opt/tmux" }).options).toEqual({ tmux: "/opt/tmux" });
    expect(options("demo", ["demo", "--tmux", "/x"], { PANESCOPE_TMUX: "/opt/tmux" }).options).toEqual({ tmux: "/x" });
  });

  it("refuses -L and -S, saying it runs its own server and what to do instead", () => {
    for (const argv of [["demo", "-L", "work"], ["demo", "--socket-path", "/s"]]) {
      const message = refused(argv);
      expect(message).toContain("panescope demo starts and removes its own private tmux server");
      expect(message).toContain('connect an MCP client to "panescope -L NAME"');
    }
  });

  it("ignores the socket environment variables, which are the MCP server's", () => {
    expect(options("demo", ["demo"], { PANESCOPE_SOCKET: "work", PANESCOPE_SOCKET_PATH: "/s" }).options).toEqual({});
  });

  it("--help is help, not a run of the demo; an argument is refused", () => {
    expect(parseCommand(["demo", "--help"], {})).toEqual({ kind: "help", text: commandHelp("demo") });
    expect(parseCommand(["demo", "-h"], {})).toEqual({ kind: "help", text: commandHelp("demo") });
    expect(refused(["demo", "now"])).toContain('panescope demo takes no arguments, got "now"');
  });
});

describe("the golden command", () => {
  it("defaults to the golden/ folder, no update, no cross-check", () => {
    expect(options("golden", ["golden"]).options).toEqual({ update: false, checkTmux: false, listStale: false, record: false, paths: ["golden"] });
  });

  it("takes its flags, --tmux and paths, also after --", () => {
    expect(options("golden", ["golden", "--update", "--check-tmux", "--tmux", "/x", "a.tape", "--", "-odd.tape"]).options).toEqual({
      update: true,
      checkTmux: true,
      listStale: false,
      record: false,
      tmux: "/x",
      paths: ["a.tape", "-odd.tape"],
    });
    expect(options("golden", ["golden", "--list-stale", "dir"]).options).toMatchObject({ listStale: true, paths: ["dir"] });
  });

  it("takes --report DIR (or PANESCOPE_REPORT) and --record", () => {
    expect(options("golden", ["golden", "--report", "out", "--record"]).options).toMatchObject({ report: "out", record: true });
    expect(options("golden", ["golden"], { PANESCOPE_REPORT: "r" }).options).toMatchObject({ report: "r", record: false });
  });

  it.each(["1", "yes", "On", "TRUE"])("PANESCOPE_UPDATE=%s asks for an update; PANESCOPE_TMUX picks tmux", (value) => {
    expect(options("golden", ["golden"], { PANESCOPE_UPDATE: value, PANESCOPE_TMUX: "/opt/tmux" }).options).toMatchObject({ update: true, tmux: "/opt/tmux" });
  });

  it("refuses an unknown PANESCOPE_UPDATE, -L and -S, and unknown flags", () => {
    expect(refused(["golden"], { PANESCOPE_UPDATE: "please" })).toContain("PANESCOPE_UPDATE must be");
    expect(refused(["golden", "-L", "x"])).toContain("each golden scenario starts and removes its own private tmux server");
    expect(refused(["golden", "--frobnicate"])).toContain("unknown option --frobnicate for panescope golden (see panescope golden --help)");
  });
});

describe("the transcript and report commands", () => {
  it("mcp takes --transcript FILE", () => {
    expect(options("mcp", ["--transcript", "t.jsonl"]).options.transcript).toBe("t.jsonl");
  });

  it("report takes one transcript and names the page after it unless -o says otherwise", () => {
    expect(options("report", ["report", "s/t.jsonl"]).options).toEqual({ transcript: "s/t.jsonl", output: "s/t.html" });
    expect(options("report", ["report", "t.jsonl", "-o", "page.html"]).options).toEqual({ transcript: "t.jsonl", output: "page.html" });
    expect(refused(["report"])).toMatch(/takes one transcript file/);
    expect(refused(["report", "a.jsonl", "b.jsonl"])).toMatch(/takes one transcript file/);
  });
});

describe("help", () => {
  it("panescope --help lists every command, -L/-S and every environment variable", () => {
    const help = topHelp();
    expect(parseCommand(["--help"], {})).toEqual({ kind: "help", text: help });
    expect(parseCommand(["-h"], {})).toEqual({ kind: "help", text: help });
    expect(parseCommand(["help"], {})).toEqual({ kind: "help", text: help });
    for (const text of ["panescope [mcp]", "panescope demo", "panescope golden", "-L, --socket NAME", "-S, --socket-path PATH", "--tmux PATH", "--read-only", "--max-wait-ms N"]) {
      expect(help).toContain(text);
    }
    for (const spec of Object.values(OPTIONS)) if (spec.env !== undefined) expect(help).toContain(spec.env);
    expect(help).toContain("1/true/yes/on or 0/false/no/off");
  });

  it("each command has its own help, listing exactly the options it takes", () => {
    expect(parseCommand(["mcp", "--help"], {})).toEqual({ kind: "help", text: commandHelp("mcp") });
    expect(parseCommand(["--read-only", "--help"], {})).toEqual({ kind: "help", text: commandHelp("mcp") });
    expect(parseCommand(["help", "golden"], {})).toEqual({ kind: "help", text: commandHelp("golden") });
    expect(commandHelp("mcp")).toContain("PANESCOPE_SOCKET_PATH");
    expect(commandHelp("demo")).toMatch(/^usage: panescope demo \[--tmux PATH\]/);
    expect(commandHelp("demo")).not.toContain("--read-only");
    expect(commandHelp("golden")).toContain("--list-stale");
    expect(commandHelp("golden")).toContain("PANESCOPE_UPDATE");
    expect(refused(["help", "nothing"])).toContain('no help on "nothing"');
  });

  it("--version is its own command", () => {
    expect(parseCommand(["--version"], {})).toEqual({ kind: "version" });
    expect(parseCommand(["-V"], {})).toEqual({ kind: "version" });
  });
});
