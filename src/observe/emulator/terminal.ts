// The xterm terminal behind a screen, made the way a tmux pane needs it: loaded on first use, its
// widths those of the tmux in use, quiet about parse errors.
import { createRequire } from "node:module";
import type { Terminal as XTerminal } from "@xterm/headless";
import type { WidthPolicy } from "../widths/policy.js";
import { ignoreUnknownToTmux } from "./unknown-to-tmux.js";
import { keepEmptyLineMaps, printC1 } from "./xterm-internals.js";

// xterm is loaded by the first screen, not by whoever imports this file: it is a large bundle, and
// the MCP server should answer initialize and tools/list before any pane is watched. Both packages
// are CommonJS, so require() keeps the constructor synchronous.
type Xterm = { Terminal: typeof import("@xterm/headless").Terminal; Unicode11Addon: typeof import("@xterm/addon-unicode11").Unicode11Addon };
let xterm: Xterm | undefined;
function loadXterm(): Xterm {
  if (xterm === undefined) {
    const require = createRequire(import.meta.url);
    const { Terminal } = require("@xterm/headless") as typeof import("@xterm/headless");
    const { Unicode11Addon } = require("@xterm/addon-unicode11") as typeof import("@xterm/addon-unicode11");
    xterm = { Terminal, Unicode11Addon };
  }
  return xterm;
}

/** A terminal of `cols` × `rows` keeping `scrollback` lines; `widths` as in ScreenOptions. */
export function newTerminal(cols: number, rows: number, scrollback: number, widths: WidthPolicy | undefined): XTerminal {
  const { Terminal, Unicode11Addon } = loadXterm();
  const term = new Terminal({
    cols,
    rows,
    scrollback,
    allowProposedApi: true,
    // tmux sends what the pane's program wrote; the pty already turned \n into \r\n.
    convertEol: false,
    // xterm logs every parse error to the console at its default level: `cat /dev/urandom` in a
    // watched pane wrote ~5 MB/s of stderr (and grew memory when nobody drained it).
    logLevel: "off",
  });
  if (widths) {
    const buffers = term.buffer;
    const provider = widths.providerFor(() => cellBeforeCursor(buffers.active));
    term.unicode.register(provider);
    term.unicode.activeVersion = provider.version;
  } else {
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = "11";
  }
  keepEmptyLineMaps(term);
  // A C1 control sent as UTF-8 is a character to tmux, not a control (xterm-internals.ts).
  printC1(term);
  ignoreUnknownToTmux(term);
  return term;
}

/** The cell left of the cursor (the first half of a wide one), read while xterm parses. */
function cellBeforeCursor(buffer: XTerminal["buffer"]["active"]): { chars: string; width: number } | undefined {
  const line = buffer.getLine(buffer.baseY + buffer.cursorY);
  let x = buffer.cursorX - 1;
  let cell = line?.getCell(x);
  if (cell && cell.getWidth() === 0 && x > 0) cell = line?.getCell(--x);
  return cell ? { chars: cell.getChars(), width: cell.getWidth() } : undefined;
}
