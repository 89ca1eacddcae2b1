// The library face: what a program needs to watch panes without MCP (the golden API is in ./golden).
export { PanescopeError, isPanescopeError, type ErrorKind } from "./errors.js";
export { TmuxServer, type TmuxServerOptions, type PaneInfo } from "./tmux/server.js";
export { Hub, type HubOptions, type CaptureRequest } from "./watch/hub.js";
export { PaneObserver } from "./observe/pane.js";
export type { Delta, Row, ScreenInfo, MissedReason, ReadLimits, Truncation, PaneExit, ScreenPatch, PatchRow, Scroll, Offscreen } from "./observe/delta.js";
export type { ScreenSnapshot, StyleRun, Colour } from "./observe/snapshot.js";
export { screenToSvg, cellSize, type SvgOptions, type CellRange } from "./evidence/svg.js";
export { svgToPng } from "./evidence/png.js";
export { paint, paletteHex, colourHex, DEFAULT_FG, DEFAULT_BG, type Paint, type CellStyle } from "./evidence/palette.js";
export { CastWriter, formatCast, parseCast, type Cast, type CastEvent, type CastHeader } from "./evidence/cast.js";
export { replayCast } from "./evidence/replay.js";
export type { PaneTap, ScreenCause } from "./observe/tap.js";
