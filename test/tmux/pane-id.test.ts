// Pane ids as tmux reads them: leading zeros do not make another pane.
import { describe, expect, it } from "vitest";
import { canonicalPaneId, samePane } from "../../src/tmux/pane-id.js";
import { validatePaneId } from "../../src/tmux/server.js";

describe("pane ids", () => {
  it("are made canonical: leading zeros dropped, a lone zero kept", () => {
    expect(canonicalPaneId("%00")).toBe("%0");
    expect(canonicalPaneId("%000000000")).toBe("%0");
    expect(canonicalPaneId("%0012")).toBe("%12");
    expect(canonicalPaneId("%7")).toBe("%7");
    expect(canonicalPaneId("%10")).toBe("%10");
    expect(validatePaneId("%000000003")).toBe("%3");
  });
  it("compare as numbers, however each is spelled", () => {
    expect(samePane("%0", "%00")).toBe(true);
    expect(samePane("%000000000", "%0")).toBe(true);
    expect(samePane("%1", "%10")).toBe(false);
    expect(samePane("%01", "%1")).toBe(true);
  });
  it("leave what is not an id for the checks that reject it", () => {
    expect(canonicalPaneId("%")).toBe("%");
    expect(canonicalPaneId("0")).toBe("0");
    expect(() => validatePaneId("%-1")).toThrow(/not a pane id/);
  });
});
