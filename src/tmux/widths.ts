// Asks a tmux server how wide it makes characters: its version, its 3.6+ width options, and the
// width of chosen code points, measured by tmux itself with `#{p3:#{l:C}}` (the character padded
// to 3 columns by utf8_cstrwidth). Not `#{w:C}`: its format_width() loops forever on a character
// tmux cannot measure (tmux 3.2a–3.5a; on 3.3a any character glibc calls unprintable, such as one
// newer than its Unicode tables), which hangs the whole server at 100% CPU, deaf even to SIGTERM.
import { PanescopeError } from "../errors.js";

/** Runs one tmux command and resolves to its output lines (a control client's or a one-shot). */
export type RunTmux = (argv: readonly string[]) => Promise<string[]>;

export interface ServerWidths {
  /** `#{version}`, e.g. "3.3a". */
  version: string;
  /** Identifies this life of the server (`#{pid}` and `#{start_time}`). */
  generation: string;
  /** 3.6+ `variation-selector-always-wide`; undefined before 3.6. */
  vsAlwaysWide?: boolean;
  /** 3.6+ `codepoint-widths` entries (empty before 3.6). */
  codepointWidths: string[];
}

/** Format bytes per `display -p`: a one-shot command must fit one 16 KiB message to the server. */
const BATCH_BYTES = 6000;

/** The server's version, generation and width options, in one command. */
export async function serverWidths(run: RunTmux): Promise<ServerWidths> {
  // Options are format variables too; an option this version lacks expands to nothing. An array
  // option (codepoint-widths) expands to its items separated by spaces (3.7c).
  const format = "#{version} #{pid} #{start_time} #{variation-selector-always-wide} #{codepoint-widths}";
  const [line = ""] = await run(["display-message", "-p", format]);
  const [version = "", pid = "", start = "", vs = "", ...rest] = line.split(" ");
  if (!version || !pid) throw new PanescopeError("protocol", `unexpected reply to display-message -p '#{version}': ${JSON.stringify(line)}`);
  return {
    version,
    generation: `${pid}:${start}`,
    ...(vs === "" ? {} : { vsAlwaysWide: vs === "1" || vs === "on" }),
    codepointWidths: rest.flatMap((item) => item.split(",")).filter((entry) => entry !== ""),
  };
}

/** One item of a probe: the text padded by tmux to `pad` columns, then a `|`. */
function probeItem(text: string, pad: number): string {
  return `#{p${pad}:#{l:${text}}}|`;
}

/** Widths from a probe's output: each item is the text, then spaces up to its pad width. */
export function parseProbe(output: string, pads: readonly number[]): number[] {
  const items = output.split("|");
  if (items.length !== pads.length + 1) {
    throw new PanescopeError("protocol", `a width probe of ${pads.length} texts answered ${items.length - 1}`);
  }
  return pads.map((pad, i) => {
    // Count ASCII spaces only: the text itself may end in a space of another kind (U+3000).
    const spaces = / *$/.exec(items[i] ?? "")?.[0].length ?? 0;
    return pad - spaces;
  });
}

/**
 * How many columns tmux gives each text: the sum of its characters' widths, without combining
 * (utf8_cstrwidth). A text must hold no ASCII character (no `|`, `}`, `#`, space), no surrogate.
 */
export async function measureWidths(run: RunTmux, texts: readonly string[]): Promise<number[]> {
  const batches: Array<{ format: string; pads: number[] }> = [];
  for (let i = 0; i < texts.length; ) {
    const batch = { format: "", pads: [] as number[] };
    for (let bytes = 0; i < texts.length && bytes < BATCH_BYTES; i++) {
      const text = texts[i] ?? "";
      const pad = 2 * [...text].length + 1; // wider than the text can be: there is always padding
      const item = probeItem(text, pad);
      batch.pads.push(pad);
      batch.format += item;
      bytes += Buffer.byteLength(item);
    }
    batches.push(batch);
  }
  // All at once: a few ms of the server's time each, and one round trip instead of one per batch.
  const outputs = await Promise.all(batches.map((batch) => run(["display-message", "-p", batch.format])));
  return batches.flatMap((batch, i) => parseProbe((outputs[i] ?? []).join("\n"), batch.pads).map((width) => Math.max(0, width)));
}
