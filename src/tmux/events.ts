// Typed events of tmux control mode (tmux -C), as produced by the pure protocol parser.
// Pane ids are "%N", window ids "@N", session ids "$N", exactly as tmux prints them.

/** One pane's geometry inside a `%layout-change` layout string (a leaf `WxH,x,y,ID`). */
export interface LayoutPane {
  paneId: string;
  cols: number;
  rows: number;
  x: number;
  y: number;
}

export type ControlEvent =
  /** Bytes a pane printed. `%extended-output` also carries the age in ms. Data is decoded from \ooo. */
  | { type: "output"; paneId: string; data: Uint8Array; age?: number }
  /**
   * tmux stopped sending a pane's output; output until `continue` is lost. `requested` is true when
   * the line arrived inside a command reply (a `refresh-client -A '%P:pause'` we sent), false when
   * tmux paused on its own because this client fell `pause-after` seconds behind.
   */
  | { type: "pause"; paneId: string; requested?: boolean }
  | { type: "continue"; paneId: string }
  | { type: "exit"; reason?: string }
  | { type: "layout-change"; windowId: string; layout: string; visibleLayout?: string; flags?: string; panes: LayoutPane[] }
  | { type: "window-add"; windowId: string }
  | { type: "window-close"; windowId: string }
  | { type: "unlinked-window-close"; windowId: string }
  | { type: "window-pane-changed"; windowId: string; paneId: string }
  | { type: "session-changed"; sessionId: string; name: string }
  | { type: "sessions-changed" }
  | { type: "session-renamed"; sessionId: string; name: string }
  | { type: "session-window-changed"; sessionId: string; windowId: string }
  | { type: "window-renamed"; windowId: string; name: string }
  | { type: "unlinked-window-add"; windowId: string }
  | { type: "unlinked-window-renamed"; windowId: string; name: string }
  | { type: "client-session-changed"; client: string; sessionId: string; name: string }
  | { type: "client-detached"; client: string }
  | { type: "pane-mode-changed"; paneId: string }
  /** Session/window/pane fields are "-" when the subscription is not for that level (as tmux prints). */
  | { type: "subscription-changed"; name: string; sessionId: string; windowId: string; windowIndex: string; paneId: string; value: string }
  /** A complete command reply: the lines between %begin and %end (ok) or %error (not ok). */
  /** `truncated`: body lines past the parser's reply bound were dropped (a protocol-error says so). */
  | { type: "reply"; time: number; number: number; flags: number; ok: boolean; lines: string[]; truncated?: boolean }
  /** A notification we do not model: kept whole, never dropped silently. */
  | { type: "unknown"; line: string }
  /** Input the parser could not accept (e.g. a line over the bound); parsing goes on after it. */
  | { type: "protocol-error"; message: string };

export type ControlEventType = ControlEvent["type"];
