// A listener on one pane observer's stream, for recorders: output as it arrives, resizes, screens
// taken from tmux (and why), gaps, the end. It sees events; it cannot change what readers get.
import type { MissedReason, PaneExit } from "../read/delta.js";
import type { ScreenModes, ScreenState } from "../emulator/seed.js";
import type { ScreenSnapshot } from "../emulator/snapshot.js";

/**
 * Why tmux's screen replaced the emulator's: the first seed, a reseed after lost output (its
 * reason), a resync (nothing lost: a resize reflowed differently) or a heal (the replica differed).
 */
export type ScreenCause = "seed" | "resync" | "heal" | MissedReason;

export interface PaneTap {
  /**
   * Once, when the tap is added: the screen every byte before the tap's first event drew, and under
   * a full-screen program the normal screen beneath it (what leaving shows), and the scroll region,
   * modes and tab stops the output that follows relies on.
   */
  start?(screen: ScreenSnapshot, normal?: ScreenSnapshot, modes?: ScreenModes): void;
  /** Confirmed output bytes, as they arrived, in stream order. */
  output?(bytes: Uint8Array): void;
  /** The pane's size as tmux has it (before the emulator's cap). */
  resize?(cols: number, rows: number): void;
  /** tmux's view of the pane replaced the emulator's screen. */
  screen?(state: ScreenState, cause: ScreenCause): void;
  /** Output was lost or the stream broke (a reseed reports its screen first, then this). */
  gap?(reason: MissedReason, bytes: number): void;
  /** The pane closed or its program exited. */
  closed?(exit?: PaneExit): void;
}

/** The taps on one observer; a tap that throws is the recorder's bug and must not break reading. */
export class Taps {
  private readonly taps = new Set<PaneTap>();

  /** Taps listening now (a recorded pane is in use: the hub does not retire it). */
  get size(): number {
    return this.taps.size;
  }

  add(tap: PaneTap): () => void {
    this.taps.add(tap);
    return () => void this.taps.delete(tap);
  }

  emit(call: (tap: PaneTap) => void): void {
    for (const tap of this.taps) {
      try {
        call(tap);
      } catch {
        this.taps.delete(tap);
      }
    }
  }
}
