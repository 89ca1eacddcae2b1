// tmux without a UTF-8 locale (how MCP clients often start servers) still gives byte-exact answers.
import { afterAll, describe, expect, it } from "vitest";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

afterAll(killAllServers);

describe("tmux clients with no locale in the environment", () => {
  it("list panes with non-ASCII titles and capture CJK text intact", async () => {
    const saved = { LANG: process.env.LANG, LC_ALL: process.env.LC_ALL, LC_CTYPE: process.env.LC_CTYPE };
    delete process.env.LANG;
    delete process.env.LC_ALL;
    delete process.env.LC_CTYPE;
    try {
      const test = await startServer({ command: "printf '日本語\\n'; sleep 60" });
      await test.run(["select-pane", "-t", "%0", "-T", "título ✓"]);
      const [pane] = await test.server.listPanes();
      expect(pane?.title).toBe("título ✓");
      let lines: string[] = [];
      for (let i = 0; i < 100 && !lines.includes("日本語"); i++) lines = await test.run(["capture-pane", "-p", "-t", "%0"]);
      expect(lines).toContain("日本語");
    } finally {
      for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    }
  });
});
