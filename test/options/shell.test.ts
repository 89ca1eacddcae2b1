// The shell commands' options: each command becomes one tool call with the arguments the flags
// say, send's text and keys keep their order, and every mistake is a usage error naming the fix.
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { parseCommand } from "../../src/options.js";

function shell(argv: string[], env: Record<string, string> = {}) {
  const command = parseCommand(argv, env);
  if (command.kind !== "shell") throw new Error(`not a shell command: ${command.kind}`);
  return command.command;
}

function refused(argv: string[]): string {
  try {
    parseCommand(argv, {});
  } catch (error) {
    if (isPanescopeError(error, "bad-input")) return error.message;
    throw error;
  }
  throw new Error(`accepted: ${argv.join(" ")}`);
}

describe("the shell commands' options", () => {
  it("read is capture_since on the pane, with the reader, cursor, line cap and wait given", () => {
    expect(shell(["read", "%3", "--as", "ci", "--max-lines", "5", "--wait", "200", "-L", "work"])).toEqual({
      name: "read",
      server: { socketName: "work" },
      tool: "capture_since",
      arguments: { paneId: "%3", maxLines: 5, waitMs: 200 },
      json: false,
      reader: "ci",
      exit: "read",
    });
    expect(shell(["read", "%3"], { PANESCOPE_READER: "env-reader" }).reader).toBe("env-reader");
    expect(shell(["read", "%3", "--cursor", "TOKEN", "--json"])).toMatchObject({ arguments: { paneId: "%3", cursor: "TOKEN" }, json: true });
    // What the text shows, as capture_since's view; wait and send take it too.
    expect(shell(["read", "%3", "--view", "raw"]).arguments).toEqual({ paneId: "%3", view: "raw" });
    expect(shell(["wait", "%3", "--quiet", "100", "--view", "both"]).arguments).toMatchObject({ view: "both" });
    expect(refused(["read", "%3", "--view", "screen"])).toContain('--view is rows, raw or both, got "screen"');
  });

  it("wait takes exactly one condition, and --closed is met by the pane closing", () => {
    expect(shell(["wait", "%1", "--for", "\\$ $", "--timeout", "900"])).toMatchObject({ tool: "wait_for", arguments: { paneId: "%1", pattern: "\\$ $", timeoutMs: 900 }, exit: "wait" });
    expect(shell(["wait", "%1", "--quiet", "300"]).arguments).toEqual({ paneId: "%1", quietMs: 300 });
    expect(shell(["wait", "%1", "--ready"]).arguments).toEqual({ paneId: "%1", ready: true });
    expect(shell(["wait", "%1", "--closed"]).exit).toBe("wait-closed");
    expect(refused(["wait", "%1"])).toContain("give one condition");
    expect(refused(["wait", "%1", "--ready", "--closed"])).toContain("give one condition");
  });

  it("send types text and keys in the order given, then waits with --wait-for", () => {
    const command = shell(["send", "%2", "--key", "Escape", "--text", ":wq", "--key", "Enter", "--text=-v", "--wait-for", "^\\$ $", "--timeout", "5000"]);
    expect(command.arguments).toEqual({ paneId: "%2", input: ["Escape", { text: ":wq" }, "Enter", { text: "-v" }], wait: { pattern: "^\\$ $", timeoutMs: 5000 } });
    expect(command.exit).toBe("wait");
    expect(shell(["send", "%2", "--text", "ls"]).exit).toBe("plain");
    expect(refused(["send", "%2"])).toContain("nothing to send");
    // Words after the pane, as tmux send-keys takes them, are refused with where they belong.
    // Not "one pane only": a word after send's pane is text or a key, and the message says so.
    expect(refused(["send", "%2", "echo hi", "Enter"])).toContain('"echo hi" after the pane is not sent: type text with --text TEXT and press keys with --key KEY');
    expect(refused(["send", "%2", "echo hi"])).not.toContain("one pane only");
    expect(refused(["send", "%2", "--text", "x", "--timeout", "5"])).toContain("--timeout goes with --wait-for");
  });

  it("open quotes each argument for the shell; list, close and their flags", () => {
    expect(shell(["open", "--session", "work", "--", "printf", "%s\\n", "it's here"]).arguments).toEqual({ command: "printf '%s\\n' 'it'\"'\"'s here'", session: "work" });
    expect(shell(["open"]).arguments).toEqual({});
    expect(shell(["list", "--json"])).toMatchObject({ tool: "list_panes", arguments: {}, json: true });
    expect(shell(["close", "%4", "--force"]).arguments).toEqual({ paneId: "%4", force: true });
  });

  it("refuses a missing or malformed pane, unknown flags and numbers out of range, naming the fix", () => {
    expect(refused(["read"])).toBe("name the pane: %N (panescope list shows them) (see panescope read --help)");
    expect(refused(["read", "3"])).toContain("a pane is %N");
    expect(refused(["read", "%3", "%4"])).toContain("one pane only");
    expect(refused(["read", "%3", "--frobnicate"])).toContain("unknown option --frobnicate for panescope read");
    expect(refused(["read", "%3", "--wait", "soon"])).toContain("--wait must be a whole number");
    expect(refused(["list", "-L", "a", "-S", "/b"])).toContain("both name a tmux server");
  });

  it("daemon takes its quiet period from --idle-ms or PANESCOPE_DAEMON_IDLE_MS", () => {
    expect(parseCommand(["daemon", "-S", "/tmp/s", "--idle-ms", "0"], {})).toEqual({ kind: "daemon", options: { server: { socketPath: "/tmp/s" }, idleMs: 0 } });
    expect(parseCommand(["daemon"], { PANESCOPE_DAEMON_IDLE_MS: "5" })).toMatchObject({ options: { idleMs: 5 } });
    expect(shell(["read", "%0"], { PANESCOPE_DAEMON_IDLE_MS: "7" }).idleMs).toBe(7);
    // A bad value names the daemon's help, where the variable is, not the command's.
    expect(() => parseCommand(["list"], { PANESCOPE_DAEMON_IDLE_MS: "abc" })).toThrow(/^PANESCOPE_DAEMON_IDLE_MS must be a whole number .*\(unset it, or see panescope daemon --help\)$/);
  });

  it("each command has its own --help, also as panescope help COMMAND", () => {
    for (const name of ["read", "wait", "send", "list", "open", "close", "daemon"]) {
      const help = parseCommand([name, "--help"], {});
      expect(help).toMatchObject({ kind: "help" });
      expect(parseCommand(["help", name], {})).toEqual(help);
    }
  });

  it("each command's --help lists only the exit statuses it can end with", () => {
    const statuses = (name: string): string => {
      const help = parseCommand([name, "--help"], {});
      return help.kind === "help" ? (/^Exit status: .*$/m.exec(help.text)?.[0] ?? "") : "";
    };
    // read answers "no change" with 0; it never times out (`read %0 --wait 300`: "no change in 300 ms").
    expect(statuses("read")).not.toMatch(/timed out|condition/);
    expect(statuses("read")).toMatch(/^Exit status: 0 .*, 2 usage, 3 the pane is closed or gone, 4 another error/);
    expect(statuses("wait")).toMatch(/0 the condition met .*1 timed out/);
    expect(statuses("send")).toMatch(/1 --wait-for timed out/);
    for (const name of ["list", "open", "close", "shot"]) expect(statuses(name), name).not.toMatch(/timed out|condition/);
    for (const name of ["list", "open"]) expect(statuses(name), name).not.toMatch(/ 3 /);
  });
});
