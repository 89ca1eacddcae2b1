// The engine thread's side of the split server: every published pane's outbox, sent once per turn
// of its event loop, in one message for all panes, to the thread that reads stdin (front.ts). A
// pane's verdict (until when its reads need no check) is published again before it runs out.
import type { MessagePort } from "node:worker_threads";
import { PaneOutbox, type Publication } from "../../observe/pane/publication.js";
import type { PaneObserver } from "../../observe/pane/observer.js";
import type { PublishedWatch, ReadPublisher } from "../../watch/publisher.js";

/**
 * A verdict holds at most this long, and goes out again twice as often. What ends a verdict early
 * (a follow begins, a respawn is found) is not pushed: a read beside the engine may answer from the
 * pane's last state this long after, and the next read, the engine's, flags what happened since the
 * cursor. 500 quiet panes' verdicts, four times a second: 0.6% of a core at most (docs/benchmarks.md).
 */
export const VERDICT_MS = 500;
/**
 * A pane's news is published at most this often (a cursor a read issued is published at once). A flood
 * parsed in turns of a few milliseconds then reads out each line that scrolls by less often, and the
 * front takes fewer lines; a read answered beside the engine is at most this much older than one
 * the engine answers (which catches up for up to 10 ms: READ_CATCH_UP_MS).
 */
export const SPACING_MS = 20;

/** From the engine thread to the front. */
export interface EngineNews {
  publications: Publication[];
  /** Panes with nothing new since their last publication: their verdict (and cursor count) alone. */
  verdicts: Array<{ id: number; plainUntil: number; cursorCount: number }>;
  /** Outboxes whose watch ended: their views are dropped. */
  ended: number[];
}

/** From the front to the engine thread: the outboxes whose views answered reads. */
export interface FrontNews {
  used: number[];
}

interface Published {
  outbox: PaneOutbox;
  watch: PublishedWatch;
  /** When its last publication was sent (performance.now()). */
  sent: number;
}

export class PortPublisher implements ReadPublisher {
  private readonly published = new Map<number, Published>();
  private readonly due = new Set<PaneOutbox>();
  private ended: number[] = [];
  private scheduled = false;
  /** Set while news waits for a pane's spacing to run out. */
  private spaced: ReturnType<typeof setTimeout> | undefined;
  private nextId = 1;
  private readonly refresher: ReturnType<typeof setInterval>;

  constructor(private readonly port: MessagePort) {
    port.on("message", (news: FrontNews) => {
      for (const id of news.used) this.published.get(id)?.watch.used();
    });
    // The port never keeps the thread alive: the server ends when its stdin does.
    port.unref();
    this.refresher = setInterval(() => {
      for (const { outbox } of this.published.values()) this.mark(outbox);
    }, VERDICT_MS / 2).unref();
  }

  add(observer: PaneObserver, watch: PublishedWatch): () => void {
    const id = this.nextId++;
    const source = { paneId: observer.paneId, start: () => observer.publicationStart(), publication: (seq: number) => observer.publication(seq) };
    const outbox = new PaneOutbox(id, source, (due, when) => {
      if (when === "now") return this.send([due]);
      // A wait's answer went out just now: it counts as a publication for the pane's spacing.
      if (when === "answered") entry.sent = performance.now();
      this.mark(due);
    });
    const entry: Published = { outbox, watch, sent: -Infinity };
    this.published.set(id, entry);
    observer.publishTo(outbox);
    return () => {
      if (!this.published.delete(id)) return;
      this.due.delete(outbox);
      this.ended.push(id);
      this.schedule();
    };
  }

  close(): void {
    clearInterval(this.refresher);
    clearTimeout(this.spaced);
    this.port.close();
  }

  private mark(outbox: PaneOutbox): void {
    // A watch's observer says it closed as it is disposed, after its outbox ended: kept here, the
    // outbox held the observer (screen, ring) for ever, one per eviction.
    if (!this.published.has(outbox.id)) return;
    this.due.add(outbox);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // After this turn's I/O: a flood's chunks of one read of the control clients go in one publication.
    setImmediate(() => {
      this.scheduled = false;
      const now = performance.now();
      const ready: PaneOutbox[] = [];
      let next = Infinity;
      for (const outbox of this.due) {
        const sent = this.published.get(outbox.id)?.sent ?? -Infinity;
        if (now - sent >= SPACING_MS) ready.push(outbox);
        else next = Math.min(next, sent + SPACING_MS);
      }
      this.send(ready);
      if (next < Infinity && this.spaced === undefined) {
        this.spaced = setTimeout(() => {
          this.spaced = undefined;
          this.schedule();
        }, next - now);
      }
    });
  }

  private send(outboxes: readonly PaneOutbox[]): void {
    const publications: Publication[] = [];
    const verdicts: EngineNews["verdicts"] = [];
    const transfer: ArrayBuffer[] = [];
    const now = performance.timeOrigin + performance.now();
    for (const outbox of outboxes) {
      this.due.delete(outbox);
      const published = this.published.get(outbox.id);
      if (!published) continue;
      const plainUntil = Math.min(published.watch.readVerdict(), now + VERDICT_MS);
      const publication = outbox.take(plainUntil);
      published.sent = performance.now();
      if (!publication) {
        verdicts.push({ id: outbox.id, plainUntil, cursorCount: outbox.cursorCount.now });
        continue;
      }
      publications.push(publication);
      transfer.push(publication.raw.buffer as ArrayBuffer, publication.rows.lines.buffer as ArrayBuffer, publication.rows.stamps.buffer as ArrayBuffer);
    }
    const ended = this.ended;
    if (publications.length === 0 && verdicts.length === 0 && ended.length === 0) return;
    this.ended = [];
    const news: EngineNews = { publications, verdicts, ended };
    this.port.postMessage(news, transfer);
  }
}
