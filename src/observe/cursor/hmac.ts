// HMAC-SHA256 (RFC 2104 over FIPS 180-4) in plain JavaScript, for cursor tags: the same bytes as
// node:crypto's createHmac, without the trip into OpenSSL. Every answer tags a cursor and every
// read checks one, usually as the first work after the process sat idle, when the trip costs most
// (docs/benchmarks.md, history).
// The key's two padded blocks are compressed once per key, so a tag of a short payload (cursors are
// under 56 bytes) is two compressions, in words held as int32 and buffers reused: 0.8 µs a tag on
// the 2-core VM, against 1.6–1.9 through node:crypto and 3.4 when each hash made its own typed
// arrays (2026-12-04). Pure; compared with node:crypto in hmac.test.ts.

const BLOCK = 64;

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
/** The message schedule, reused (single-threaded, and compress never re-enters). */
const W = new Int32Array(64);

export class HmacSha256 {
  private readonly inner: Int32Array;
  private readonly outer: Int32Array;

  constructor(key: Uint8Array) {
    // RFC 2104: a key longer than the block is hashed first; a shorter one is zero-padded.
    const padded = new Uint8Array(BLOCK);
    padded.set(key.length > BLOCK ? sha256From(INITIAL, 0, key) : key);
    this.inner = keyState(padded, 0x36);
    this.outer = keyState(padded, 0x5c);
  }

  digest(message: Uint8Array): Uint8Array {
    return sha256From(this.outer, BLOCK, sha256From(this.inner, BLOCK, message));
  }
}

/** The state after compressing the key block XORed with `pad` (ipad or opad). */
function keyState(padded: Uint8Array, pad: number): Int32Array {
  const state = new Int32Array(INITIAL);
  compress(
    state,
    padded.map((byte) => byte ^ pad),
    0,
  );
  return state;
}

/** The working state and the padded last blocks, reused: a cursor's tag is two short hashes. */
const STATE = new Int32Array(8);
const PADDED = new Uint8Array(2 * BLOCK);

/** SHA-256 of `message`, continuing from `start` after `before` bytes (whole blocks) were hashed. */
function sha256From(start: Int32Array, before: number, message: Uint8Array): Uint8Array {
  const state = STATE;
  state.set(start);
  // Padding: 0x80, zeros, then the total length in bits as a 64-bit big-endian number.
  const size = Math.ceil((message.length + 9) / BLOCK) * BLOCK;
  const tail = size <= PADDED.length ? PADDED : new Uint8Array(size);
  tail.fill(0, 0, size);
  tail.set(message);
  tail[message.length] = 0x80;
  const bits = (before + message.length) * 8;
  writeWord(tail, size - 8, Math.floor(bits / 0x100000000));
  writeWord(tail, size - 4, bits);
  for (let offset = 0; offset < size; offset += BLOCK) compress(state, tail, offset);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) writeWord(out, i * 4, state[i] as number);
  return out;
}

/** A 32-bit word, big-endian, at `at`. */
function writeWord(bytes: Uint8Array, at: number, word: number): void {
  bytes[at] = word >>> 24;
  bytes[at + 1] = word >>> 16;
  bytes[at + 2] = word >>> 8;
  bytes[at + 3] = word;
}

function compress(state: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const at = offset + i * 4;
    W[i] = ((bytes[at] as number) << 24) | ((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
  }
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15] as number;
    const y = W[i - 2] as number;
    const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
    const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
    W[i] = ((W[i - 16] as number) + s0 + (W[i - 7] as number) + s1) | 0;
  }
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  let e = state[4] as number;
  let f = state[5] as number;
  let g = state[6] as number;
  let h = state[7] as number;
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + (K[i] as number) + (W[i] as number)) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = ((state[0] as number) + a) | 0;
  state[1] = ((state[1] as number) + b) | 0;
  state[2] = ((state[2] as number) + c) | 0;
  state[3] = ((state[3] as number) + d) | 0;
  state[4] = ((state[4] as number) + e) | 0;
  state[5] = ((state[5] as number) + f) | 0;
  state[6] = ((state[6] as number) + g) | 0;
  state[7] = ((state[7] as number) + h) | 0;
}

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}
