// Plays a cast into a fresh emulator and returns the screen it ends on: how a recording is checked
// against tmux (and how a reader can look at one without a player).
import { Screen } from "../observe/screen.js";
import type { ScreenSnapshot } from "../observe/snapshot.js";
import type { WidthPolicy } from "../observe/width-policy.js";
import { parseSize, type Cast } from "./cast.js";

/** The final screen of a cast: "o" events written in order, "r" events resizing between them. */
export async function replayCast(cast: Cast, widths?: WidthPolicy): Promise<ScreenSnapshot> {
  const screen = new Screen({ cols: cast.header.width, rows: cast.header.height, ...(widths ? { widths } : {}) });
  try {
    for (const [, code, data] of cast.events) {
      if (code === "o") await new Promise<void>((done) => screen.write(data, done));
      const size = code === "r" ? parseSize(data) : undefined;
      if (size) screen.resize(size.cols, size.rows);
    }
    await screen.flush();
    return screen.snapshot();
  } finally {
    screen.dispose();
  }
}
