// How `panescope mcp` names its tmux server, and small pure helpers of its tools (options: test/options.test.ts; own pane: own-pane.test.ts).
import { describe, expect, it } from "vitest";
import { describeServer } from "../../src/mcp/main.js";
import { literalArg } from "../../src/tmux/server.js";
import { fail } from "../../src/mcp/results.js";
import { literalFor } from "../../src/mcp/tools/send-keys.js";
import { PanescopeError } from "../../src/errors.js";

describe("describeServer", () => {
  it("names the server the way tmux does", () => {
    expect(describeServer({ socketName: "x" })).toBe("-L x");
    expect(describeServer({ socketPath: "/s" })).toBe("-S /s");
    expect(describeServer({})).toBe("default socket");
  });
});

describe("send_keys text handling", () => {
  it("without enter, newlines stay newline characters", () => {
    expect(literalFor("a\nb\n", false)).toBe("a\nb\n");
  });
  it("with enter, every newline becomes Enter (CR), a trailing one too: the Enter of enter follows it (docs/tools.md)", () => {
    expect(literalFor("a\nb\r\n", true)).toBe("a\rb\r");
  });
  it("a trailing ; is escaped so tmux does not read it as a command separator", () => {
    expect(literalArg("ls;")).toBe("ls\\;");
    expect(literalArg(";")).toBe("\\;");
    expect(literalArg("a\\;")).toBe("a\\\\;");
    expect(literalArg("a; b")).toBe("a; b");
  });
});

describe("fail", () => {
  it("turns a typed error into an isError result naming its kind and the next step", () => {
    const result = fail(new PanescopeError("no-server", "no server"), { serverArgs: "-L work" });
    expect(result.isError).toBe(true);
    expect(result._meta).toEqual({ "panescope/error": "no-server" });
    expect(result.content[0]).toMatchObject({ type: "text" });
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(/^error \(no-server\): no tmux server is running on tmux server -L work/);
    expect(text).toContain("tmux -L work new-session -d");
  });
  it("an error that carries its own advice gets it instead of its kind's", () => {
    const text = (error: PanescopeError): string => (fail(error).content[0] as { text: string }).text;
    expect(text(new PanescopeError("command-failed", "can't find window: x"))).toBe("error (command-failed): can't find window: x. Check the arguments (list_panes shows the panes there are)");
    expect(text(new PanescopeError("command-failed", "the command could not start", { advice: "Check the command" }))).toBe("error (command-failed): the command could not start. Check the command");
  });
  it("an unexpected error is internal and says to report it", () => {
    expect((fail(new Error("boom")).content[0] as { text: string }).text).toBe("error (internal): boom. This is a panescope bug; please report it. Other calls still work");
  });
});
