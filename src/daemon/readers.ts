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
// Its first line names the tmux server (`{"tmuxServer":PATH}`, skipped on load as any object line):
// the file outlives its daemon, and its name is only a hash. A file that cannot be read, or a line
// damaged otherwise (not JSON, not an entry, NUL bytes), loses cursors: never silently (Loss). The
// good lines are kept; a damaged line's reader × pane, when its key can still be read, is told
// `missed: forgotten`; when the loss cannot be pinned to readers, each reader's first read of each
// pane from this daemon is (unsure): a daemon cannot tell a new reader from one whose cursor was
// lost, so it says it may have missed output rather than stay silent. A file with damage is
// rewritten (compacted) at once, the readers a damaged line named kept as lost: the next daemon
// neither finds the damage nor says it again (left in place, every daemon said it once more).
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

/**
 * A journal line: `[key, cursor]` sets a cursor, `[key]` forgets it, `[key, ""]` marks it let go by
 * the bound, `[key, "", "unread"]` lost with a damaged line (a compaction keeps it so).
 */
type Line = [string, string] | [string] | [string, "", "unread"];

/**
 * Why a reader × pane has no cursor kept though it may have had one: `bound` let go over MAX_ENTRIES;
 * `unread` its journal line was damaged; `unsure` the journal could not be (all) read and named no
 * one, so any reader's first read of a pane may be a lost one's.
 */
export type Loss = "bound" | "unread" | "unsure";

/** What a journal's load could not restore. */
interface Damage {
  lines: number;
  /** Keys named by damaged lines (their state is lost). */
  keys: number;
  /** Damaged lines that name no key. */
  unnamed: number;
  first: string;
}

export class ReaderCursors {
  /** `reader\0pane` → cursor, oldest use first. */
  private readonly entries = new Map<string, string>();
  /** Keys let go (by the bound, or lost with a damaged line), oldest first: their reader's next read is told (loss). */
  private readonly forgotten = new Map<string, Exclude<Loss, "unsure">>();
  /** The journal lost cursors of readers it cannot name: each key's first read is told (loss). */
  private unsure = false;
  /** Keys whose reader was told since this store became unsure (a refused cursor is forgotten, then not told again). Bounded. */
  private readonly settled = new Set<string>();
  /** A failed save was logged: the next failures are not, until one succeeds. */
  private saveFailing = false;
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
    } catch (error) {
      // None yet: every reader is new, and its first read is a first read. Anything else lost them.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      this.unsure = true;
      warn(
        `panescope: readers' cursors in ${file} could not be read (${(error as Error).message}): which readers had one is not known, so each reader's first read of each pane from this daemon says missed: forgotten; to end this, make the file readable (chmod 600 ${file}) or remove it`,
      );
      return;
    }
    this.empty = text === "";
    const rows = text.split("\n");
    // Torn by a kill mid-append, before its answer left (save): the reader has the cursor before
    // it, and the next save rewrites the file, not appending to half a line.
    const last = rows.pop() ?? "";
    if (last !== "") {
      this.lines = Number.POSITIVE_INFINITY;
      const line = lineOf(last);
      // Whole (only its newline missing), or not a kill's cut (NULs: the disk's damage): read as any line.
      if (last.includes("\0") || !(typeof line === "object" && "damaged" in line)) rows.push(last);
    }
    const damage: Damage = { lines: 0, keys: 0, unnamed: 0, first: "" };
    for (const row of rows) {
      const line = lineOf(row);
      if (line === "foreign") continue;
      this.lines++;
      if (typeof line === "object" && "damaged" in line) {
        if (damage.lines++ === 0) damage.first = row;
        if (line.damaged === undefined) damage.unnamed++;
        else {
          damage.keys++;
          this.letGo(line.damaged, "unread");
        }
        continue;
      }
      if (line.length === 1) {
        this.entries.delete(line[0]);
        this.forgotten.delete(line[0]);
      } else if (line[1] === "") this.letGo(line[0], line[2] ?? "bound");
      else this.remember(line[0], line[1]);
    }
    if (damage.lines > 0) this.damaged(file, damage, this.compact(file));
  }

  /** The file rewritten without its damage; why it could not be, if it could not. */
  private compact(file: string): string | undefined {
    try {
      this.rewrite(file);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** One line in the daemon's log: what was lost, who is told, what to do. */
  private damaged(file: string, damage: Damage, notCompacted: string | undefined): void {
    this.unsure = damage.unnamed > 0;
    const shown = damage.first.length > 60 ? `${damage.first.slice(0, 60)}…` : damage.first;
    const told = [
      ...(damage.keys > 0 ? [`the readers they name are told missed: forgotten on their next read of that pane`] : []),
      ...(this.unsure ? [`${damage.unnamed} name no reader, so each reader's first read of each pane from this daemon says missed: forgotten`] : []),
    ];
    const after = notCompacted === undefined ? "the file is rewritten without them" : `the file could not be rewritten without them (${notCompacted}): the next daemon says this again`;
    this.warn(
      `panescope: ${damage.lines} damaged line(s) in readers' cursors ${file} skipped (the first: ${JSON.stringify(shown)}), the others kept: ${told.join("; ")}; ${after}; nothing to do unless it recurs (then look at the disk: full, or failing?)`,
    );
  }

  get(reader: string, paneId: string): string | undefined {
    return this.entries.get(keyOf(reader, paneId));
  }

  /**
   * Why the reader holds no cursor of the pane though it may have had one; undefined when it holds
   * one, or when it never had one (a new reader, whose first read is a first read).
   */
  loss(reader: string, paneId: string): Loss | undefined {
    const key = keyOf(reader, paneId);
    if (this.entries.has(key)) return undefined;
    return this.forgotten.get(key) ?? (this.unsure && !this.settled.has(key) ? "unsure" : undefined);
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
    if (this.unsure) this.settle(key);
    if (!this.entries.delete(key)) return;
    if (key === this.newest) this.newest = undefined;
    this.save([key]);
  }

  /** The reader of `key` was answered since the store became unsure: its next first read is a first read. */
  private settle(key: string): void {
    this.settled.add(key);
    for (const oldest of this.settled) {
      if (this.settled.size <= MAX_FORGOTTEN) break;
      this.settled.delete(oldest);
    }
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

  /** A cursor let go (by the bound, or lost): kept as let go (bounded too, oldest first), so its reader is told. */
  private letGo(key: string, why: Exclude<Loss, "unsure"> = "bound"): void {
    if (this.unsure) this.settle(key);
    this.entries.delete(key);
    this.forgotten.delete(key);
    this.forgotten.set(key, why);
    for (const oldest of this.forgotten.keys()) {
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
      this.saveFailing = false;
    } catch (error) {
      // Once per run of failures: a file that cannot be written fails every read's save.
      if (!this.saveFailing) this.warn(`panescope: readers' cursors not saved to ${this.file} (${(error as Error).message}): a restarted daemon starts them over`);
      this.saveFailing = true;
    }
  }

  /** The journal replaced by one line per entry, atomically (a kill leaves the old or the new). */
  private rewrite(file: string): void {
    const temporary = `${file}.${process.pid}`;
    const lines = [...[...this.forgotten].map(([key, why]): Line => (why === "unread" ? [key, "", why] : [key, ""])), ...this.entries].map((line) => `${JSON.stringify(line)}\n`);
    writeFileSync(temporary, this.header + lines.join(""), { mode: 0o600 });
    renameSync(temporary, file);
    this.empty = false;
    this.lines = lines.length;
  }
}

function keyOf(reader: string, paneId: string): string {
  return `${reader}\0${paneId}`;
}

/**
 * A journal line; "foreign" for a blank one or an object (the header); else damaged, with its key
 * when that can still be read (a reader name and a pane id, whole, before what is damaged).
 */
function lineOf(row: string): Line | "foreign" | { damaged: string | undefined } {
  if (row === "") return "foreign";
  let value: unknown;
  try {
    value = JSON.parse(row);
  } catch {
    return { damaged: keyIn(row) };
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return "foreign";
  if (!Array.isArray(value) || typeof value[0] !== "string") return { damaged: undefined };
  if (value.length === 1) return [value[0]];
  if (value.length === 3 && value[1] === "" && value[2] === "unread") return [value[0], "", "unread"];
  return value.length === 2 && typeof value[1] === "string" ? [value[0], value[1]] : { damaged: keyIn(row) };
}

/** The key at the start of a damaged line, if it is there whole and names a reader and a pane. */
function keyIn(row: string): string | undefined {
  const quoted = /^\["((?:[^"\\\0]|\\.)*)"[,\]]/.exec(row)?.[1];
  if (quoted === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(`"${quoted}"`);
  } catch {
    return undefined;
  }
  return typeof key === "string" && /^[^\0]+\0%\d+$/.test(key) ? key : undefined;
}
