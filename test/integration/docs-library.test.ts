// README "Use it from a program": the example, as written there, against a private tmux server.
import { afterAll, describe, expect, it } from "vitest";
import { Hub, TmuxServer } from "../../src/index.js";
import { killAllServers, startServer } from "./tmux-fixture.js";

afterAll(killAllServers);

describe("the README's library example", () => {
  it("reads the screen, then what a command printed", async () => {
    const test = await startServer({ cols: 40, rows: 6, command: "cat" });
    const lines: string[] = [];
    const log = (...parts: unknown[]): void => void lines.push(parts.join(" "));

    const hub = new Hub({ server: new TmuxServer({ socketName: test.name }) }); // tmux -L work
    let delta = await hub.capture({ paneId: "%0" }); // the visible screen and a cursor
    await test.run(["send-keys", "-t", "%0", "-l", "hello\n"]);
    delta = await hub.capture({ cursor: delta.cursor, waitMs: 5000 }); // what changed, waiting up to 5 s
    for (const row of delta.rows) log(row.line - delta.screen.top, row.text);
    await hub.close();

    expect(lines[0]).toMatch(/^0 hello/);
  });
});
