// The package's library entry point exposes the pieces docs/library.md's example uses.
import { describe, expect, it } from "vitest";
import * as panescope from "../src/index.js";

describe("the library entry point", () => {
  it("exports the hub, the server handle and the error root", () => {
    expect(typeof panescope.Hub).toBe("function");
    expect(typeof panescope.TmuxServer).toBe("function");
    expect(new panescope.PanescopeError("bad-input", "x").kind).toBe("bad-input");
  });
});
