// Pure: one control-mode notification line (bytes) → one typed event. Pane output is decoded from
// tmux's \ooo escaping on bytes; everything else is small text decoded as UTF-8.

import type { ControlEvent } from "./events.js";
import { parseLayout } from "./layout.js";
import { carveBytes, carvedCopy } from "../bytes.js";

const BACKSLASH = 0x5c;
export const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const OUTPUT_PREFIX = bytesOf("%output %");
const EXTENDED_PREFIX = bytesOf("%extended-output %");

/**
 * One notification line → event. Output lines must be strictly well-formed (valid escapes, no raw
 * control bytes); otherwise null when `strict` (inside a block the line is then body text) or a
 * protocol-error outside one. Unmodelled `%name` lines → unknown.
 */
export function parseNotification(bytes: Uint8Array, strict: boolean): ControlEvent | null {
  if (startsWith(bytes, OUTPUT_PREFIX)) return parseOutput(bytes, OUTPUT_PREFIX.length, false, strict);
  if (startsWith(bytes, EXTENDED_PREFIX)) return parseOutput(bytes, EXTENDED_PREFIX.length, true, strict);
  const line = utf8.decode(bytes);
  const space = line.indexOf(" ");
  const name = space === -1 ? line : line.slice(0, space);
  const rest = space === -1 ? "" : line.slice(space + 1);
  const event = parseSimple(name, rest, space === -1);
  if (event !== null) return event;
  if (strict) return null;
  return /^%[a-z-]+$/.test(name) ? { type: "unknown", line } : null;
}

const PANE = /^%\d+$/;
const WINDOW = /^@\d+$/;
const SESSION = /^\$\d+$/;

function parseSimple(name: string, rest: string, bare: boolean): ControlEvent | null {
  const f = rest.split(" ");
  const one = f.length === 1 && !bare;
  switch (name) {
    case "%pause":
    case "%continue":
    case "%pane-mode-changed": {
      const paneId = f[0] ?? "";
      if (!one || !PANE.test(paneId)) return null;
      return name === "%pause" ? { type: "pause", paneId } : name === "%continue" ? { type: "continue", paneId } : { type: "pane-mode-changed", paneId };
    }
    case "%exit":
      // tmux 3.3a prints a bare `%exit` on detach and on kill-server; a reason when it has one.
      return bare ? { type: "exit" } : { type: "exit", reason: rest };
    case "%sessions-changed":
      return bare ? { type: "sessions-changed" } : null;
    case "%window-add":
    case "%window-close":
    case "%unlinked-window-close":
    case "%unlinked-window-add": {
      const windowId = f[0] ?? "";
      if (!one || !WINDOW.test(windowId)) return null;
      return { type: name.slice(1) as "window-add" | "window-close" | "unlinked-window-close" | "unlinked-window-add", windowId };
    }
    case "%window-renamed":
    case "%unlinked-window-renamed": {
      const windowId = f[0] ?? "";
      if (bare || f.length < 2 || !WINDOW.test(windowId)) return null;
      return { type: name.slice(1) as "window-renamed" | "unlinked-window-renamed", windowId, name: rest.slice(windowId.length + 1) };
    }
    case "%window-pane-changed": {
      const [windowId = "", paneId = ""] = f;
      if (f.length !== 2 || !WINDOW.test(windowId) || !PANE.test(paneId)) return null;
      return { type: "window-pane-changed", windowId, paneId };
    }
    case "%session-changed":
    case "%session-renamed": {
      const sessionId = f[0] ?? "";
      if (bare || f.length < 2 || !SESSION.test(sessionId)) return null;
      return { type: name.slice(1) as "session-changed" | "session-renamed", sessionId, name: rest.slice(sessionId.length + 1) };
    }
    case "%session-window-changed": {
      const [sessionId = "", windowId = ""] = f;
      if (f.length !== 2 || !SESSION.test(sessionId) || !WINDOW.test(windowId)) return null;
      return { type: "session-window-changed", sessionId, windowId };
    }
    case "%client-session-changed": {
      const [client = "", sessionId = ""] = f;
      if (f.length < 3 || !SESSION.test(sessionId)) return null;
      return { type: "client-session-changed", client, sessionId, name: rest.slice(client.length + sessionId.length + 2) };
    }
    case "%client-detached":
      return bare ? null : { type: "client-detached", client: rest };
    case "%layout-change":
      return parseLayoutChange(f);
    case "%subscription-changed":
      return parseSubscription(rest);
    default:
      return null;
  }
}

function parseLayoutChange(f: string[]): ControlEvent | null {
  // tmux 3.3a: `%layout-change @W layout visible-layout flags` (flags may be empty).
  const [windowId = "", layout = "", visibleLayout, flags] = f;
  if (f.length < 2 || f.length > 4 || !WINDOW.test(windowId)) return null;
  const panes = parseLayout(layout);
  if (panes === null) return null;
  return {
    type: "layout-change",
    windowId,
    layout,
    panes,
    ...(visibleLayout === undefined ? {} : { visibleLayout }),
    ...(flags === undefined ? {} : { flags }),
  };
}

function parseSubscription(rest: string): ControlEvent | null {
  // tmux 3.3a control.c: `NAME $S @W IDX %P : VALUE`, "-" for levels the subscription is not about.
  const m = /^(.+?) (\$\d+|-) (@\d+|-) (\d+|-) (%\d+|-) : ?([\s\S]*)$/.exec(rest);
  if (m === null) return null;
  const [, name = "", sessionId = "", windowId = "", windowIndex = "", paneId = "", value = ""] = m;
  return { type: "subscription-changed", name, sessionId, windowId, windowIndex, paneId, value };
}

function parseOutput(bytes: Uint8Array, at: number, extended: boolean, strict: boolean): ControlEvent | null {
  let i = at;
  while (i < bytes.length && isDigit(bytes[i])) i++;
  // Up to 10 digits: pane ids reach UINT_MAX (pane-id.ts).
  if (i === at || i - at > 10) return badOutput(bytes, strict, "bad pane id in output");
  const paneId = paneIdAt(bytes, at, i);
  if (bytes[i] !== 0x20) return badOutput(bytes, strict, "missing space after pane id");
  i++;
  let age: number | undefined;
  if (extended) {
    // `%extended-output %P AGE [fields…] : DATA` — skip to the first " : " after AGE.
    const ageStart = i;
    while (i < bytes.length && isDigit(bytes[i])) i++;
    if (i === ageStart) return badOutput(bytes, strict, "bad age in extended-output");
    age = digitsAt(bytes, ageStart, i);
    const sep = indexOfColon(bytes, i);
    if (sep === -1) return badOutput(bytes, strict, "missing ' : ' in extended-output");
    i = Math.min(sep + 3, bytes.length);
  }
  const data = decodeEscapes(bytes, i);
  if (data === null) return badOutput(bytes, strict, "bad escape in output");
  return age === undefined ? { type: "output", paneId, data } : { type: "output", paneId, data, age };
}

/** `%N` by N, made once per pane: a flood's thousands of output lines a second share it. */
const paneIds: string[] = [];

/** The pane id spelled by the digits in [from, to). */
function paneIdAt(bytes: Uint8Array, from: number, to: number): string {
  // A leading zero is not how tmux spells an id: kept as written, not cached.
  if (bytes[from] === 0x30 && to - from > 1) return `%${latin1(bytes, from, to)}`;
  const n = digitsAt(bytes, from, to);
  return n < 65536 ? (paneIds[n] ??= `%${n}`) : `%${n}`;
}

/** The number the decimal digits in [from, to) spell. */
function digitsAt(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) n = n * 10 + ((bytes[k] as number) - 0x30);
  return n;
}

function badOutput(bytes: Uint8Array, strict: boolean, why: string): ControlEvent | null {
  return strict ? null : { type: "protocol-error", message: `${why}: ${preview(bytes)}` };
}

/** tmux escapes bytes < 0x20 and `\` as `\ooo`; everything else (UTF-8 included) is raw. */
export function decodeEscapes(bytes: Uint8Array, from = 0): Uint8Array | null {
  // Hot: every byte of every flood passes here. Reads stay in bounds (an out-of-bounds typed-array
  // read takes V8's slow path) and digits are checked as unsigned ranges.
  const end = bytes.length;
  // Decoded into a reused scratch buffer, then copied out once at the exact size: half the garbage.
  const scratch = end - from <= SCRATCH.length;
  const out = scratch ? SCRATCH : carveBytes(end - from);
  let n = 0;
  let i = from;
  while (i < end) {
    const b = bytes[i] as number;
    if (b !== BACKSLASH) {
      if (b < 0x20) return null;
      out[n++] = b;
      i++;
      continue;
    }
    if (i + 3 >= end) return null;
    const d1 = (bytes[i + 1] as number) - 0x30;
    const d2 = (bytes[i + 2] as number) - 0x30;
    const d3 = (bytes[i + 3] as number) - 0x30;
    if (d1 >>> 0 > 3 || d2 >>> 0 > 7 || d3 >>> 0 > 7) return null;
    out[n++] = (d1 << 6) | (d2 << 3) | d3;
    i += 4;
  }
  return scratch ? carvedCopy(out.subarray(0, n)) : out.subarray(0, n);
}

/** tmux's %output lines stay under a few KiB (one read of the pane); a longer one gets its own. */
const SCRATCH = new Uint8Array(64 * 1024);

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x39;
}

function indexOfColon(bytes: Uint8Array, from: number): number {
  for (let i = from; i + 2 < bytes.length; i++) {
    if (bytes[i] === 0x20 && bytes[i + 1] === 0x3a && bytes[i + 2] === 0x20) return i;
  }
  // tmux writes " : " even for empty data, but tolerate a line ending in " :".
  const n = bytes.length;
  return n >= from + 2 && bytes[n - 2] === 0x20 && bytes[n - 1] === 0x3a ? n - 2 : -1;
}

export function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

export function latin1(bytes: Uint8Array, from: number, to: number): string {
  // apply, not a spread: no iterator over the bytes.
  return String.fromCharCode.apply(null, bytes.subarray(from, Math.min(to, from + 4096)) as unknown as number[]);
}

export function preview(bytes: Uint8Array): string {
  return JSON.stringify(utf8.decode(bytes.subarray(0, 80)));
}

export function bytesOf(ascii: string): Uint8Array {
  return Uint8Array.from(ascii, (c) => c.charCodeAt(0));
}
