// Command line and environment of `panescope mcp` (which pane is panescope's own: own-pane.test.ts).
import { describe, expect, it } from "vitest";
import { describeServer, parseOptions } from "../../src/mcp/main.js";
import { literalArg } from "../../src/tmux/server.js";
import { fail } from "../../src/mcp/results.js";
import { literalFor } from "../../src/mcp/tools/send-keys.js";
import { PanescopeError } from "../../src/errors.js";

describe("parseOptions", () => {
  it("defaults to the default server, read-write, a 30 s wait cap", () => {
    expect(parseOptions([], {})).toEqual({ server: {}, readOnly: false, maxWaitMs: 30000 });
  });

  it("reads flags, and flags win over the environment", () => {
    const env = { PANESCOPE_SOCKET: "envsock", PANESCOPE_READ_ONLY: "1", PANESCOPE_MAX_WAIT_MS: "5000", PANESCOPE_TMUX: "/opt/tmux" };
    expect(parseOptions(["--socket", "work", "--max-wait-ms=100"], env)).toEqual({
      server: { socketName: "work", tmux: "/opt/tmux" },
      readOnly: true,
      maxWaitMs: 100,
    });
    expect(parseOptions(["-S", "/tmp/s", "--read-only"], {}).server).toEqual({ socketPath: "/tmp/s" });
  });

  it("rejects unknown flags, missing values and bad wait caps with bad-input", () => {
    for (const args of [["--bogus"], ["--socket"], ["--max-wait-ms", "-1"], ["--max-wait-ms", "1e9"], ["--max-wait-ms", "abc"]]) {
      expect(() => parseOptions(args, {}), args.join(" ")).toThrow(PanescopeError);
    }
  });

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
  it("with enter, newlines become Enter (CR) and a trailing newline does not add a second Enter", () => {
    expect(literalFor("a\nb\r\n", true)).toBe("a\rb");
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
  it("an unexpected error is internal and says to report it", () => {
    expect((fail(new Error("boom")).content[0] as { text: string }).text).toBe("error (internal): boom. This is a panescope bug; please report it. Other calls still work");
  });
});
