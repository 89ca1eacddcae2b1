// Fall back, on tmux 3.2: a control client must never watch a session with a pane that remains on exit: tmux
// crashes when such a pane dies while the client has its output queued (tmux/version.ts
// crashesOnDeadPaneOutput). So there, sessions with remain-on-exit panes are polled (one-shot
// capture-pane, `streaming: false`), and a streamed session whose pane turns remain-on-exit on is
// left at once (its watches are then polled too). Elsewhere this does nothing.
//
// Told through one window subscription per window of the session, not one `%*` subscription: on
// 3.2 that form crashes tmux when the client loses its session (tmux/subscriptions.ts).
import type { ControlClient } from "../../tmux/client.js";
import { TmuxFormat } from "../../tmux/format.js";
import type { TmuxServer } from "../../tmux/server.js";
import { windowPanesSubscription } from "../../tmux/subscriptions.js";

const ROE = new TmuxFormat({ paneId: "pane_id", roe: "remain-on-exit" });
/** remain-on-exit is off, on or failed (3.2): anything but off keeps dead panes. */
const keepsDead = (value: string): boolean => value !== "" && value !== "off";
const SUBSCRIPTION = "panescope_roe";
/** Each pane's remain-on-exit, one word per pane of the window. */
const WINDOW_ROE = "#{remain-on-exit} ";

export class DeadPaneGuard {
  private readonly guarded = new WeakSet<ControlClient>();

  constructor(
    private readonly server: TmuxServer,
    private readonly warn: (message: string) => void,
  ) {}

  /** Whether panes of `session` may be streamed through a control client. */
  async streamable(session: string): Promise<boolean> {
    if (!(await this.server.version()).crashesOnDeadPaneOutput) return true;
    const panes = await this.server.query(["list-panes", "-s", "-t", session, "-F", ROE.text], ROE).catch(() => []);
    const kept = panes.filter((pane) => keepsDead(pane.roe));
    if (kept.length === 0) return true;
    this.warn(
      `panescope: tmux ${(await this.server.version()).label} crashes when a watched pane that remains on exit dies (fixed in tmux 3.3): ` +
        `session ${session} has such panes (${kept.map((p) => p.paneId).join(" ")}), so its panes are polled, not streamed`,
    );
    return false;
  }

  /** Leaves (closes) `client` the moment a pane of its session turns remain-on-exit on. */
  async watch(client: ControlClient): Promise<void> {
    if (this.guarded.has(client) || !(await this.server.version()).crashesOnDeadPaneOutput) return;
    this.guarded.add(client);
    const subscribe = (windowId: string): void => {
      if (!/^@\d+$/.test(windowId)) return;
      client.command(["refresh-client", "-B", windowPanesSubscription(SUBSCRIPTION, windowId, WINDOW_ROE)]).catch(() => undefined);
    };
    const subscribeAll = async (): Promise<void> => {
      const windows = await client.command(["list-windows", "-F", "#{window_id}"]).catch(() => []);
      for (const windowId of windows) subscribe(windowId);
    };
    const off = client.on((event) => {
      if (event.type === "window-add") subscribe(event.windowId);
      else if (event.type === "session-changed") void subscribeAll();
      if (event.type !== "subscription-changed" || !event.name.startsWith(`${SUBSCRIPTION}-`) || !event.value.split(" ").some(keepsDead)) return;
      off();
      this.warn(`panescope: a pane of window ${event.windowId} now remains on exit: leaving its session's stream (tmux 3.2 would crash when it dies); polling instead`);
      void client.close();
    });
    await subscribeAll();
  }
}
