// Subscriptions that cannot crash tmux: which versions need the per-window form, what it asks of
// tmux, and which pane its answers are about (the live check: integration/sessionless-subscription).
import { describe, expect, it } from "vitest";
import type { ControlEvent } from "../../src/tmux/events.js";
import { paneSubscription, sessionSubscription, subscribedPane, subscriptionName, windowPanesSubscription } from "../../src/tmux/subscriptions.js";
import { TmuxVersion } from "../../src/tmux/version.js";

type Subscription = Extract<ControlEvent, { type: "subscription-changed" }>;
const v = (label: string): TmuxVersion => TmuxVersion.parse(`tmux ${label}`);
const event = (name: string, paneId: string, value: string): Subscription => ({
  type: "subscription-changed",
  name,
  sessionId: "$1",
  windowId: "@2",
  windowIndex: "0",
  paneId,
  value,
});

describe("subscriptions", () => {
  it("3.2a–3.6a crash on a sessionless client's %* (or session) subscription, 3.7c and later do not", () => {
    expect(Object.fromEntries(["3.2a", "3.3a", "3.4", "3.5a", "3.6a", "3.7c", "next-3.8", "master"].map((l) => [l, v(l).crashesOnSessionlessSubscription]))).toEqual({
      "3.2a": true,
      "3.3a": true,
      "3.4": true,
      "3.5a": true,
      "3.6a": true,
      "3.7c": false,
      "next-3.8": false,
      master: false,
    });
  });

  it("never asks %* (or @*, or a session) of a tmux that crashes on it, nor of an unknown one", () => {
    for (const version of [v("3.2a"), v("3.3a"), v("3.6a"), undefined]) {
      const argument = paneSubscription(version, "s", "%5", "@2", "#{pane_dead}", "7");
      expect(argument).toBe("s-%5-7:@2:#{P:#{?#{==:#{pane_id},%5},#{pane_dead},}}");
      expect(argument?.split(":")[1]).toMatch(/^@\d+$/);
    }
    for (const version of [v("3.2a"), v("3.3a"), v("3.4"), v("3.5a"), v("3.6a"), undefined]) expect(sessionSubscription(version, "m", "#{W:x}")).toBeUndefined();
    expect(sessionSubscription(v("3.7c"), "m", "#{W:x}")).toBe("m::#{W:x}");
    expect(paneSubscription(v("3.7c"), "s", "%5", "@2", "#{pane_dead}", "7")).toBe("s:%*:#{pane_dead}");
    // An unknown window would make a session subscription (`name::…`), which crashes alike.
    for (const windowId of ["", "-", "$1", "@*", "@2:x"]) expect(paneSubscription(v("3.3a"), "s", "%5", windowId, "#{pane_dead}", "7")).toBeUndefined();
    expect(windowPanesSubscription("r", "@3", "#{remain-on-exit} ")).toBe("r-@3:@3:#{P:#{remain-on-exit} }");
    expect(subscriptionName("s-%5-7:@2:#{P:x}")).toBe("s-%5-7");
  });

  it("tells which pane an answer is about, in either form, and ignores the rest", () => {
    expect(subscribedPane("s", event("s", "%5", "0 123"))).toBe("%5");
    expect(subscribedPane("s", event("s-%5-7", "-", "0 123"))).toBe("%5");
    expect(subscribedPane("s", event("s-%12-3", "-", "1 9"))).toBe("%12");
    // The pane has left the window: the value is empty, and says nothing of the pane.
    expect(subscribedPane("s", event("s-%5-7", "-", ""))).toBeUndefined();
    expect(subscribedPane("s", event("s", "-", "0 123"))).toBeUndefined();
    expect(subscribedPane("s", event("other", "%5", "0 123"))).toBeUndefined();
    expect(subscribedPane("s", event("s-@3", "-", "on "))).toBeUndefined();
    expect(subscribedPane("s", event("sx-%5-7", "-", "0 1"))).toBeUndefined();
  });
});
