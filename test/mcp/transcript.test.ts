// --transcript: every tools/call and its answer is appended as one JSON line (start, duration,
// tool, arguments, result with isError, or the protocol error), and `panescope report` renders
// those lines as a page. In-process: a client linked to the server, no tmux server running.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main as reportMain } from "../../src/mcp/report/main.js";
import { parseTranscript, renderTranscript } from "../../src/mcp/report/render.js";
import { KEPT_CHARS, Transcript, type TranscriptEntry } from "../../src/mcp/transcript.js";
import { link } from "../support/mcp-link.js";

const dir = await mkdtemp(join(tmpdir(), "panescope-transcript-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("Transcript", () => {
  it("appends each call with its arguments and answer, in order, to what the file already held", async () => {
    const path = join(dir, "session.jsonl");
    await writeFile(path, "");
    const transcript = Transcript.open(path, () => undefined);
    const linked = await link(undefined, { wrapToolCall: (handler) => transcript.wrap(handler) });
    try {
      const listed = await linked.call("list_panes", {});
      await linked.call("capture_pane", { paneId: "not a pane" });
      await expect(linked.call("no_such_tool", {})).resolves.toMatchObject({ isError: true });
      const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
      const entries = lines.map((line) => JSON.parse(line) as TranscriptEntry);
      expect(entries.map((e) => [e.seq, e.tool])).toEqual([
        [1, "list_panes"],
        [2, "capture_pane"],
        [3, "no_such_tool"],
      ]);
      expect(entries[0]?.result).toEqual(listed);
      // docs/tools.md shows a line of the same shape.
      const docs = await readFile(new URL("../../docs/tools.md", import.meta.url), "utf8");
      const shown = JSON.parse(/## Transcripts[\s\S]*?```json\n(.*)\n```/.exec(docs)?.[1] ?? "{}") as Record<string, unknown>;
      expect(Object.keys(shown)).toEqual(Object.keys(entries[1] ?? {}));
      expect(entries[1]?.arguments).toEqual({ paneId: "not a pane" });
      expect(entries[1]?.result).toMatchObject({ isError: true });
      for (const e of entries) {
        expect(Number.isNaN(Date.parse(e.start))).toBe(false);
        expect(e.ms).toBeGreaterThanOrEqual(0);
      }
    } finally {
      await linked.close();
      transcript.close();
    }
  });

  it("records what a call threw, also when it is not an Error", async () => {
    const path = join(dir, "thrown.jsonl");
    const transcript = Transcript.open(path, () => undefined);
    try {
      const thrown: unknown[] = ["a string", undefined, new Error("an error")];
      for (const value of thrown) {
        const handler = transcript.wrap(() => Promise.reject(value));
        await expect(handler({ method: "tools/call", params: { name: "t", arguments: {} } } as never, {} as never)).rejects.toBe(value);
      }
      const entries = (await readFile(path, "utf8")).trimEnd().split("\n").map((line) => JSON.parse(line) as TranscriptEntry);
      expect(entries.map((e) => e.error?.message)).toEqual(["a string", "undefined", "an error"]);
    } finally {
      transcript.close();
    }
  });

  it("keeps an image as its type and size and a long string's start, and says on the line what it left out", async () => {
    const path = join(dir, "bounded.jsonl");
    const transcript = Transcript.open(path, () => undefined);
    const png = Buffer.alloc(300_000, 7).toString("base64");
    const text = `${"é".repeat(KEPT_CHARS - 1)}😀${"x".repeat(200_000)}`; // the cut falls inside the emoji
    const answer = { content: [{ type: "image", data: png, mimeType: "image/png" }, { type: "text", text: "short" }], structuredContent: { raw: text } };
    try {
      for (let i = 0; i < 3; i++) await transcript.wrap(() => Promise.resolve(answer as never))({ method: "tools/call", params: { name: "capture_pane", arguments: { text } } } as never, {} as never);
    } finally {
      transcript.close();
    }
    const file = await readFile(path, "utf8");
    expect(file.length).toBeLessThan(3 * (3 * KEPT_CHARS + 2048)); // whole: 3 × 1.2 MB
    const entries = file.trimEnd().split("\n").map((line) => JSON.parse(line) as TranscriptEntry);
    expect(entries).toHaveLength(3);
    const [entry] = entries;
    expect(entry?.result).toEqual({ content: [{ type: "image", mimeType: "image/png", bytes: 300_000 }, { type: "text", text: "short" }], structuredContent: { raw: text.slice(0, KEPT_CHARS - 1) } });
    expect(entry?.arguments).toEqual({ text: text.slice(0, KEPT_CHARS - 1) });
    expect(entry?.omitted).toEqual([
      { path: "arguments.text", chars: text.length, kept: KEPT_CHARS - 1 },
      { path: "result.content[0].data", chars: png.length, kept: 0 },
      { path: "result.structuredContent.raw", chars: text.length, kept: KEPT_CHARS - 1 },
    ]);
    const html = renderTranscript(parseTranscript(file), "bounded.jsonl");
    expect(html).toContain("image/png, 300000 bytes: not kept in the transcript");
    expect(html).toContain(`left out of the transcript: arguments.text: ${text.length} characters, the first ${KEPT_CHARS - 1} kept; result.content[0].data: ${png.length} characters, none kept`);
  });

  it("a run writes at most its cap: the line that reaches it says later calls are not recorded, and stderr too", async () => {
    const path = join(dir, "capped.jsonl");
    const warnings: string[] = [];
    const transcript = Transcript.open(path, (line) => void warnings.push(line), undefined, 10_000);
    const handler = transcript.wrap(() => Promise.resolve({ content: [{ type: "text", text: "y".repeat(3000) }] }));
    for (let i = 0; i < 10; i++) await handler({ method: "tools/call", params: { name: "list_panes", arguments: {} } } as never, {} as never);
    transcript.close();
    const file = await readFile(path, "utf8");
    const entries = file.trimEnd().split("\n").map((line) => JSON.parse(line) as TranscriptEntry);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(entries.slice(0, 3).every((e) => e.ends === undefined)).toBe(true);
    expect(entries[3]?.ends).toMatch(/^this run of the server has written its most to its transcript \(10000 bytes\): calls after this one are not recorded$/);
    expect(warnings).toEqual([`--transcript ${path}: ${entries[3]?.ends ?? ""}`]);
    expect(renderTranscript(parseTranscript(file), "capped.jsonl")).toContain("calls after this one are not recorded");
  });

  it("refuses at start a file it cannot open, saying what to do", () => {
    expect(() => Transcript.open(join(dir, "missing-folder", "t.jsonl"), () => undefined)).toThrow(/--transcript .*cannot open it for appending.*name a file in a folder you can write/);
  });
});

describe("panescope report", () => {
  const entry = (seq: number, more: Partial<TranscriptEntry>): string =>
    JSON.stringify({ seq, start: "2026-12-01T19:00:00.000Z", ms: 1.5, tool: "capture_pane", arguments: { paneId: "%1" }, ...more });

  it("renders each call, its arguments and answer, escaped, and counts lines it could not read", () => {
    const text = [
      entry(1, { result: { content: [{ type: "text", text: "1|<b>hi</b>" }] } }),
      "{ cut short",
      entry(2, { result: { content: [{ type: "text", text: "error (unknown-pane): no %9" }], isError: true } }),
      entry(3, { tool: "bogus", error: { message: "Tool bogus not found", code: -32602 } }),
      "",
    ].join("\n");
    const parsed = parseTranscript(text);
    expect(parsed.skipped).toEqual([2]);
    const html = renderTranscript(parsed, "s.jsonl");
    expect(html).toContain("1|&lt;b&gt;hi&lt;/b&gt;");
    expect(html).not.toContain("<b>hi</b>");
    expect(html.match(/<section class="item /g)).toHaveLength(3);
    expect(html).toContain("3 calls, 2 answered with an error");
    expect(html).toContain("lines not read: 2");
    expect(html).toContain("Content-Security-Policy");
  });

  it("shows capture_pane's svg, which follows its rows in one text, as a picture, its source folded away", () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="4"><text y="3">a&amp;b</text></svg>';
    const text = entry(1, { tool: "capture_pane", result: { content: [{ type: "text", text: `cursor=X %1 screen 1x1\n0|a&b\n${svg}` }] } });
    const html = renderTranscript(parseTranscript(text), "s.jsonl");
    expect(html).toContain(`<pre>cursor=X %1 screen 1x1\n0|a&amp;b</pre>\n<img alt="screen" src="data:image/svg+xml;`);
    expect(html).toContain("<details><summary>svg source</summary><pre>&lt;svg");
    expect(html).not.toContain(`<pre>cursor=X %1 screen 1x1\n0|a&amp;b\n&lt;svg`);
  });

  it("shows the calls in the order they started, though their lines were written as each finished", () => {
    const text = [
      // One run: a slow wait (1) finished after two quick reads (2, 3); then the server ran again.
      entry(2, { tool: "capture_since" }),
      entry(3, { tool: "list_panes" }),
      entry(1, { tool: "wait_for" }),
      entry(2, { tool: "capture_pane" }),
      entry(1, { tool: "send_keys" }),
    ].join("\n");
    const { entries } = parseTranscript(text);
    expect(entries.map((e) => [e.seq, e.tool])).toEqual([
      [1, "wait_for"],
      [2, "capture_since"],
      [3, "list_panes"],
      [1, "send_keys"],
      [2, "capture_pane"],
    ]);
    const html = renderTranscript({ entries, skipped: [] }, "s.jsonl");
    expect([...html.matchAll(/data-tool="(\w+)"/g)].map((m) => m[1])).toEqual(["wait_for", "capture_since", "list_panes", "send_keys", "capture_pane"]);
  });

  it("writes the page beside the transcript and says where", async () => {
    const transcript = join(dir, "one.jsonl");
    await writeFile(transcript, `${entry(1, { result: { content: [] } })}\n`);
    const out: string[] = [];
    const code = await reportMain({ transcript, output: join(dir, "one.html") }, { out: (l) => out.push(l), err: (l) => out.push(l) });
    expect([code, out]).toEqual([0, [`wrote ${join(dir, "one.html")}: 1 call`]]);
    expect(await readFile(join(dir, "one.html"), "utf8")).toMatch(/^<!doctype html>/);
    expect(await reportMain({ transcript: join(dir, "none.jsonl"), output: join(dir, "x.html") }, { out: (l) => out.push(l), err: (l) => out.push(l) })).toBe(2);
  });

  it("says what to do when the page cannot be written: a folder that does not exist, or a folder named as the page", async () => {
    const transcript = join(dir, "two.jsonl");
    await writeFile(transcript, `${entry(1, { result: { content: [] } })}\n`);
    const said: string[] = [];
    const io = { out: (l: string) => said.push(l), err: (l: string) => said.push(l) };
    expect(await reportMain({ transcript, output: join(dir, "nowhere", "two.html") }, io)).toBe(2);
    expect(await reportMain({ transcript, output: dir }, io)).toBe(2);
    expect(said).toEqual([
      `panescope report: cannot write ${join(dir, "nowhere", "two.html")}: the folder ${join(dir, "nowhere")} does not exist: create it, or name a file in a folder that does`,
      `panescope report: cannot write ${dir}: it is a folder: name a file in it (-o ${join(dir, "report.html")})`,
    ]);
  });

  it("refuses a file none of whose lines is a call (another file was named), and writes nothing; an empty one is a page of no calls", async () => {
    const script = join(dir, "check.mjs");
    await writeFile(script, "import x from 'y';\nconsole.log(x);\n");
    const said: string[] = [];
    const io = { out: (l: string) => said.push(l), err: (l: string) => said.push(l) };
    expect(await reportMain({ transcript: script, output: join(dir, "check.html") }, io)).toBe(2);
    expect(said).toEqual([`panescope report: ${script} is not a transcript: none of its 2 line(s) is a call panescope mcp --transcript wrote; nothing written`]);
    await expect(readFile(join(dir, "check.html"))).rejects.toThrow(/ENOENT/);
    const empty = join(dir, "empty.jsonl");
    await writeFile(empty, "");
    expect(await reportMain({ transcript: empty, output: join(dir, "empty.html") }, io)).toBe(0);
  });
});
