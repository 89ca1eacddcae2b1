// The engine thread's publisher, over a real MessageChannel: news goes out after the turn, a cursor
// at once, spaced per pane; the end of a watch and the front's reads cross as they should.
import { randomBytes } from "node:crypto";
import { MessageChannel, receiveMessageOnPort, type MessagePort as WorkerPort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { PaneObserver } from "../../../src/observe/pane/observer.js";
import { PortPublisher, SPACING_MS, VERDICT_MS, type EngineNews, type FrontNews } from "../../../src/mcp/engine/publisher.js";
import { retainedBytes } from "../../support/heap.js";

const key = randomBytes(32);
const observer = (paneId: string): PaneObserver =>
  new PaneObserver({ identity: { paneId, panePid: 1, serverPid: 2, serverStart: 3, instance: randomBytes(8) }, cols: 20, rows: 3, key });
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const until = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function taken(port: WorkerPort): EngineNews[] {
  const news: EngineNews[] = [];
  for (let got = receiveMessageOnPort(port); got; got = receiveMessageOnPort(port)) news.push(got.message as EngineNews);
  return news;
}

let close: (() => void) | undefined;
afterEach(() => close?.());

describe("PortPublisher", () => {
  it("publishes a pane's news after the turn, in one message for all panes, its start once", async () => {
    const { port1, port2 } = new MessageChannel();
    const publisher = new PortPublisher(port2);
    close = () => publisher.close();
    const watch = { readVerdict: () => Infinity, used: () => undefined };
    const a = observer("%1");
    const b = observer("%2");
    publisher.add(a, watch);
    publisher.add(b, watch);
    expect(taken(port1)).toEqual([]);
    await turn();
    const [first, ...rest] = taken(port1);
    // (A verdict refresh may come too on a slow machine: no publication does.)
    expect(rest.flatMap((news) => news.publications)).toEqual([]);
    expect(first?.publications.map((p) => [p.paneId, p.start !== undefined])).toEqual([
      ["%1", true],
      ["%2", true],
    ]);
    // At most a second ahead, whatever the watch says.
    const now = performance.timeOrigin + performance.now();
    expect(first?.publications[0]?.plainUntil).toBeLessThanOrEqual(now + VERDICT_MS);
    a.ingest(new TextEncoder().encode("hello"));
    // The pane published just now: its news waits out the spacing (a timer set before this one ends).
    await until(SPACING_MS + 5);
    await turn();
    const news = taken(port1).flatMap((n) => n.publications);
    expect(news.map((p) => [p.paneId, p.start !== undefined, new TextDecoder().decode(p.raw)])).toEqual([["%1", false, "hello"]]);
  });

  it("publishes at once when a read issues a cursor, spacing or not", async () => {
    const { port1, port2 } = new MessageChannel();
    const publisher = new PortPublisher(port2);
    close = () => publisher.close();
    const pane = observer("%1");
    publisher.add(pane, { readVerdict: () => Infinity, used: () => undefined });
    await turn();
    taken(port1);
    pane.ingest(new TextEncoder().encode("x"));
    const { cursor } = await pane.read();
    expect(cursor).toBeTruthy();
    // No turn passed: the publication of the cursor's state is there already, with the count of cursors.
    const publications = taken(port1).flatMap((n) => n.publications);
    expect(publications.map((p) => [p.seq, p.cursorCount])).toEqual([[pane.sequence, 1]]);
  });

  it("publishes a wait's answer as any news, after it, with the count of cursors", async () => {
    const { port1, port2 } = new MessageChannel();
    const publisher = new PortPublisher(port2);
    close = () => publisher.close();
    const pane = observer("%1");
    publisher.add(pane, { readVerdict: () => Infinity, used: () => undefined });
    const { cursor } = await pane.read();
    taken(port1);
    const waiting = pane.waitForChange(cursor, 60_000);
    await turn();
    pane.ingest(new TextEncoder().encode("woken"));
    await waiting;
    expect(taken(port1)).toEqual([]); // not before the answer
    await until(SPACING_MS + 5);
    await turn();
    const publications = taken(port1).flatMap((n) => n.publications);
    expect(publications.map((p) => [p.seq, p.cursorCount])).toEqual([[pane.sequence, 2]]);
  });

  it("sends a pane's verdict alone when only its watch's checks changed (republish), at once after the turn", async () => {
    const { port1, port2 } = new MessageChannel();
    const publisher = new PortPublisher(port2);
    close = () => publisher.close();
    let verdict = Infinity;
    const pane = observer("%1");
    publisher.add(pane, { readVerdict: () => verdict, used: () => undefined });
    await turn();
    const id = taken(port1)[0]?.publications[0]?.id;
    await until(SPACING_MS + 5); // past the pane's spacing: what follows is due at once
    verdict = 0; // a follow began
    pane.republish();
    await turn();
    const news = taken(port1);
    expect(news.flatMap((n) => n.publications)).toEqual([]);
    expect(news.flatMap((n) => n.verdicts).at(-1)).toEqual({ id, plainUntil: 0, cursorCount: 0 });
  });

  it("says which watches ended, and hands the front's reads to their watch", async () => {
    const { port1, port2 } = new MessageChannel();
    const publisher = new PortPublisher(port2);
    close = () => publisher.close();
    let uses = 0;
    const stop = publisher.add(observer("%1"), { readVerdict: () => 0, used: () => void uses++ });
    await turn();
    const [start] = taken(port1);
    const id = start?.publications[0]?.id ?? -1;
    expect(start?.publications[0]?.plainUntil).toBe(0);
    const used: FrontNews = { used: [id, id + 100] };
    port1.postMessage(used);
    await new Promise<void>((resolve) => port2.once("message", () => setImmediate(resolve)));
    expect(uses).toBe(1);
    stop();
    await turn();
    const news = taken(port1);
    expect(news.flatMap((n) => n.publications)).toEqual([]);
    expect(news.flatMap((n) => n.ended)).toEqual([id]);
  });

  it("keeps nothing of a watch that ended, though its observer says it closed as it is disposed", async () => {
    const { port1, port2 } = new MessageChannel();
    const publisher = new PortPublisher(port2);
    close = () => publisher.close();
    // As PaneWatch.dispose does on eviction: stop publishing, then dispose the observer (which closes it).
    const ended = (): WeakRef<PaneObserver> => {
      const pane = observer("%1");
      const stop = publisher.add(pane, { readVerdict: () => Infinity, used: () => undefined });
      stop();
      pane.dispose();
      return new WeakRef(pane);
    };
    const gone = ended();
    await until(SPACING_MS + 5);
    await turn();
    taken(port1);
    retainedBytes(); // a full collection
    expect(gone.deref()).toBeUndefined();
  });
});
