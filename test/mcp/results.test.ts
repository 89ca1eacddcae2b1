// Tool failures as isError results: the kind, the advice, and text that is safe to show.
import { describe, expect, it } from "vitest";
import { PanescopeError } from "../../src/errors.js";
import { fail } from "../../src/mcp/results.js";

const textOf = (result: ReturnType<typeof fail>): string => (result.content[0] as { text: string }).text;

describe("fail", () => {
  it("says the kind first and keeps the message's advice", () => {
    const result = fail(new PanescopeError("unknown-pane", "no pane %9 on this tmux server: list_panes shows the panes there are"));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("error (unknown-pane): no pane %9 on this tmux server: list_panes shows the panes there are");
  });

  it("shows control characters a message quotes escaped: the caller's input, the system's message about it", () => {
    // open_pane {cwd: "/tmp/no\x1b[31m\u2028"}: node's ENOENT message quotes the path as it is.
    const message = "cwd \"/tmp/no\\u001b[31m\u2028\" is not a directory (ENOENT: no such file or directory, stat '/tmp/no\x1b[31m\u2028\x9b')";
    const text = textOf(fail(new PanescopeError("bad-input", message, { advice: "pass an existing\tabsolute directory" })));
    expect(text).toBe("error (bad-input): cwd \"/tmp/no\\u001b[31m\\u2028\" is not a directory (ENOENT: no such file or directory, stat '/tmp/no\\x1b[31m\\u2028\\x9b'). pass an existing\tabsolute directory");
    expect(text).not.toMatch(/[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]/);
  });
});
