// What one daemon shares among its connections: the tmux server, the hub (one control client per
// session, one emulator per pane), the pattern matcher and the panes opened and typed into. The
// only place the daemon builds a Hub (as mcp/main.ts does for the stdio server): one seam to
// change when the hub's construction changes.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MAX_WAIT_LIMIT_MS } from "../options/model.js";
import { createServer, sharedToolState, type SharedToolState } from "../mcp/server.js";
import type { Hello } from "../shell/protocol.js";
import { canonicalPaneId } from "../tmux/pane-id.js";
import { TmuxServer, type TmuxServerOptions } from "../tmux/server.js";
import { Hub } from "../watch/hub.js";

export class SharedObserver {
  readonly server: TmuxServer;
  readonly hub: Hub;
  private readonly state: SharedToolState;

  constructor(options: TmuxServerOptions, warn: (line: string) => void) {
    this.server = new TmuxServer(options);
    this.hub = new Hub({ server: this.server, warn });
    this.state = sharedToolState();
  }

  /** One MCP server per connection, with the caller's policy: its own pane, read-only, wait cap. */
  async serve(hello: Hello, transport: Transport): Promise<void> {
    const own = hello.ownPane;
    const ownPane = own !== undefined && typeof own.paneId === "string" && /^%\d+$/.test(own.paneId) ? { ...own, paneId: canonicalPaneId(own.paneId) } : undefined;
    const maxWaitMs = typeof hello.maxWaitMs === "number" && hello.maxWaitMs >= 0 ? Math.min(hello.maxWaitMs, MAX_WAIT_LIMIT_MS) : undefined;
    const mcp = createServer({
      hub: this.hub,
      server: this.server,
      readOnly: hello.readOnly === true,
      shared: this.state,
      ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
      ...(ownPane === undefined ? {} : { ownPane }),
    });
    await mcp.connect(transport);
  }

  async close(): Promise<void> {
    await this.hub.close();
    await this.state.regex.close();
  }
}
