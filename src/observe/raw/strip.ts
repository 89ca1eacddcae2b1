// Streaming escape stripper + UTF-8 decoder for `raw`: pane bytes in, printed text out.
// tmux cuts output anywhere (mid escape, mid UTF-8 character; seen on tmux 3.3a), so the state
// between chunks is carried in a tiny value that fits in a cursor (≤ 4 bytes encoded).
//
// Escape syntax is tmux's (input.c, the same tables 3.2a–3.7c), since tmux decides what a pane shows:
// C0 controls inside ESC/CSI are executed (so a `\n` there still counts), bytes ≥ 0x80 there are
// ignored, CAN/SUB abort, ESC restarts, strings end at ST (OSC also at BEL), `ESC k` is a string
// (screen's window name), and a DCS ends only at `ESC \` (tmux's passthrough doubles the ESCs
// inside: ESC then anything else, CAN and SUB are its data). Kept controls: `\n`, `\t`, `\r`;
// `\r\n` (and `\r\r…\n`, and a `\r` followed by escapes then `\n`) becomes `\n`, so a `\r` that
// reaches the text is a real overwrite.
// A trailing `\r` is held in the state until the next byte shows whether a `\n` follows.
// Decoded C1 controls (U+0080–U+009F) are dropped; invalid UTF-8 becomes U+FFFD as TextDecoder does.

import { PanescopeError } from "../../errors.js";

export type StripMode =
  | "ground"
  | "escape" // after ESC
  | "escape-intermediate" // ESC then 0x20–0x2F (nF: `ESC ( B`)
  | "csi" // ESC [ … until a final byte 0x40–0x7E
  | "osc" // ESC ] … until BEL or ST
  | "osc-escape" // ESC seen inside an OSC: `\` ends it, anything else starts a new escape
  | "string" // SOS / PM / APC / `ESC k`, or a DCS tmux ignores (bad parameters) … until ST
  | "string-escape"
  | "dcs-enter" // ESC P before its parameters
  | "dcs-parameter"
  | "dcs-intermediate"
  | "dcs-data" // after the DCS's final byte, until ESC \
  | "dcs-escape";

export interface StripState {
  readonly mode: StripMode;
  /** A `\r` not yet emitted: dropped if the next emitted character is `\n`. */
  readonly cr: boolean;
  /** Bytes of an incomplete UTF-8 character (0–3), only in ground mode. */
  readonly utf8: readonly number[];
}

export const initialStripState: StripState = Object.freeze({ mode: "ground", cr: false, utf8: Object.freeze([]) });

const MODES: readonly StripMode[] = [
  "ground",
  "escape",
  "escape-intermediate",
  "csi",
  "osc",
  "osc-escape",
  "string",
  "string-escape",
  "dcs-enter",
  "dcs-parameter",
  "dcs-intermediate",
  "dcs-data",
  "dcs-escape",
];
const GROUND = 0;
const ESCAPE = 1;
const ESCAPE_INTERMEDIATE = 2;
const CSI = 3;
const OSC = 4;
const OSC_ESCAPE = 5;
const STRING = 6;
const STRING_ESCAPE = 7;
const DCS_ENTER = 8;
const DCS_PARAMETER = 9;
const DCS_INTERMEDIATE = 10;
const DCS_DATA = 11;
const DCS_ESCAPE = 12;

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
let scratch: Uint8Array = new Uint8Array(64 * 1024);

export function stripEscapes(bytes: Uint8Array, state: StripState): { text: string; state: StripState } {
  let mode = MODES.indexOf(state.mode);
  let cr = state.cr;
  // UTF-8 decoding as in the WHATWG Encoding standard, resumed from the pending bytes.
  let need = 0;
  let seen = 0;
  let cp = 0;
  let lower = 0x80;
  let upper = 0xbf;
  let p0 = 0;
  let p1 = 0;
  let p2 = 0;
  const pending = state.utf8;
  if (pending.length > 0) {
    const lead = leadInfo(pending[0] ?? 0);
    need = lead.need;
    cp = lead.cp;
    lower = lead.lower;
    upper = lead.upper;
    p0 = pending[0] ?? 0;
    for (let k = 1; k < pending.length; k++) {
      const b = pending[k] ?? 0;
      cp = (cp << 6) | (b & 0x3f);
      if (k === 1) p1 = b;
      else p2 = b;
      lower = 0x80;
      upper = 0xbf;
    }
    seen = pending.length - 1;
  }

  const n = bytes.length;
  if (scratch.length < n + 8) scratch = new Uint8Array(Math.max(n + 8, scratch.length * 2));
  let out: Uint8Array = scratch;
  let o = 0;

  for (let i = 0; i < n; i++) {
    if (mode === GROUND && need === 0 && !cr) {
      // Most of a pane's output is printable ASCII between escapes: copied in a tight loop.
      let run = bytes[i] as number;
      while (run >= 0x20 && run < 0x7f) {
        out[o++] = run;
        if (++i === n) break;
        run = bytes[i] as number;
      }
      if (i === n) break;
    }
    const b = bytes[i] as number;
    if (b < 0x20 && mode <= CSI && need === 0) {
      // A C0 control acts the same in text and inside ESC/CSI (executed); the rest are dropped.
      if (b === 0x0a) {
        out[o++] = 0x0a;
        cr = false;
      } else if (b === 0x0d) cr = true;
      else if (b === 0x09) {
        if (cr) {
          out[o++] = 0x0d;
          cr = false;
        }
        out[o++] = 0x09;
      } else if (b === 0x1b) mode = ESCAPE;
      else if (b === 0x18 || b === 0x1a) mode = GROUND; // CAN / SUB abort any sequence
      continue;
    }
    if (mode === GROUND) {
      if (need === 0) {
        if (b >= 0x20 && b < 0x7f) {
          if (cr) {
            out[o++] = 0x0d;
            cr = false;
          }
          out[o++] = b;
          continue;
        }
        if (b === 0x7f) continue; // DEL is dropped
        const lead = leadInfo(b);
        if (lead.need === 0) {
          if (o + 8 + n - i > out.length) out = grow(out, o + 8 + n - i);
          if (cr) {
            out[o++] = 0x0d;
            cr = false;
          }
          o = writeReplacement(out, o);
          continue;
        }
        need = lead.need;
        cp = lead.cp;
        lower = lead.lower;
        upper = lead.upper;
        seen = 0;
        p0 = b;
        continue;
      }
      if (b < lower || b > upper) {
        // The character is cut short: one U+FFFD for what was seen, then this byte starts afresh.
        need = 0;
        lower = 0x80;
        upper = 0xbf;
        if (o + 8 + n - i > out.length) out = grow(out, o + 8 + n - i);
        if (cr) {
          out[o++] = 0x0d;
          cr = false;
        }
        o = writeReplacement(out, o);
        i--;
        continue;
      }
      lower = 0x80;
      upper = 0xbf;
      cp = (cp << 6) | (b & 0x3f);
      seen++;
      if (seen === 1) p1 = b;
      else if (seen === 2) p2 = b;
      if (seen < need) continue;
      need = 0;
      if (cp < 0xa0) continue; // C1 control: dropped
      if (cr) {
        out[o++] = 0x0d;
        cr = false;
      }
      out[o++] = p0;
      out[o++] = p1;
      if (seen > 1) out[o++] = p2;
      if (seen > 2) out[o++] = b;
      continue;
    }

    // Escape and string modes.
    if ((b === 0x18 || b === 0x1a) && mode < DCS_DATA) {
      mode = GROUND; // CAN / SUB abort any sequence but a DCS's data
      continue;
    }
    switch (mode) {
      case ESCAPE:
      case ESCAPE_INTERMEDIATE:
      case CSI:
        if (b >= 0x7f) {
          // DEL and bytes ≥ 0x80 (8-bit C1, UTF-8) are ignored inside sequences, as tmux does
        } else if (mode === CSI) {
          if (b >= 0x40) mode = GROUND;
        } else if (b <= 0x2f) {
          mode = ESCAPE_INTERMEDIATE;
        } else if (mode === ESCAPE_INTERMEDIATE) {
          mode = GROUND;
        } else if (b === 0x5b) mode = CSI;
        else if (b === 0x5d) mode = OSC;
        else if (b === 0x50) mode = DCS_ENTER;
        else if (b === 0x58 || b === 0x5e || b === 0x5f || b === 0x6b) mode = STRING;
        else mode = GROUND; // two-byte sequence: ESC 7, ESC =, ESC M, …
        break;
      case OSC:
        if (b === 0x07) mode = GROUND;
        else if (b === 0x1b) mode = OSC_ESCAPE;
        break;
      case STRING:
        if (b === 0x1b) mode = STRING_ESCAPE;
        break;
      case DCS_ENTER:
      case DCS_PARAMETER:
      case DCS_INTERMEDIATE:
        mode = dcsEntered(mode, b);
        break;
      case DCS_DATA:
        if (b === 0x1b) mode = DCS_ESCAPE;
        break;
      case DCS_ESCAPE:
        mode = b === 0x5c ? GROUND : DCS_DATA; // ESC ESC is a passthrough's literal ESC
        break;
      default: // OSC_ESCAPE, STRING_ESCAPE
        if (b === 0x5c) mode = GROUND;
        else {
          mode = ESCAPE; // the ESC ended the string and begins a new sequence
          i--;
        }
    }
  }

  const text = decoder.decode(out.subarray(0, o));
  if (out !== scratch) scratch = out;
  const utf8 = need === 0 ? [] : [p0, p1, p2].slice(0, seen + 1);
  return { text, state: { mode: MODES[mode] ?? "ground", cr, utf8 } };
}

/** The mode after byte `b` of a DCS's parameters and intermediates (tmux: dcs_enter, _parameter, _intermediate). */
function dcsEntered(mode: number, b: number): number {
  if (b === 0x1b) return ESCAPE;
  if (b < 0x20 || b >= 0x7f) return mode; // ignored
  if (b >= 0x40) return DCS_DATA; // the final byte
  if (b <= 0x2f) return DCS_INTERMEDIATE;
  // Parameters; a `:`, a private marker after the first byte or a parameter after an intermediate: ignored to ST.
  if (b === 0x3a || mode === DCS_INTERMEDIATE || (b >= 0x3c && mode === DCS_PARAMETER)) return STRING;
  return DCS_PARAMETER;
}

/**
 * Serialises a state into 1–4 bytes: [mode & 7 | cr << 3 | utf8 count << 4 | (mode & 8) << 3, …utf8 bytes].
 * The DCS modes (8–12) came later: they take bit 6, so cursors of the 8 first modes read as before.
 */
export function encodeStripState(state: StripState): Uint8Array {
  const mode = MODES.indexOf(state.mode);
  if (mode < 0 || state.utf8.length > 3) throw new PanescopeError("internal", "invalid strip state");
  const out = new Uint8Array(1 + state.utf8.length);
  out[0] = (mode & 0x07) | (state.cr ? 0x08 : 0) | (state.utf8.length << 4) | ((mode & 0x08) << 3);
  out.set(state.utf8, 1);
  return out;
}

/** The inverse of encodeStripState; rejects anything encodeStripState cannot produce. */
export function decodeStripState(bytes: Uint8Array): StripState {
  const head = bytes[0];
  const bad = (why: string) => new PanescopeError("bad-input", `invalid strip state: ${why}`);
  if (head === undefined) throw bad("empty");
  const mode = MODES[(head & 0x07) | ((head & 0x40) >> 3)];
  const count = (head >> 4) & 0x03;
  if (mode === undefined || head & 0x80) throw bad("unknown flags");
  if (bytes.length !== 1 + count) throw bad("wrong length");
  const utf8 = Array.from(bytes.subarray(1));
  if (count > 0) {
    if (mode !== "ground") throw bad("UTF-8 bytes outside ground mode");
    const lead = leadInfo(utf8[0] ?? 0);
    if (lead.need === 0 || count > lead.need) throw bad("not an incomplete UTF-8 character");
    for (let k = 1; k < count; k++) {
      const b = utf8[k] ?? 0;
      const lo = k === 1 ? lead.lower : 0x80;
      const hi = k === 1 ? lead.upper : 0xbf;
      if (b < lo || b > hi) throw bad("not an incomplete UTF-8 character");
    }
  }
  return { mode, cr: (head & 0x08) !== 0, utf8 };
}

interface Lead {
  need: number;
  cp: number;
  lower: number;
  upper: number;
}
const NOT_A_LEAD: Lead = { need: 0, cp: 0, lower: 0x80, upper: 0xbf };
const LEADS: Lead[] = Array.from({ length: 256 }, (_, b): Lead => {
  if (b >= 0xc2 && b <= 0xdf) return { need: 1, cp: b & 0x1f, lower: 0x80, upper: 0xbf };
  if (b >= 0xe0 && b <= 0xef)
    return { need: 2, cp: b & 0x0f, lower: b === 0xe0 ? 0xa0 : 0x80, upper: b === 0xed ? 0x9f : 0xbf };
  if (b >= 0xf0 && b <= 0xf4)
    return { need: 3, cp: b & 0x07, lower: b === 0xf0 ? 0x90 : 0x80, upper: b === 0xf4 ? 0x8f : 0xbf };
  return NOT_A_LEAD;
});

function leadInfo(b: number): Lead {
  return LEADS[b] ?? NOT_A_LEAD;
}

function writeReplacement(out: Uint8Array, o: number): number {
  out[o] = 0xef;
  out[o + 1] = 0xbf;
  out[o + 2] = 0xbd;
  return o + 3;
}

function grow(out: Uint8Array, needed: number): Uint8Array {
  const bigger = new Uint8Array(Math.max(needed, out.length * 2));
  bigger.set(out);
  return bigger;
}
