// Reading of stdin held for several reasons at once: it resumes only when the last one lets go.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { InputHold } from "../../src/mcp/input-hold.js";

describe("InputHold", () => {
  it("keeps stdin paused until every reason that held it has let go", () => {
    const stdin = new PassThrough();
    stdin.resume();
    const hold = new InputHold(stdin);
    hold.hold("engine");
    hold.hold("answers");
    expect(stdin.isPaused()).toBe(true);
    hold.release("engine"); // answers still wait for the client
    expect(stdin.isPaused()).toBe(true);
    expect(hold.holds("answers")).toBe(true);
    hold.release("answers");
    expect(stdin.isPaused()).toBe(false);
  });

  it("a release that holds nothing does not resume a stdin another reason paused", () => {
    const stdin = new PassThrough();
    stdin.resume();
    const hold = new InputHold(stdin);
    hold.hold("answers");
    hold.release("engine");
    expect(stdin.isPaused()).toBe(true);
  });
});
