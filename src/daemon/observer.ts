// What one daemon shares among its connections: the tmux server, the hub (one control client per
// session, one emulator per pane), the pattern matcher and the panes opened and typed into. The
// only place the daemon builds a Hub (as mcp/main.ts does for the stdio server): one seam to
// change when the hub's construction changes. Each connection gets its own MCP server; building
// one (seven tools and their schemas) takes 10–20 ms, so a spare is built for each recent policy
// once a connection ends, and the next caller with that policy takes it at once.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MAX_WAIT_LIMIT_MS } from "../options/model.js";
import { connectRouted } from "../mcp/request-route.js";
import { createServer, sharedToolState, type CreateServerOptions, type SharedToolState } from "../mcp/server.js";
import { DEFAULT_MAX_BYTES } from "../mcp/limits.js";
import type { Knobs } from "../mcp/render.js";
import { TypedKeys, TypedStore } from "../mcp/typed-keys.js";
import type { Hello } from "../shell/protocol.js";
import { canonicalPaneId } from "../tmux/pane-id.js";
import { TmuxServer, type TmuxServerOptions } from "../tmux/server.js";
import { Hub } from "../watch/hub.js";

/** Policies with a spare server kept (the least recently used dropped first). */
const MAX_SPARES = 8;

type Policy = Pick<CreateServerOptions, "readOnly" | "maxWaitMs" | "ownPane" | "defaultCwd" | "knobs">;

/**
 * A shell command's names for what an answer's notes point at (options/shell.ts): its flags, and
 * the byte cap it has no flag for (it never sends maxBytes).
 */
const SHELL_KNOBS: Knobs = {
  rowLimits: `--max-lines, or an answer's ${DEFAULT_MAX_BYTES / 1024} KiB cap`,
  byteLimit: `an answer's ${DEFAULT_MAX_BYTES / 1024} KiB cap`,
  rowsView: "--view rows",
};

/** A connection's MCP server, and its view of the keys typed (named for its caller when it connects). */
interface Built {
  mcp: McpServer;
  typed: TypedKeys;
}

/** What a hello asks of its connection's server, checked: a caller's values are never trusted as is. */
function policyOf(hello: Hello): Policy {
  const own = hello.ownPane;
  const ownPane = own !== undefined && typeof own.paneId === "string" && /^%\d+$/.test(own.paneId) ? { ...own, paneId: canonicalPaneId(own.paneId) } : undefined;
  const maxWaitMs = typeof hello.maxWaitMs === "number" && hello.maxWaitMs >= 0 ? Math.min(hello.maxWaitMs, MAX_WAIT_LIMIT_MS) : undefined;
  // As open_pane takes a cwd: absolute, of a sane length, nothing tmux could not be sent.
  const cwd = typeof hello.cwd === "string" && hello.cwd.startsWith("/") && hello.cwd.length <= 4096 && !/[\0\n\r]/.test(hello.cwd) ? hello.cwd : undefined;
  return {
    readOnly: hello.readOnly === true,
    ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
    ...(ownPane === undefined ? {} : { ownPane }),
    ...(cwd === undefined ? {} : { defaultCwd: cwd }),
    ...(hello.terms === "shell" ? { knobs: SHELL_KNOBS } : {}),
  };
}

export class SharedObserver {
  readonly server: TmuxServer;
  readonly hub: Hub;
  private readonly state: SharedToolState;
  /** Every connection's last keys, by caller (typed-keys.ts). */
  private readonly typed = new TypedStore();
  private readonly spares = new Map<string, Built>();
  private connections = 0;
  private closed = false;

  constructor(options: TmuxServerOptions, warn: (line: string) => void, maxPanes?: number) {
    this.server = new TmuxServer(options);
    this.hub = new Hub({ server: this.server, warn, maxPanes });
    this.state = sharedToolState();
  }

  /** One MCP server per connection, with the caller's policy: its own pane, read-only, wait cap. */
  async serve(hello: Hello, transport: Transport): Promise<void> {
    const policy = policyOf(hello);
    const key = JSON.stringify(policy);
    const spare = this.spares.get(key);
    this.spares.delete(key);
    // The next spare is built once this connection ends: built at once, it held this call's answer
    // (the call arrives right after the hello). Set before connect: the SDK keeps and calls it.
    transport.onclose = () => setImmediate(() => this.stock(key, policy));
    const built = spare ?? this.build(policy);
    // Whose keys its send_keys remembers and its waits heed: a shell command's reader (each of its
    // commands is a connection of its own), else this connection alone (a relay's whole MCP session).
    built.typed.caller = typeof hello.reader === "string" ? `reader ${hello.reader}` : `connection ${++this.connections}`;
    await connectRouted(built.mcp, transport);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.spares.clear();
    await this.hub.close();
    await this.state.regex.close();
  }

  private build(policy: Policy): Built {
    const typed = new TypedKeys(this.typed);
    return { mcp: createServer({ hub: this.hub, server: this.server, shared: { ...this.state, typed }, ...policy }), typed };
  }

  private stock(key: string, policy: Policy): void {
    if (this.closed || this.spares.has(key)) return;
    this.spares.set(key, this.build(policy));
    for (const oldest of this.spares.keys()) {
      if (this.spares.size <= MAX_SPARES) break;
      this.spares.delete(oldest);
    }
  }
}
