// The cursors of one pane observer: issued bound to the pane, its process, the tmux server and this
// panescope process (cursor/codec.ts), taken back only for this pane, and when genuine but beyond
// what the observer holds, answered with why (restarted, respawned, evicted, ...).
import { cursorHead, cursorIdentity, decodeCursor, encodeCursorAt, otherPane, type CursorFields } from "../cursor/codec.js";
import type { MissedReason } from "../read/delta.js";
import type { StripState } from "../raw/strip.js";

/** What a cursor binds besides the stream position. */
export interface PaneIdentity {
  paneId: string;
  panePid: number;
  serverPid: number;
  serverStart: number;
  /** The server's #{socket_path}: a cursor of another server is an error (cursor/codec.ts). */
  serverSocket?: string;
  /** This panescope process (see cursor/instance.ts). */
  instance: Uint8Array;
}

/** What an observer holds: the oldest byte kept, the last byte applied, the render sequence. */
export interface Held {
  base: number;
  applied: number;
  seq: number;
}

export class PaneCursors {
  /** What this observer's cursors bind of the identity (a hash: computed once, not per answer). */
  private readonly issuer: ReturnType<typeof cursorIdentity>;
  /** The first bytes of every cursor this observer issues (cursorHead). */
  private readonly head: Uint8Array;

  constructor(
    private readonly identity: PaneIdentity,
    private readonly key: Uint8Array,
  ) {
    this.issuer = cursorIdentity(identity);
    this.head = cursorHead({ ...this.issuer, pane: Number(identity.paneId.slice(1)), panePid: identity.panePid });
  }

  /** The tag of the server's socket these cursors carry (codec's socketTag), when known. */
  get socketTag(): number | undefined {
    return this.issuer.socket;
  }

  /** A cursor at byte `offset` (with the stripper's state there) and render sequence `seq`. */
  issue(offset: number, seq: number, strip: StripState): string {
    return encodeCursorAt(this.head, offset, seq, strip, this.key);
  }

  /** A cursor's fields (decoded here unless the caller already did), checked to be this pane's. */
  decode(cursor: string | CursorFields): CursorFields {
    const fields = typeof cursor === "string" ? decodeCursor(cursor, this.key) : cursor;
    const paneId = this.identity.paneId;
    if (`%${fields.pane}` !== paneId) throw otherPane(`%${fields.pane}`, paneId);
    return fields;
  }

  /** Why a genuine cursor cannot be continued from what is `held`, if it cannot. */
  discontinuity(fields: CursorFields, held: Held, predecessor: MissedReason | undefined): MissedReason | undefined {
    const issuer = this.issuer;
    // The server first: when both restarted (a daemon exits once its server is gone), that every
    // pane is new is what the reader must hear; the same pane id may now name another program.
    if (fields.server !== issuer.server) return "server-restarted";
    if (!sameBytes(fields.instance, issuer.instance)) return "restarted";
    if (fields.panePid !== this.identity.panePid) return "respawned";
    if (fields.offset < held.base || fields.offset > held.applied || fields.seq > held.seq) return predecessor ?? "evicted";
    return undefined;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
