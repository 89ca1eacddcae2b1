// What tmux's reports about a watched pane mean (pure): subscription values and layouts in, what
// happened to the pane out.
import { describe, expect, it } from "vitest";
import type { ControlEvent } from "../../../src/tmux/events.js";
import { MEMBERS_SUBSCRIPTION, PANES_SUBSCRIPTION, paneInLayout, readSubscription } from "../../../src/watch/follow/subscriptions.js";

type Report = Extract<ControlEvent, { type: "subscription-changed" }>;
const report = (name: string, paneId: string, value: string): Report => ({ type: "subscription-changed", name, sessionId: "$0", windowId: "@1", windowIndex: "0", paneId, value });
const pane = (value: string): Report => report(PANES_SUBSCRIPTION, "%1", value);
const notOpened = (): undefined => undefined;

describe("readSubscription", () => {
  it("another pid in the pane is a respawn; the same pid alive is no news", () => {
    expect(readSubscription(pane("0 200   "), "%1", 100, notOpened)).toEqual({ kind: "respawned" });
    expect(readSubscription(pane("0 100   "), "%1", 100, notOpened)).toBeUndefined();
  });

  it("a dead pane ends with the status or signal tmux recorded (none on 3.2a's empty signal)", () => {
    expect(readSubscription(pane("1 100 3  "), "%1", 100, notOpened)).toEqual({ kind: "ended", exit: { status: 3 } });
    expect(readSubscription(pane("1 100  TERM "), "%1", 100, notOpened)).toEqual({ kind: "ended", exit: { signal: "TERM" } });
    expect(readSubscription(pane("1 100   "), "%1", 100, notOpened)).toEqual({ kind: "ended", exit: undefined });
  });

  it("the opened-pane option is only a hint: the end is what the pane's process says, else the pane lives", () => {
    expect(readSubscription(pane("0 100   ch:0"), "%1", 100, () => 7)).toEqual({ kind: "ended", exit: { status: 7 } });
    expect(readSubscription(pane("0 100   set-by-anyone"), "%1", 100, notOpened)).toBeUndefined();
  });

  it("another pane's report is not ours; the session's pane list without ours means it left", () => {
    expect(readSubscription(report(PANES_SUBSCRIPTION, "%2", "1 5  "), "%1", 100, notOpened)).toBeUndefined();
    expect(readSubscription(report(MEMBERS_SUBSCRIPTION, "-", "%0 %1 %2 "), "%1", 100, notOpened)).toBeUndefined();
    expect(readSubscription(report(MEMBERS_SUBSCRIPTION, "-", "%0 %2 "), "%1", 100, notOpened)).toEqual({ kind: "left" });
  });
});

describe("paneInLayout", () => {
  const layout = (windowId: string, panes: Array<[string, number, number]>, visibleLayout?: string): Extract<ControlEvent, { type: "layout-change" }> => ({
    type: "layout-change",
    windowId,
    layout: "",
    ...(visibleLayout === undefined ? {} : { visibleLayout }),
    panes: panes.map(([paneId, cols, rows]) => ({ paneId, cols, rows, x: 0, y: 0 })),
  });

  it("gives the pane's size, the zoomed one from the visible layout", () => {
    expect(paneInLayout(layout("@1", [["%1", 40, 24], ["%2", 39, 24]]), "%1", "@1")).toEqual({ cols: 40, rows: 24 });
    expect(paneInLayout(layout("@1", [["%1", 40, 24], ["%2", 39, 24]], "ab12,80x24,0,0,1"), "%1", "@1")).toEqual({ cols: 80, rows: 24 });
  });

  it("a layout of the pane's window without it means it left; another window's says nothing", () => {
    expect(paneInLayout(layout("@1", [["%2", 80, 24]]), "%1", "@1")).toBe("left");
    expect(paneInLayout(layout("@3", [["%2", 80, 24]]), "%1", "@1")).toBeUndefined();
  });
});
