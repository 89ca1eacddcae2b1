// The random id of one watcher (a Hub), bound into every cursor it issues: a cursor carrying
// another id came from an earlier panescope process, or from another Hub of this one, and is
// answered as "restarted". An id per process let a second Hub read a first one's cursor as its own
// (its watch numbers offsets from 0 again): a wrong answer, unflagged.

import { randomBytes } from "node:crypto";

export const INSTANCE_BYTES = 8;

/** A new watcher's instance id. */
export function newInstanceId(): Uint8Array {
  return new Uint8Array(randomBytes(INSTANCE_BYTES));
}
