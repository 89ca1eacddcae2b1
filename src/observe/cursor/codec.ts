// The cursor codec: what a reader hands back to continue a watch, compact and authenticated.
// Layout (then base64url, no padding):
//   version (1) · instance (6) · server generation (4) · [format 3: socket (3)]
//   · varints: pane, panePid, offset, seq
//   · strip state (1–4, self-delimiting) · HMAC-SHA256 over all of the above, first 8 bytes
// Varints are unsigned LEB128, canonical, ≤ 2^53 − 1. Typical tokens are 38–40 characters: every
// answer's text carries one, so each byte is paid on every read (format 1's size: docs/benchmarks.md).
// Sizes, each a probability of being wrong:
//   - tag 64 bits: an edited or forged cursor passes 1 time in 1.8e19 (forging needs that many
//     calls to this server, and gains nothing a call without a cursor does not give);
//   - instance 48 bits: two panescope processes share an id 1 time in 2.8e14, else an earlier
//     process's cursor reads as "restarted";
//   - server generation, 32 bits of SHA-256(pid, start time): a restarted tmux server keeps it 1
//     time in 4.3e9, and then its pane ids, pane pids and offsets must all match too;
//   - socket, 24 bits of SHA-256(the server's socket path): a cursor of another tmux server is an
//     error, not a restart, unless the two paths collide (1 time in 1.7e7: then "server-restarted");
//   - pane and panePid exact (the pane is named in errors; a respawn is told apart by its pid).
// Structure is checked before the tag, so a cut or extended token reads as malformed and a token
// with the right shape but altered content as tampered; either way one changed character fails.

import { createHash, timingSafeEqual } from "node:crypto";
import { PanescopeError } from "../../errors.js";
import { HmacSha256 } from "./hmac.js";
import { decodeStripState, encodeStripState, type StripState } from "../raw/strip.js";

export interface CursorFields {
  /** The first CURSOR_INSTANCE_BYTES of the random id of the panescope process that issued it (instance.ts). */
  instance: Uint8Array;
  /** The tmux server's generation (serverGeneration of its pid and start time). */
  server: number;
  /** Which server: socketTag of its socket path (undefined in format 2 cursors, and when unknown). */
  socket?: number | undefined;
  /** N of the pane id %N. */
  pane: number;
  panePid: number;
  /** Absolute byte offset in the pane's output stream. */
  offset: number;
  /** Render sequence number of the pane's screen. */
  seq: number;
  /** Escape-stripper state at `offset`, so the next read starts clean mid-sequence. */
  strip: StripState;
}

export const CURSOR_VERSION = 3;
/** The format before the socket was bound: still read (an upgrade does not void cursors). */
const CURSOR_VERSION_NO_SOCKET = 2;
const SOCKET_BYTES = 3;
const TAG_BYTES = 8;
/** The bytes of the process id a cursor carries (of instance.ts's INSTANCE_BYTES). */
const CURSOR_INSTANCE_BYTES = 6;
const SERVER_BYTES = 4;
const MAX_TOKEN_CHARS = 200;
const MALFORMED = "cursor is not a panescope cursor: omit `cursor` to start watching again";
const OLD_FORMAT = "cursor is from an earlier panescope version (cursor format 1): omit `cursor` to start watching again";
const TAMPERED = "cursor was altered or belongs to another panescope key: omit `cursor` to start again";

/** What a cursor binds of who issued it: the process id's first bytes and the server generation. */
export function cursorIdentity(identity: { instance: Uint8Array; serverPid: number; serverStart: number; serverSocket?: string | undefined }): {
  instance: Uint8Array;
  server: number;
  socket: number | undefined;
} {
  return {
    instance: identity.instance.subarray(0, CURSOR_INSTANCE_BYTES),
    server: serverGeneration(identity.serverPid, identity.serverStart),
    socket: identity.serverSocket === undefined ? undefined : socketTag(identity.serverSocket),
  };
}

/** 24 bits naming one tmux server socket (#{socket_path}): the same across the server's restarts. */
export function socketTag(path: string): number {
  return createHash("sha256").update(path).digest().readUIntBE(0, SOCKET_BYTES);
}

/** 32 bits naming one tmux server run: its pid and start time, hashed. */
export function serverGeneration(pid: number, start: number): number {
  return createHash("sha256").update(`${pid}:${start}`).digest().readUInt32BE(0);
}

export function encodeCursor(fields: CursorFields, key: Uint8Array): string {
  return encodeCursorAt(cursorHead(fields), fields.offset, fields.seq, fields.strip, key);
}

/**
 * What every cursor of one pane starts with: version, issuer, pane and pane pid, checked once. An
 * observer makes it once and issues each answer's cursor with encodeCursorAt: a cursor is made for
 * every answer, usually as the first work after the process sat idle, when each allocation costs.
 */
export function cursorHead(fields: Omit<CursorFields, "offset" | "seq" | "strip">): Uint8Array {
  if (fields.instance.length !== CURSOR_INSTANCE_BYTES) {
    throw new PanescopeError("internal", `cursor instance id must be ${CURSOR_INSTANCE_BYTES} bytes`);
  }
  if (!Number.isInteger(fields.server) || fields.server < 0 || fields.server > 0xffffffff) {
    throw new PanescopeError("internal", `cursor server generation must be a 32-bit number, got ${fields.server}`);
  }
  const head = new Uint8Array(1 + CURSOR_INSTANCE_BYTES + SERVER_BYTES + SOCKET_BYTES + 16);
  head[0] = fields.socket === undefined ? CURSOR_VERSION_NO_SOCKET : CURSOR_VERSION;
  head.set(fields.instance, 1);
  let end = 1 + CURSOR_INSTANCE_BYTES;
  for (const shift of [24, 16, 8, 0]) head[end++] = (fields.server >>> shift) & 0xff;
  if (fields.socket !== undefined) for (const shift of [16, 8, 0]) head[end++] = (fields.socket >>> shift) & 0xff;
  end = writeVarintAt(head, end, checkedField("pane", fields.pane));
  end = writeVarintAt(head, end, checkedField("panePid", fields.panePid));
  return head.slice(0, end);
}

/** The cursor at `offset` and `seq` of the pane whose head (cursorHead) is `head`. */
export function encodeCursorAt(head: Uint8Array, offset: number, seq: number, strip: StripState, key: Uint8Array): string {
  checkKey(key);
  // A head ≤ 14 + 2 × 8 bytes, two varints ≤ 8 each, a strip state ≤ 4, the tag 8: 58 ≤ 64.
  const payload = scratch;
  payload.set(head);
  let end = writeVarintAt(payload, head.length, checkedField("offset", offset));
  end = writeVarintAt(payload, end, checkedField("seq", seq));
  const stripped = encodeStripState(strip);
  payload.set(stripped, end);
  end += stripped.length;
  const mac = tag(payload.subarray(0, end), key);
  payload.set(mac, end);
  return base64url(payload, end + mac.length);
}

/** Where encodeCursorAt lays out a cursor's bytes (single-threaded, never re-entered). */
const scratch = new Uint8Array(64);

function checkedField(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new PanescopeError("internal", `cursor field ${name} must be a non-negative safe integer, got ${value}`);
  }
  return value;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** base64url without padding, as Buffer spells it: in JavaScript, as every answer's cursor is made
 *  after the process sat idle, when each call into Node's C++ costs tens of microseconds. */
function base64url(bytes: Uint8Array, length: number): string {
  let out = "";
  for (let i = 0; i < length; i += 3) {
    const left = length - i;
    // Past `length` the bytes are another cursor's (a scratch buffer): read as zeros.
    const n = ((bytes[i] ?? 0) << 16) | (left > 1 ? (bytes[i + 1] ?? 0) << 8 : 0) | (left > 2 ? (bytes[i + 2] ?? 0) : 0);
    out += (ALPHABET[n >> 18] ?? "") + (ALPHABET[(n >> 12) & 63] ?? "");
    if (left > 1) out += ALPHABET[(n >> 6) & 63] ?? "";
    if (left > 2) out += ALPHABET[n & 63] ?? "";
  }
  return out;
}

/** A genuine cursor read for another pane than its own (one message wherever it is caught). */
export function otherPane(cursorPane: string, paneId: string): PanescopeError {
  return new PanescopeError("cursor-other-pane", `the cursor belongs to pane ${cursorPane}, not ${paneId}: read ${cursorPane} with it, or omit \`cursor\` to start watching ${paneId}`);
}

export function decodeCursor(token: string, key: Uint8Array): CursorFields {
  checkKey(key);
  const malformed = (cause?: unknown) => new PanescopeError("cursor-malformed", MALFORMED, { cause });
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_CHARS) throw malformed();
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw malformed();
  const raw = Buffer.from(token, "base64url");
  // Buffer decoding forgives unused trailing bits; only the canonical spelling is accepted.
  if (raw.toString("base64url") !== token) throw malformed();
  // Format 1 (16-byte tag, 8-byte instance, pid and start time as varints) is at least 32 bytes.
  if (raw[0] === 1 && raw.length >= 32) throw new PanescopeError("cursor-malformed", OLD_FORMAT);
  const withSocket = raw[0] === CURSOR_VERSION;
  if (!withSocket && raw[0] !== CURSOR_VERSION_NO_SOCKET) throw malformed();
  const head = 1 + CURSOR_INSTANCE_BYTES + SERVER_BYTES + (withSocket ? SOCKET_BYTES : 0);
  if (raw.length <= TAG_BYTES + head) throw malformed();

  const reader = { bytes: raw, pos: head, end: raw.length - TAG_BYTES };
  let fields: CursorFields;
  try {
    const instance = Uint8Array.from(raw.subarray(1, 1 + CURSOR_INSTANCE_BYTES));
    const server = raw.readUInt32BE(1 + CURSOR_INSTANCE_BYTES);
    const socket = withSocket ? raw.readUIntBE(1 + CURSOR_INSTANCE_BYTES + SERVER_BYTES, SOCKET_BYTES) : undefined;
    const pane = readVarint(reader);
    const panePid = readVarint(reader);
    const offset = readVarint(reader);
    const seq = readVarint(reader);
    const head = raw[reader.pos];
    if (head === undefined || reader.pos >= reader.end) throw new Error("missing strip state");
    const stripEnd = reader.pos + 1 + ((head >> 4) & 0x03);
    if (stripEnd !== reader.end) throw new Error("payload length does not match its fields");
    const strip = decodeStripState(raw.subarray(reader.pos, stripEnd));
    fields = { instance, server, socket, pane, panePid, offset, seq, strip };
  } catch (error) {
    throw malformed(error);
  }

  const payload = raw.subarray(0, reader.end);
  if (!timingSafeEqual(tag(payload, key), raw.subarray(reader.end))) {
    throw new PanescopeError("cursor-tampered", TAMPERED);
  }
  return fields;
}

function tag(payload: Uint8Array, key: Uint8Array): Uint8Array {
  return macFor(key).digest(payload).subarray(0, TAG_BYTES);
}

/** One prepared HMAC per key (a process has one; tests make more). */
const macs = new WeakMap<Uint8Array, HmacSha256>();
function macFor(key: Uint8Array): HmacSha256 {
  let mac = macs.get(key);
  if (!mac) macs.set(key, (mac = new HmacSha256(key)));
  return mac;
}

function checkKey(key: Uint8Array): void {
  if (key.length < 16) throw new PanescopeError("internal", "cursor key must be at least 16 bytes");
}

/** An unsigned LEB128 varint into `out` at `at`; returns where it ended. */
function writeVarintAt(out: Uint8Array, at: number, value: number): number {
  let v = value;
  let i = at;
  while (v >= 0x80) {
    out[i++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[i++] = v;
  return i;
}

function readVarint(reader: { bytes: Uint8Array; pos: number; end: number }): number {
  let value = 0;
  let scale = 1;
  for (let count = 0; count < 8; count++) {
    const b = reader.pos < reader.end ? reader.bytes[reader.pos] : undefined;
    if (b === undefined) throw new Error("varint runs past the payload");
    reader.pos++;
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      if (b === 0 && count > 0) throw new Error("non-canonical varint");
      if (!Number.isSafeInteger(value)) throw new Error("varint exceeds 2^53 - 1");
      return value;
    }
    scale *= 0x80;
  }
  throw new Error("varint too long");
}
