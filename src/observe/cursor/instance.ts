// The random id of this panescope process, bound into every cursor it issues: a cursor carrying
// another id came from an earlier (or another) process and is answered as "restarted".

import { randomBytes } from "node:crypto";

export const INSTANCE_BYTES = 8;

const id = new Uint8Array(randomBytes(INSTANCE_BYTES));

/** This process's instance id (a copy: callers cannot change it). */
export function instanceId(): Uint8Array {
  return id.slice();
}
