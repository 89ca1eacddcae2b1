// The keys each caller typed, for wait_for's rule that the prompt the keys found is not their
// answer: one caller's keys never reach another's view, and the store stays bounded.
import { describe, expect, it } from "vitest";
import { MAX_TYPED, TypedKeys, TypedStore } from "../../src/mcp/typed-keys.js";

describe("the keys each caller typed", () => {
  it("are seen by the caller that typed them only", () => {
    const store = new TypedStore();
    const a = new TypedKeys(store, "reader a");
    const b = new TypedKeys(store, "reader b");
    a.remember("%1", "before-a");
    expect(a.get("%1")).toBe("before-a");
    expect(b.get("%1")).toBeUndefined();
    // A view named anew (the daemon's spare server taken by another connection) sees that caller's.
    b.caller = "reader a";
    expect(b.get("%1")).toBe("before-a");
  });

  it("forget the oldest beyond the bound, and keep the most recently typed", () => {
    const typed = new TypedKeys();
    for (let i = 0; i <= MAX_TYPED; i++) typed.remember(`%${i}`, `c${i}`);
    expect(typed.get("%0")).toBeUndefined();
    expect(typed.get("%1")).toBe("c1");
    typed.remember("%1", "again");
    typed.remember("%999", "new");
    expect(typed.get("%1")).toBe("again");
    expect(typed.get("%2")).toBeUndefined();
  });
});
