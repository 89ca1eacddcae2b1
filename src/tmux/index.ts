// The public surface of the tmux layer: the only code in panescope that talks to tmux.

export type { ControlEvent, ControlEventType, LayoutPane } from "./events.js";
export { LineFramer, DEFAULT_MAX_LINE_BYTES, type Frame } from "./framing.js";
export { ControlParser, DEFAULT_MAX_REPLY_BYTES, decodeEscapes, type ControlParserOptions } from "./protocol.js";
export { parseLayout } from "./layout.js";
export { quoteArg, commandLine, commandsLine } from "./quote.js";
export { TMUX_TIMEOUT_MS, PROBE_TIMEOUT_MS } from "./timeouts.js";
export { TmuxServer, isNoServer, validatePaneId, type TmuxServerOptions, type RunOptions, type ServerGeneration, type PaneInfo } from "./server.js";
export { ControlClient, defaultSpawn, type ControlClientOptions, type CommandOptions, type ControlListener, type ControlProcess, type SpawnControl } from "./client.js";
export { SessionRegistry, type SessionLease, type SessionRegistryOptions } from "./sessions.js";
export { TmuxFormat, decodeValue, type FieldSpec, type FormatRecord } from "./format.js";
export { TmuxVersion, MIN_TMUX, requireSupported } from "./version.js";
export { expandTabs } from "./capture.js";
