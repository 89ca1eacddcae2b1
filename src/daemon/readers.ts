// Named readers' cursors, kept by the daemon so a script needs no token: each reader's last cursor
// per pane. Written through to a file (0600) so a daemon that was killed and started again still
// holds them: an old cursor then answers `missed: restarted` instead of the reader silently starting
// over. Bounded: the least recently used entries are let go first, and each key let go is kept
// (a few bytes, bounded too) so that its reader's next read says so (`missed: forgotten`) instead of
// looking like a new reader's first.
//
// The file is a journal, one JSON line per change, appended before the answer leaves: rewriting it
// whole through a rename cost every read 0.2–2 ms on ext4 (a rename over a file makes ext4 flush it,
// auto_da_alloc), an append a few microseconds. It is rewritten whole (atomically) once it holds
// COMPACT_SLACK lines more than twice its entries; a last line torn by a kill is skipped on load.
// Its first line names the tmux server (`{"tmuxServer":PATH}`, skipped on load as any line that is
// not an entry): the file outlives its daemon, and its name is only a hash.
import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";

/**
 * Readers × panes remembered (a cursor is ≈ 40 bytes: the compacted file stays under ~1.2 MiB):
 * 500 panes, each read by 32 readers. 4096 until 2026-12-05: a fleet of 500 panes with 9 readers
 * each let cursors go in normal use, and their readers started over unflagged.
 */
export const MAX_ENTRIES = 16_384;

/** Keys let go whose next read is flagged (`reader\0pane`, ≈ 20 bytes each). */
export const MAX_FORGOTTEN = 4 * MAX_ENTRIES;

/** Lines the journal may hold beyond twice its entries before it is rewritten. */
export const COMPACT_SLACK = 1024;

/** A journal line: `[key, cursor]` sets a cursor, `[key]` forgets it, `[key, ""]` marks it let go by the bound. */
type Line = [string, string] | [string];

export class ReaderCursors {
  /** `reader\0pane` → cursor, oldest use first. */
  private readonly entries = new Map<string, string>();
  /** Keys the bound let go, oldest first: their reader's next read is told (wasForgotten). */
  private readonly forgotten = new Set<string>();
  private newest: string | undefined;
  /** Lines in the file now. */
  private lines = 0;
  /** The first line of a file this store begins (none when no server is named). */
  private readonly header: string;
  /** Nothing is in the file yet: the next line written goes after the header. */
  private empty = true;

  constructor(
    private readonly file: string | undefined,
    private readonly warn: (line: string) => void = () => undefined,
    tmuxServer?: string,
  ) {
    this.header = tmuxServer === undefined ? "" : `${JSON.stringify({ tmuxServer })}\n`;
    if (file === undefined) return;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return; // none yet, or unreadable: every reader starts from the screen, as a first read does
    }
    this.empty = text === "";
    // Torn by a kill mid-append: the next save rewrites the file, not appending to half a line.
    if (text !== "" && !text.endsWith("\n")) this.lines = Number.POSITIVE_INFINITY;
    for (const row of text.split("\n")) {
      const line = lineOf(row);
      if (line === undefined) continue;
      this.lines++;
      if (line.length === 1) this.entries.delete(line[0]);
      else if (line[1] === "") this.letGo(line[0]);
      else this.remember(line[0], line[1]);
    }
  }

  get(reader: string, paneId: string): string | undefined {
    return this.entries.get(keyOf(reader, paneId));
  }

  /** The reader had a cursor of the pane that the bound let go (none kept since). */
  wasForgotten(reader: string, paneId: string): boolean {
    return this.forgotten.has(keyOf(reader, paneId));
  }

  set(reader: string, paneId: string, cursor: string): void {
    const key = keyOf(reader, paneId);
    // A read that found nothing new answers the cursor it was given: nothing to write.
    if (key === this.newest && this.entries.get(key) === cursor) return;
    this.remember(key, cursor);
    this.save([key, cursor]);
  }

  forget(reader: string, paneId: string): void {
    const key = keyOf(reader, paneId);
    if (!this.entries.delete(key)) return;
    if (key === this.newest) this.newest = undefined;
    this.save([key]);
  }

  private remember(key: string, cursor: string): void {
    this.entries.delete(key);
    this.forgotten.delete(key);
    this.entries.set(key, cursor);
    this.newest = key;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES) break;
      this.letGo(oldest);
    }
  }

  /** The bound lets a cursor go: kept as let go (bounded too, oldest first), so its reader is told. */
  private letGo(key: string): void {
    this.entries.delete(key);
    this.forgotten.delete(key);
    this.forgotten.add(key);
    for (const oldest of this.forgotten) {
      if (this.forgotten.size <= MAX_FORGOTTEN) break;
      this.forgotten.delete(oldest);
    }
  }

  /** Synchronous, before the answer leaves: a daemon killed right after answering keeps the cursor. */
  private save(line: Line): void {
    if (this.file === undefined) return;
    try {
      if (this.lines + 1 > 2 * (this.entries.size + this.forgotten.size) + COMPACT_SLACK) return this.rewrite(this.file);
      appendFileSync(this.file, `${this.empty ? this.header : ""}${JSON.stringify(line)}\n`, { mode: 0o600 });
      this.empty = false;
      this.lines++;
    } catch (error) {
      this.warn(`panescope: readers' cursors not saved to ${this.file} (${(error as Error).message}): a restarted daemon starts them over`);
    }
  }

  /** The journal replaced by one line per entry, atomically (a kill leaves the old or the new). */
  private rewrite(file: string): void {
    const temporary = `${file}.${process.pid}`;
    const lines = [...[...this.forgotten].map((key) => [key, ""]), ...this.entries].map((line) => `${JSON.stringify(line)}\n`);
    writeFileSync(temporary, this.header + lines.join(""), { mode: 0o600 });
    renameSync(temporary, file);
    this.empty = false;
    this.lines = lines.length;
  }
}

function keyOf(reader: string, paneId: string): string {
  return `${reader}\0${paneId}`;
}

/** A journal line, or undefined for a blank, torn or foreign one. */
function lineOf(row: string): Line | undefined {
  if (row === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(row);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || typeof value[0] !== "string") return undefined;
  if (value.length === 1) return [value[0]];
  return value.length === 2 && typeof value[1] === "string" ? [value[0], value[1]] : undefined;
}
