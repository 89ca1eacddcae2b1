// `panescope` with its engine on a thread of its own (issue 28: reads never wait behind someone
// else's flood). The engine thread (thread.ts) is the whole MCP server as it runs in one thread,
// on a stdin and stdout this thread pipes. This thread reads stdin, answers a plain capture_since
// (plain-read.ts) itself from the pane's read view, built from the engine's publications
// (publisher.ts, observe/pane/view.ts), and passes every other line on. A thread that sleeps until
// a request comes is woken at once; the thread that parses twenty floods never sleeps, and a read
// waiting for it waited for a core (docs/benchmarks.md, "Reads under twenty floods").
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { joinBytes } from "../../bytes.js";
import { messageOf } from "../../errors.js";
import { decodeCursor } from "../../observe/cursor/codec.js";
import { PaneView } from "../../observe/pane/view.js";
import type { McpOptions } from "../../options.js";
import { captureResult } from "../capture-result.js";
import { InputHold, NOT_READING_NOTICE } from "../input-hold.js";
import { limitsOf } from "../limits.js";
import { HandshakeRelay } from "./handshake-relay.js";
import { FrontLines } from "./lines.js";
import { FrontStdout, sharedStdoutWords, stdoutIsPipeOrSocket } from "./shared-stdout.js";
import { answerLine, plainRead, type PlainRead } from "./plain-read.js";
import type { EngineNews, FrontNews } from "./publisher.js";
import type { EngineData } from "./thread.js";

const NEWLINE = 0x0a;

/** Publications are taken when a read comes, and this often besides (a pane nobody reads piles none up). */
const TAKE_MS = 50;
/** A pane's reads answered here are told to the engine at most this often (its eviction counts uses). */
const USED_MS = 1000;

/**
 * The engine thread's file: a face bundled beside this one (scripts/bundle-cli.mjs), or tsc's
 * file beside this one when this is tsc's.
 */
function engineFile(): URL {
  return new URL(import.meta.url.endsWith("/front.js") ? "./thread.js" : "./mcp-engine-thread.js", import.meta.url);
}

/** Serves MCP on stdio as mcp/main.ts does; resolves with the exit code once the client has gone. */
export async function serve(options: McpOptions): Promise<number> {
  // A transcript that cannot be written is refused here, before the handshake is answered and the
  // engine starts, as in one thread (mcp/main.ts): a usage error (exit 2), not a failed engine.
  // Opened once, and the engine writes to that fd: a second open could find another file, or
  // block on a FIFO whose reader took the first close as the end.
  const transcriptFd = options.transcript === undefined ? undefined : (await import("../transcript.js")).openTranscriptFile(options.transcript);
  const words = sharedStdoutWords();
  // stdin is not read while the engine's input is full, nor while answers wait for a client that
  // does not read them (its own and the engine's alike: they would pile up here without bound).
  const input = new InputHold(process.stdin);
  let notReadingSaid = false;
  // Nor are the engine's answers taken meanwhile: they wait in the engine thread, whose own stdout
  // then stops draining, so its transport stops reading requests (mcp/stdio-transport.ts) as in
  // one thread. Taken again at 'drain', in order; at once if stdout failed (the engine must end).
  let fromEngine: Pick<NodeJS.ReadableStream, "pause" | "resume"> | undefined = undefined;
  let stdoutFailed = false;
  let held = false;
  const stdout = new FrontStdout(words, process.stdout, (waiting) => {
    held = waiting && !stdoutFailed;
    if (!held) {
      fromEngine?.resume();
      return input.release("answers");
    }
    fromEngine?.pause();
    input.hold("answers");
    if (!notReadingSaid) process.stderr.write(`panescope: ${NOT_READING_NOTICE}\n`);
    notReadingSaid = true;
  });
  const write = (line: string): void => stdout.write(line);
  // The handshake first (mcp/handshake.ts); the engine thread starts after (its own start, ≈18 ms on
  // a 2-core VM, made this thread's load of the server 10–15 ms slower when the two overlapped).
  const answerHandshake = await (await import("../main.js")).handshake(options, write);
  const channel = new MessageChannel();
  const data: EngineData = { options, port: channel.port2, stdout: { words, pipeOrSocket: stdoutIsPipeOrSocket() }, ...(transcriptFd === undefined ? {} : { transcriptFd }) };
  const engine = new Worker(engineFile(), { workerData: data, transferList: [channel.port2], stdin: true, stdout: true });
  let failed = false;
  engine.on("error", (error) => {
    failed = true;
    process.stderr.write(`panescope: the engine thread failed: ${messageOf(error)}\n`);
  });
  // Not events.once: it rejects on the 'error' that comes before a failed engine's exit.
  const exited = new Promise<number>((resolve) => engine.once("exit", resolve));
  // Its last answers may still wait in engine.stdout (held above) when it exits: 'end' follows them.
  const relayed = new Promise<void>((resolve) => engine.stdout.once("end", resolve));
  const front = new Front(channel.port1, options, write);
  const toEngine = engine.stdin;
  if (!toEngine) throw new Error("the engine thread has no stdin");
  const lines = new FrontLines();
  // Backpressure: a client writing faster than the engine reads waits, as with one thread (stdin is
  // not read meanwhile); a 100 MB line never piles up between the threads.
  const pass = (bytes: Uint8Array | string): void => {
    if (toEngine.write(bytes) || input.holds("engine")) return;
    input.hold("engine");
    toEngine.once("drain", () => input.release("engine"));
  };
  // The engine loads the server when the handshake is over, or when a line it must answer comes first.
  let started = false;
  const start = (): void => {
    if (started) return;
    started = true;
    engine.postMessage("start");
  };
  // The engine's answer to a copy of initialize must come through here to be dropped: it holds the
  // engine's own writes back until then.
  const handshake = new HandshakeRelay({
    answer: answerHandshake,
    toEngine: (line) => {
      stdout.holdEngine();
      pass(line);
    },
    dropped: () => stdout.releaseEngine(),
    over: start,
  });
  const decoder = new TextDecoder();
  process.stdin.on("data", (chunk: Buffer) => {
    for (const input of lines.push(chunk)) {
      if (input.kind === "pass") {
        start();
        pass(input.bytes);
        continue;
      }
      const line = decoder.decode(input.bytes);
      if (handshake.take(line) || front.tryAnswer(line)) continue;
      if (!handshake.notification(line)) start();
      pass(input.bytes);
      pass("\n");
    }
  });
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    start(); // it answers what it was given, then ends with its stdin
    toEngine.end(lines.end());
  };
  process.stdin.on("end", stop);
  process.stdout.on("error", () => {
    stdoutFailed = true;
    fromEngine?.resume();
    stop();
  });
  // A signal stops the engine's waits too: they answer at once, and the process ends in a moment.
  // Kept, not once: a second signal must not kill the process mid-answer (mcp/main.ts).
  const signalled = (): void => {
    stop();
    engine.postMessage("stop");
  };
  process.on("SIGINT", signalled);
  process.on("SIGTERM", signalled);
  // Whole lines only: an answer written here never lands inside one of the engine's.
  let partial: Uint8Array[] = [];
  engine.stdout.on("data", (chunk: Buffer) => {
    const end = chunk.lastIndexOf(NEWLINE);
    if (end === -1) {
      partial.push(chunk);
      return;
    }
    const whole = joinBytes([...partial, chunk.subarray(0, end + 1)]);
    partial = [chunk.subarray(end + 1)];
    stdout.relay(whole, handshake.filtering ? handshake.filter(Buffer.from(whole).toString()) : whole);
  });
  fromEngine = engine.stdout;
  if (held) fromEngine.pause();
  const [code] = await Promise.all([exited, relayed]);
  const rest = joinBytes(partial);
  if (rest.length > 0) stdout.relay(rest);
  front.close();
  process.stderr.write(`panescope: ${front.answered} reads answered beside the engine thread; at most ${stdout.mostWaiting} bytes of answers waited for the client here\n`);
  // Nobody answers requests any more: stdin must not hold the process (a failed engine leaves it open).
  process.stdin.destroy();
  return failed ? 1 : code;
}

/** The reads answered on the main thread: every published pane's view, kept from the engine's publications. */
export class Front {
  private readonly views = new Map<string, PaneView>();
  private readonly paneOf = new Map<number, string>();
  /** When each view's reads were last told to the engine, and the views read since (told every TAKE_MS). */
  private readonly toldUsed = new Map<number, number>();
  private usedSince = new Set<number>();
  /** The cursor key (every view's is the hub's); undefined until a pane is published. */
  private key: Uint8Array | undefined;
  private readonly taker: ReturnType<typeof setInterval>;
  /** Reads answered here so far (said on exit: how much of the load this thread took). */
  answered = 0;
  private faulted = false;

  constructor(
    private readonly port: MessagePort,
    private readonly options: McpOptions,
    private readonly write: (line: string) => void,
  ) {
    // Not listened to: a publication does not wake this thread, it is taken when a read comes.
    this.taker = setInterval(() => {
      if (this.faulted) return;
      try {
        this.take();
        this.tellUsed();
      } catch (error) {
        this.fault(error);
      }
    }, TAKE_MS);
    this.taker.unref();
  }

  /** answer(), and false if it threw: a fault here must not take the server down (fault). */
  tryAnswer(line: string): boolean {
    try {
      return this.answer(line);
    } catch (error) {
      this.fault(error);
      return false;
    }
  }

  /**
   * A bug here: the views may be half-updated, so the engine answers every read from now on
   * (exactly, only slower), and stderr says so once.
   */
  private fault(error: unknown): void {
    if (this.faulted) return;
    this.faulted = true;
    process.stderr.write(`panescope: reads beside the engine thread stopped (${messageOf(error)}); the engine answers them all. This is a panescope bug; please report it\n`);
  }

  /** Answers the request `line` if it is a read a view can answer; false: the engine must. */
  answer(line: string): boolean {
    // A transcript holds every call: only the engine writes it.
    if (this.faulted || this.options.transcript !== undefined) return false;
    const read = plainRead(line);
    if (!read) return false;
    this.take();
    const answer = this.answerRead(read);
    if (answer === undefined) return false;
    this.write(answer);
    this.answered++;
    return true;
  }

  close(): void {
    clearInterval(this.taker);
    this.port.close();
  }

  private answerRead(read: PlainRead): string | undefined {
    let fields;
    try {
      if (this.key === undefined) return undefined; // no pane published yet
      fields = decodeCursor(read.cursor, this.key);
    } catch {
      return undefined; // tampered, malformed: the engine's error says so
    }
    const paneId = `%${fields.pane}`;
    if (read.paneId !== undefined && read.paneId !== paneId) return undefined;
    const view = this.views.get(paneId);
    const now = performance.timeOrigin + performance.now();
    if (!view || !view.plainAt(now)) return undefined;
    // Hub.resolve: a cursor of another server is an error, which the engine gives.
    if (fields.socket !== undefined && fields.socket !== view.socketTag) return undefined;
    const delta = view.answer(fields, limitsOf(read));
    if (!delta) return undefined;
    if (now - (this.toldUsed.get(view.id) ?? 0) >= USED_MS) {
      this.toldUsed.set(view.id, now);
      this.usedSince.add(view.id);
    }
    const result = captureResult(delta, { cursor: read.cursor, requestedWaitMs: 0, maxWaitMs: this.options.maxWaitMs, aborted: false, view: read.view });
    return answerLine(read, result);
  }

  /** Tells the engine which panes were read here since the last time (one message, not one a read). */
  private tellUsed(): void {
    if (this.usedSince.size === 0) return;
    const news: FrontNews = { used: [...this.usedSince] };
    this.usedSince = new Set();
    this.port.postMessage(news);
  }

  /** Takes every publication waiting, in order. */
  private take(): void {
    for (let got = receiveMessageOnPort(this.port); got; got = receiveMessageOnPort(this.port)) {
      const news = got.message as EngineNews;
      for (const publication of news.publications) {
        let view = this.views.get(publication.paneId);
        if (publication.start && (!view || view.id < publication.id)) {
          if (view) this.forget(view.id);
          view = new PaneView(publication.id, publication.start);
          this.views.set(publication.paneId, view);
          this.paneOf.set(publication.id, publication.paneId);
          this.key = publication.start.key;
        }
        if (view?.id === publication.id) view.apply(publication);
      }
      for (const { id, plainUntil, cursorCount } of news.verdicts) this.viewOf(id)?.renew(plainUntil, cursorCount);
      for (const id of news.ended) this.forget(id);
    }
  }

  private viewOf(id: number): PaneView | undefined {
    const view = this.views.get(this.paneOf.get(id) ?? "");
    return view?.id === id ? view : undefined;
  }

  private forget(id: number): void {
    const paneId = this.paneOf.get(id);
    this.paneOf.delete(id);
    this.toldUsed.delete(id);
    if (paneId !== undefined && this.views.get(paneId)?.id === id) this.views.delete(paneId);
  }
}
