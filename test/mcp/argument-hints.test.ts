// The refusals of an agent's common argument mistakes say the next step in the tools' own terms
// (a pane id without %, a string where a list goes): checked before tmux is asked anything.
import { afterEach, describe, expect, it } from "vitest";
import { link, textOf, type Linked } from "../support/mcp-link.js";

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
});

async function refusal(name: string, args: Record<string, unknown>): Promise<string> {
  const mcp = await link();
  linked.push(mcp);
  const result = await mcp.call(name, args);
  expect(result.isError, textOf(result)).toBe(true);
  return textOf(result);
}

describe("an argument of the wrong shape", () => {
  it("a pane id without % says what a pane id looks like and where to find one", async () => {
    expect(await refusal("send_keys", { paneId: "1", text: "x" })).toContain('paneId must be a tmux pane id like %3: a % and digits, nothing else (list_panes shows them)');
  });

  it("a pane id given as a number, or left out where it is required, says it is a string like \"%3\"", async () => {
    expect(await refusal("capture_since", { paneId: 3 })).toContain('paneId is a string: a tmux pane id like "%3" (list_panes shows them)');
    expect(await refusal("send_keys", { text: "x" })).toContain('paneId is required: a tmux pane id like "%3" (list_panes shows them)');
  });

  it("keys given as one string (\"echo hi\\n\") says keys is a list of key names and text goes in text", async () => {
    expect(await refusal("send_keys", { paneId: "%0", keys: "echo hi\n" })).toContain('keys is a list of key names, e.g. ["C-c"] or ["Up", "Enter"]; type text with text (at keys)');
  });

  it("input given as one string shows the list it takes", async () => {
    expect(await refusal("send_keys", { paneId: "%0", input: "ls" })).toContain('input is a list: key names and {"text": ...}, e.g. [{"text": "ls"}, "Enter"] (at input)');
  });

  it("wait_for's cursors or paneIds given as one string points at cursor and paneId", async () => {
    expect(await refusal("wait_for", { cursors: "abc", quietMs: 10 })).toContain("cursors is a list of cursors (for one pane, pass cursor) (at cursors)");
    expect(await refusal("wait_for", { paneIds: "%0", quietMs: 10 })).toContain('paneIds is a list of pane ids like ["%3"] (for one pane, pass paneId) (at paneIds)');
  });

  it("open_pane's env given as a string shows the object it takes", async () => {
    expect(await refusal("open_pane", { env: "LANG=C" })).toContain('env is an object of names to values, e.g. {"LANG": "C.UTF-8"} (at env)');
  });
});
