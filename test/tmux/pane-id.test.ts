// Pane ids as tmux reads them: leading zeros do not make another pane, and a number above tmux's
// largest is out of range, not "not a pane id".
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
  it("go up to %4294967295 (tmux's UINT_MAX), however many leading zeros", () => {
    expect(validatePaneId("%4294967295")).toBe("%4294967295");
    expect(validatePaneId("%2147483647")).toBe("%2147483647");
    expect(validatePaneId("%0000000003")).toBe("%3");
  });
  it("above that are out of range, and the message says where the panes are listed", () => {
    const said = "pane id %4294967296 is out of range: tmux numbers panes from %0 to %4294967295";
    expect(() => validatePaneId("%4294967296")).toThrow(`${said} (list panes to find one)`);
    expect(() => validatePaneId("%0099999999999")).toThrow("pane id %99999999999 is out of range");
  });
});
