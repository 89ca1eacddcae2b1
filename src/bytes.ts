// Byte arrays for the stream's hot path, carved out of slabs that are never zero-filled. Each
// %output chunk decoded had an ArrayBuffer of its own, zeroed: 10 µs apiece on the 2-core VM when
// idle, up to 80 µs under a flood (docs/benchmarks.md, History). Slabs stay under glibc's mmap
// threshold (128 KiB), so freed ones come back from the heap already paged in. A carved array is a
// view of its slab: while any view lives, the whole slab does, so carve only what is let go soon
// (bytes held for a confirmation, queued for a parse).

const SLAB_BYTES = 64 * 1024;
/** Larger arrays get memory of their own (still not zero-filled): they would waste a slab's tail. */
const OWN_BYTES = 32 * 1024;

let slab: Uint8Array = new Uint8Array(0);
let used = 0;

/** `size` bytes whose contents are undefined until written; a plain Uint8Array, never a Buffer. */
export function carveBytes(size: number): Uint8Array {
  if (size > OWN_BYTES) return plain(Buffer.allocUnsafeSlow(size));
  if (used + size > slab.length) {
    slab = plain(Buffer.allocUnsafeSlow(SLAB_BYTES));
    used = 0;
  }
  const view = slab.subarray(used, used + size);
  used += size;
  return view;
}

/** `bytes` copied into a carved array. */
export function carvedCopy(bytes: Uint8Array): Uint8Array {
  const copy = carveBytes(bytes.length);
  copy.set(bytes);
  return copy;
}

/** The same memory as a Uint8Array: Buffer's slice and toString differ from Uint8Array's. */
function plain(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
}

/** `parts` in one array of its own; a single part is returned as it is. */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  let size = 0;
  for (const part of parts) size += part.length;
  const joined = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}
