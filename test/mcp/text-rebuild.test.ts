// A model that reads only the TEXT of capture_since answers rebuilds the exact screen: the recorded
// tmux streams (golden/streams/) and the economy workloads (bench/programs.mjs) fed to an observer in
// random chunks, read at random moments, each answer's text applied to a TextScreen and compared
// with the observer's own screen (and, at the end of a recording, with tmux's). Seeded: a failure
// prints its seed; re-run with PANESCOPE_SEED=<seed>.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { renderDelta } from "../../src/mcp/render.js";
import { PaneObserver } from "../../src/observe/pane.js";
import { ControlParser } from "../../src/tmux/protocol.js";
import { scenarios } from "../support/fidelity/scenarios.js";
import { loadRecordings } from "../support/fidelity/stream.js";
import { TextScreen } from "../support/rebuild.js";
import { prng } from "../support/prng.js";

const RUNS = 8;
const baseSeed = Number(process.env.PANESCOPE_SEED ?? Math.floor(Math.random() * 2 ** 31));
const key = randomBytes(32);


/** What reaches the observer: pane output and resizes, in stream order. */
type Event = { output: Uint8Array } | { cols: number; rows: number };

interface Stream {
  name: string;
  cols: number;
  rows: number;
  events: Event[];
  /** tmux's final screen, when recorded. */
  final?: string[];
  shift?: number;
}

function recorded(): Stream[] {
  return loadRecordings().map((recording) => {
    const paneId = recording.screen.paneId;
    const events: Event[] = [];
    for (const event of new ControlParser().push(recording.ctl)) {
      if (event.type === "output" && event.paneId === paneId) events.push({ output: event.data });
      else if (event.type === "layout-change") {
        const pane = event.panes.find((p) => p.paneId === paneId);
        if (pane) events.push({ cols: pane.cols, rows: pane.rows });
      }
    }
    const [start] = recording.screen.sizes;
    return {
      name: recording.name,
      cols: start?.cols ?? 80,
      rows: start?.rows ?? 24,
      events,
      final: recording.screen.lines.map((line) => line.trimEnd()),
      shift: scenarios.find((s) => s.name === recording.name)?.knownRowShift ?? 0,
    };
  });
}

/** A workload's bytes as a tty delivers them (onlcr: `\n` becomes `\r\n`). */
function workload(name: string): Stream {
  const out = execFileSync(process.execPath, [resolve(import.meta.dirname, "../../bench/programs.mjs"), name, "0"]);
  const bytes = Buffer.from(out.toString("latin1").replace(/\n/g, "\r\n"), "latin1");
  return { name, cols: 80, rows: 24, events: [{ output: new Uint8Array(bytes) }] };
}

const streams = [...recorded(), ...["progress", "docker-pull", "log", "chat", "sync"].map(workload)];

async function replay(stream: Stream, seed: number): Promise<{ reads: number; text: TextScreen; observer: PaneObserver; bytes: number }> {
  const random = prng(seed);
  const observer = new PaneObserver({
    identity: { paneId: "%0", panePid: 1, serverPid: 1, serverStart: 1, instance: randomBytes(8) },
    cols: stream.cols,
    rows: stream.rows,
    key,
  });
  const text = new TextScreen();
  let reads = 0;
  let bytes = 0;
  const read = async (): Promise<void> => {
    const delta = await observer.read(text.cursor);
    const answer = renderDelta(delta, text.cursor === undefined ? {} : { given: text.cursor });
    bytes += Buffer.byteLength(answer);
    text.apply(answer);
    reads++;
    const where = `${stream.name}, seed ${seed} (PANESCOPE_SEED=${seed}), read ${reads}:\n${answer}`;
    expect(delta.missed, where).toBe(false);
    expect(text.rows(), where).toEqual((await observer.screenText()).rows.map((row) => row.replace(/ +$/, "")));
  };
  await read();
  const chance = 1 / (2 + random() * 30);
  for (const event of stream.events) {
    if ("output" in event) {
      let data = event.output;
      while (data.length > 0) {
        const cut = 1 + Math.floor(random() * Math.min(data.length, 512));
        observer.ingest(data.subarray(0, cut));
        data = data.subarray(cut);
        if (random() < chance) await read();
      }
    } else {
      observer.resize(event.cols, event.rows);
      if (random() < 0.5) await read();
    }
  }
  await read();
  return { reads, text, observer, bytes };
}

describe("a screen rebuilt from the text of capture_since answers alone", () => {
  it.each(streams.map((s) => [s.name, s] as const))("%s: equals the screen at every read, read at random moments", async (name, stream) => {
    for (let run = 0; run < RUNS; run++) {
      const seed = baseSeed + run;
      const { text, observer } = await replay(stream, seed);
      if (stream.final && stream.shift === 0) expect(text.rows(), `${name}, seed ${seed}`).toEqual(stream.final);
      observer.dispose();
    }
  });
});
