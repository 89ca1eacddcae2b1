// One audit: a probe that shows a size the replica has not heard of yet is a resize in flight (its
// %layout-change comes after the probe's replies), not a difference to heal.
import { describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/observe/emulator/seed.js";
import type { PaneObserver } from "../../../src/observe/pane/observer.js";
import type { ControlClient } from "../../../src/tmux/client.js";
import { auditPane } from "../../../src/watch/audit/audit.js";
import { PROBE } from "../../../src/watch/seed/probe.js";
import { tmuxPrints } from "../../support/tmux-output.js";

const ZEROS = Object.fromEntries(["cursor_x", "cursor_y", "alternate_on", "alternate_saved_x", "alternate_saved_y", "scroll_region_upper", "history_size", "pane_dead", "pane_pid", "pid", "start_time"].map((name) => [name, "0"]));

/** tmux's replies to probeCommands for an empty pane of this size. */
function probeReplies(cols: number, rows: number): string[][] {
  const display = tmuxPrints(PROBE.text, { ...ZEROS, pane_id: "%1", pane_width: String(cols), pane_height: String(rows), scroll_region_lower: String(rows - 1) }, "3.4");
  return [[""], Array.from({ length: rows }, () => ""), display];
}

/**
 * A replica of `cols` × 20 whose tmux is at 60 × 15; `onRoundTrip` runs while the audit's extra round
 * trip is out (a %layout-change arriving then). Returns the audit's result and the heals it applied.
 */
async function audit(cols: number, onRoundTrip: (size: { cols: number; rows: number }) => void) {
  const size = { cols, rows: 20 };
  const heals: ScreenState[] = [];
  const observer = {
    get size() {
      return { ...size };
    },
    screenText: async () => ({ history: [], rows: Array.from({ length: size.rows }, () => ""), screen: { ...size, top: 0, cursorX: 0, cursorY: 0, alternate: false } }),
    heal: (state: ScreenState) => void heals.push(state),
  } as unknown as PaneObserver;
  const client = {
    commands: async () => probeReplies(60, 15),
    command: async () => {
      onRoundTrip(size);
      return ["%1"];
    },
  } as unknown as ControlClient;
  const result = await auditPane({ client, paneId: "%1", observer, history: 0, received: () => 0, ready: () => true, settled: () => true, healed: () => undefined, present: async () => true });
  return { result, heals };
}

describe("auditPane", () => {
  it("a resize the replica hears of during its round trip makes the audit busy: no heal", async () => {
    const { result, heals } = await audit(80, (size) => Object.assign(size, { cols: 60, rows: 15 }));
    expect(result).toBe("busy");
    expect(heals).toEqual([]);
  });

  it("a size that stays different after the round trip is healed to tmux's", async () => {
    const { result, heals } = await audit(80, () => undefined);
    expect(result).toBe("healed");
    expect(heals.map((s) => [s.cols, s.rows])).toEqual([[60, 15]]);
  });
});
