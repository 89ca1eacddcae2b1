// docs/library.md: the example, as written there, against a private tmux server. Differences,
// checked by the second test: the import path, the server's name, and `log` for console.log; one
// line is added between the reads (something has to print).
import { readFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { Hub, TmuxServer } from "../../../src/index.js";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

afterAll(killAllServers);

describe("the library example of docs/library.md", () => {
  it("reads the screen, then what a command printed", async () => {
    const test = await startServer({ cols: 40, rows: 6, command: "cat" });
    const lines: string[] = [];
    const log = (...parts: unknown[]): void => void lines.push(parts.join(" "));

    // --- example ---
    const hub = new Hub({ server: new TmuxServer({ socketName: test.name }) }); // tmux -L work
    let delta = await hub.capture({ paneId: "%0" }); // the visible screen and a cursor
    await test.run(["send-keys", "-t", "%0", "-l", "hello\n"]); // (added: something to read)
    delta = await hub.capture({ cursor: delta.cursor, waitMs: 5000 }); // what changed, waiting up to 5 s
    for (const row of delta.rows) log(row.line - delta.screen.top, row.text);
    await hub.close();
    // --- end of example ---

    expect(lines[0]).toMatch(/^0 hello/);
  });

  it("runs the page's lines word for word but for the server's name and log", async () => {
    const page = await readFile(new URL("../../../docs/library.md", import.meta.url), "utf8");
    const example = /```ts\n([\s\S]*?)```/.exec(page)?.[1] ?? "";
    const self = await readFile(import.meta.filename, "utf8");
    const ours = (/\/\/ --- example ---\n([\s\S]*?)\s*\/\/ --- end of example ---/.exec(self)?.[1] ?? "")
      .split("\n")
      .filter((line) => !line.includes("(added: something to read)"))
      .map((line) => line.trim().replace("socketName: test.name", 'socketName: "work"').replace("log(row.line", "console.log(row.line"));
    expect(example.split("\n").filter((line) => line !== "" && !line.startsWith("import "))).toEqual(ours);
    expect(example).toContain('import { Hub, TmuxServer } from "panescope";');
  });
});
