// Which pane is panescope's own, by tmux identity: the socket spelled with doubled slashes, `/./`
// or through a symlink is still the same server; another server with the same pane id is not.
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ownPaneFromEnv, type OwnPane } from "../../src/mcp/own-pane.js";
import { TmuxServer } from "../../src/tmux/server.js";
import { killAllServers, socketFile, startServer, type TestServer } from "../support/tmux-fixture.js";
import { link, textOf, type Linked } from "../support/mcp-link.js";

describe("ownPaneFromEnv", () => {
  it("reads TMUX_PANE and the socket and pid from TMUX, whose socket path may contain commas", () => {
    expect(ownPaneFromEnv({ TMUX_PANE: "%4", TMUX: "/tmp/tmux-0/default,1234,0" })).toEqual({ paneId: "%4", socket: "/tmp/tmux-0/default", serverPid: 1234 });
    expect(ownPaneFromEnv({ TMUX_PANE: "%4", TMUX: "/tmp/a,b/sock,77,3" })).toEqual({ paneId: "%4", socket: "/tmp/a,b/sock", serverPid: 77 });
  });
  it("is TMUX_PANE alone when TMUX is missing or unreadable, and nothing outside tmux", () => {
    expect(ownPaneFromEnv({ TMUX_PANE: "%4" })).toEqual({ paneId: "%4" });
    expect(ownPaneFromEnv({ TMUX_PANE: "%4", TMUX: "garbage" })).toEqual({ paneId: "%4" });
    expect(ownPaneFromEnv({ TMUX: "/tmp/x,1,0" })).toBeUndefined();
    expect(ownPaneFromEnv({ TMUX_PANE: "4" })).toBeUndefined();
  });
});

const linked: Linked[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
});
afterAll(async () => {
  await killAllServers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A private server, its first pane, and the environment tmux gives a program in that pane. */
async function serverWithEnv(): Promise<{ test: TestServer; pane: string; own: OwnPane }> {
  const test = await startServer({ command: "sh" });
  const [line = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id} #{pid}"]);
  const [pane = "", pid = ""] = line.split(" ");
  const own = ownPaneFromEnv({ TMUX: `${socketFile(test.name)},${pid},0`, TMUX_PANE: pane });
  if (!own) throw new Error("no own pane");
  return { test, pane, own };
}

async function linkTo(server: TmuxServer, own: OwnPane | undefined): Promise<Linked> {
  const mcp = await link(server, own === undefined ? {} : { ownPane: own });
  linked.push(mcp);
  return mcp;
}

function errorKind(result: CallToolResult): unknown {
  return result.isError ? result._meta?.["panescope/error"] : "ok";
}

describe("own pane by server identity", () => {
  it("refuses to type into or kill its own pane however the socket path is spelled", async () => {
    const { test, pane, own } = await serverWithEnv();
    const socket = socketFile(test.name);
    const dir = mkdtempSync(join(tmpdir(), "panescope-own-"));
    dirs.push(dir);
    symlinkSync(socket, join(dir, "link"));
    symlinkSync(dirname(socket), join(dir, "dirlink"));
    const spellings = [
      `/${socket}`,
      socket.replace(/\/(?=[^/]+$)/, "//"),
      socket.replace(/\/(?=[^/]+$)/, "/./"),
      join(dir, "link"),
      `${dir}//link`,
      `${dir}/dirlink/./${test.name}`,
    ];
    for (const socketPath of spellings) {
      const mcp = await linkTo(new TmuxServer({ socketPath }), own);
      const typed = await mcp.call("send_keys", { paneId: pane, text: "echo typed" });
      expect(errorKind(typed), `${socketPath}: ${textOf(typed)}`).toBe("not-allowed");
      expect(errorKind(await mcp.call("close_pane", { paneId: pane, force: true })), socketPath).toBe("not-allowed");
      const listed = (await mcp.call("list_panes")).structuredContent?.panes as { paneId: string; self: boolean }[];
      expect(listed.find((p) => p.paneId === pane)?.self, socketPath).toBe(true);
    }
    expect(await test.run(["list-panes", "-a", "-F", "#{pane_id}"])).toEqual([pane]);
    expect((await test.run(["capture-pane", "-p", "-t", pane])).join("\n")).not.toContain("typed");
  });

  it("types into the same pane id on another server", async () => {
    const { own } = await serverWithEnv();
    const other = await startServer({ command: "sh" });
    const [pane = ""] = await other.run(["display-message", "-p", "-t", other.session, "#{pane_id}"]);
    expect(pane).toBe(own.paneId); // both fresh servers number their first pane %0
    const mcp = await linkTo(other.server, own);
    expect(errorKind(await mcp.call("send_keys", { paneId: pane, text: "x" }))).toBe("ok");
    const listed = (await mcp.call("list_panes")).structuredContent?.panes as { paneId: string; self: boolean }[];
    expect(listed.map((p) => p.self)).toEqual([false]);
  });

  it("without TMUX it cannot tell which server TMUX_PANE is on, so it refuses that pane id on any", async () => {
    const other = await startServer({ command: "sh" });
    const [pane = ""] = await other.run(["display-message", "-p", "-t", other.session, "#{pane_id}"]);
    const mcp = await linkTo(other.server, ownPaneFromEnv({ TMUX_PANE: pane }));
    expect(errorKind(await mcp.call("send_keys", { paneId: pane, text: "x" }))).toBe("not-allowed");
  });
});

describe("own pane under another spelling", () => {
  it("refuses to type into or kill its own pane spelled with leading zeros (tmux reads %00 as %0)", async () => {
    const { test, pane, own } = await serverWithEnv();
    const mcp = await linkTo(test.server, own);
    const number = pane.slice(1);
    for (const spelling of [`%0${number}`, `%00${number}`, `%${number.padStart(9, "0")}`]) {
      const typed = await mcp.call("send_keys", { paneId: spelling, text: "echo typed" });
      expect(errorKind(typed), `${spelling}: ${textOf(typed)}`).toBe("not-allowed");
      expect(errorKind(await mcp.call("close_pane", { paneId: spelling, force: true })), spelling).toBe("not-allowed");
    }
    expect(await test.run(["list-panes", "-a", "-F", "#{pane_id}"])).toEqual([pane]);
    expect((await test.run(["capture-pane", "-p", "-t", pane])).join("\n")).not.toContain("typed");
  });

  it("answers for another pane spelled with leading zeros as for its plain id: one watch, its own cursor", async () => {
    const { test, own } = await serverWithEnv();
    const [other = ""] = await test.run(["split-window", "-d", "-P", "-F", "#{pane_id}", "-t", test.session, "sh"]);
    const mcp = await linkTo(test.server, own);
    const zeros = `%00${other.slice(1)}`;
    expect(errorKind(await mcp.call("send_keys", { paneId: zeros, text: "echo typed-here", enter: true }))).toBe("ok");
    const first = await mcp.call("capture_since", { paneId: zeros });
    expect(first.structuredContent?.paneId).toBe(other);
    // The cursor names the plain id; the zero spelling is still the same pane, not "another pane".
    const again = await mcp.call("capture_since", { paneId: zeros, cursor: first.structuredContent?.cursor });
    expect(errorKind(again), textOf(again)).toBe("ok");
  });
});
