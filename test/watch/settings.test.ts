// The watch's settings: every default applied once, where the hub is made; what a caller gave kept.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_RING_CAPACITY } from "../../src/observe/raw/ring.js";
import { DEFAULT_SCROLLBACK } from "../../src/observe/emulator/screen.js";
import { TmuxServer } from "../../src/tmux/server.js";
import { DEFAULT_IDLE_MS, DEFAULT_RECENT_MS, DEFAULT_MAX_PANES, DEFAULT_POLL_INTERVAL_MS, DEFAULT_RETRY_STREAMING_MS, resolveSettings } from "../../src/watch/settings.js";

const server = new TmuxServer({ socketName: "never-started" });

describe("resolveSettings", () => {
  it("fills in every default", () => {
    const key = randomBytes(32);
    const settings = resolveSettings({ server, key });
    expect(settings).toMatchObject({
      server,
      key,
      maxPanes: DEFAULT_MAX_PANES,
      idleMs: DEFAULT_IDLE_MS,
      recentMs: DEFAULT_RECENT_MS,
      scrollback: DEFAULT_SCROLLBACK,
      ringBytes: DEFAULT_RING_CAPACITY,
      client: {},
      retryStreamingMs: DEFAULT_RETRY_STREAMING_MS,
      pollIntervalMs: DEFAULT_POLL_INTERVAL_MS,
      quietClient: false,
      procCheck: true,
    });
    expect(settings.instance).toHaveLength(8);
  });

  it("keeps what the caller gave, and prefixes a pane's log lines for its warn", () => {
    const lines: string[] = [];
    const settings = resolveSettings({ server, key: randomBytes(32), maxPanes: 3, scrollback: 50, quietClient: true, procCheck: false, warn: (m) => lines.push(m) });
    expect(settings).toMatchObject({ maxPanes: 3, scrollback: 50, quietClient: true, procCheck: false });
    settings.log("healed %1");
    expect(lines).toEqual(["panescope: healed %1"]);
  });
});
