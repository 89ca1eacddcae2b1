// A command's stdout reader gone: the EPIPE Node reports a tick after the write reaches the run that
// is current, also once that run has returned, and no number of runs adds a second listener.
import { afterEach, describe, expect, it } from "vitest";
import { onReaderGone } from "../src/reader-gone.js";

describe("onReaderGone", () => {
  const before = process.stdout.listeners("error");
  afterEach(() => {
    for (const listener of process.stdout.listeners("error")) if (!before.includes(listener)) process.stdout.off("error", listener as (error: Error) => void);
  });

  it("sends stdout's error to the latest run, after it returned too, through one listener", () => {
    const gone: string[] = [];
    onReaderGone(() => gone.push("first run"));
    onReaderGone(() => gone.push("second run"));
    expect(process.stdout.listeners("error").length).toBe(before.length + 1);
    // The second run has returned (nothing removed its watch): its late EPIPE is still heard, not thrown.
    expect(process.stdout.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }))).toBe(true);
    expect(gone).toEqual(["second run"]);
  });
});
