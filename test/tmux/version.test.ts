// TmuxVersion: reading `tmux -V` as each build prints it, and the per-version facts panescope uses.
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { requireSupported, TmuxVersion } from "../../src/tmux/version.js";

const v = (output: string): TmuxVersion => TmuxVersion.parse(output);

describe("TmuxVersion", () => {
  it("reads releases, 3.2a's program-name prefix, release candidates and development builds", () => {
    expect([v("tmux 3.3a"), v("tmux-3.2a 3.2a\n"), v("tmux 3.5a-rc"), v("tmux next-3.8"), v("tmux 3.10")].map((x) => [x.label, x.major, x.minor])).toEqual([
      ["3.3a", 3, 3],
      ["3.2a", 3, 2],
      ["3.5a-rc", 3, 5],
      ["next-3.8", 3, 8],
      ["3.10", 3, 10],
    ]);
  });

  it("a build without a number (master, openbsd-7.6) counts as newer than every release", () => {
    for (const build of ["tmux master", "tmux openbsd-7.6"]) {
      expect(v(build).atLeast(3, 7)).toBe(true);
      expect(v(build).storesNamesEncoded).toBe(true);
    }
  });

  it("knows what differs: output escaping 3.4–3.5, names stored encoded 3.7+, remain-on-exit-format 3.3+, tabs in captures 3.6+", () => {
    const facts = (label: string) => {
      const x = v(`tmux ${label}`);
      return [x.supported, x.ignoresDetachedSize, x.hasRemainOnExitFormat, x.escapesCommandOutput, x.captureKeepsTabs, x.storesNamesEncoded];
    };
    expect(Object.fromEntries(["3.1c", "3.2a", "3.3a", "3.4", "3.5a", "3.6a", "3.7c"].map((label) => [label, facts(label)]))).toEqual({
      "3.1c": [false, true, false, false, false, false],
      "3.2a": [true, true, false, false, false, false],
      "3.3a": [true, false, true, false, false, false],
      "3.4": [true, false, true, true, false, false],
      "3.5a": [true, false, true, true, false, false],
      "3.6a": [true, false, true, false, true, false],
      "3.7c": [true, false, true, false, true, true],
    });
  });

  it("refuses a tmux older than 3.2, naming the version found and what to do", () => {
    expect(requireSupported(v("tmux 3.2a")).label).toBe("3.2a");
    let error: unknown;
    try {
      requireSupported(v("tmux 3.1c"), "/usr/bin/tmux");
    } catch (e) {
      error = e;
    }
    expect(isPanescopeError(error, "tmux-unsupported")).toBe(true);
    expect((error as Error).message).toMatch(/^\/usr\/bin\/tmux is tmux 3\.1c, and panescope needs tmux 3\.2 or later: install a newer tmux .* --tmux PATH or PANESCOPE_TMUX$/);
  });

  it("empty -V output is a protocol error, not a guess", () => {
    expect(() => v("  \n")).toThrow(/printed nothing/);
  });
});
