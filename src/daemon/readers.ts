// Named readers' cursors, kept by the daemon so a script needs no token: each reader's last cursor
// per pane. Written through to a file (0600, replaced atomically) so a daemon that was killed and
// started again still holds them: an old cursor then answers `missed: restarted` instead of the
// reader silently starting over. Bounded: the least recently used entries are forgotten first.
import { readFileSync, renameSync, writeFileSync } from "node:fs";

/** Readers × panes remembered (a cursor is ≈ 40 bytes: the file stays under ~300 KiB). */
export const MAX_ENTRIES = 4096;

export class ReaderCursors {
  /** `reader\0pane` → cursor, oldest use first. */
  private readonly entries = new Map<string, string>();

  constructor(
    private readonly file: string | undefined,
    private readonly warn: (line: string) => void = () => undefined,
  ) {
    if (file === undefined) return;
    try {
      const saved = JSON.parse(readFileSync(file, "utf8")) as unknown;
      if (Array.isArray(saved)) for (const pair of saved) if (isPair(pair)) this.entries.set(pair[0], pair[1]);
    } catch {
      // None yet, or unreadable: every reader starts from the screen, as a first read does.
    }
  }

  get(reader: string, paneId: string): string | undefined {
    return this.entries.get(keyOf(reader, paneId));
  }

  set(reader: string, paneId: string, cursor: string): void {
    const key = keyOf(reader, paneId);
    this.entries.delete(key);
    this.entries.set(key, cursor);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES) break;
      this.entries.delete(oldest);
    }
    this.save();
  }

  forget(reader: string, paneId: string): void {
    if (this.entries.delete(keyOf(reader, paneId))) this.save();
  }

  /** Synchronous, before the answer leaves: a daemon killed right after answering keeps the cursor. */
  private save(): void {
    if (this.file === undefined) return;
    const temporary = `${this.file}.${process.pid}`;
    try {
      writeFileSync(temporary, JSON.stringify([...this.entries]), { mode: 0o600 });
      renameSync(temporary, this.file);
    } catch (error) {
      this.warn(`panescope: readers' cursors not saved to ${this.file} (${(error as Error).message}): a restarted daemon starts them over`);
    }
  }
}

function keyOf(reader: string, paneId: string): string {
  return `${reader}\0${paneId}`;
}

function isPair(value: unknown): value is [string, string] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string";
}
