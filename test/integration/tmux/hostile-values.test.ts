// Hostile values through every tmux command panescope parses, on the tmux this suite runs with
// (../shared/tmux/each runs it on 3.2a–3.7c): session names, titles, command names and paths with
// quotes, $, \, the text \037, #, ;, spaces, non-ASCII and control bytes come back exactly from
// list_panes, capture_since (session lookup, probe, seed, stream), open_pane and the golden launch.
import { mkdir, mkdtemp, readdir, readFile, readlink, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { discardLaunch, launchPane } from "../../../src/golden/launch.js";
import { connect, type Capture } from "../../support/mcp-hub.js";
import { storedSessionName } from "../../support/tmux-output.js";
import { killAllServers, startServer, waitFor } from "../../support/tmux-fixture.js";

afterAll(killAllServers);

// Titles cannot hold control bytes (tmux drops such a title: utf8_isvalid), so TEXT has none.
const TEXT = `q'"$x \${y} \\ \\037 \\n \\$HOME #; é中🙂 end`;
const CONTROL = "\u0001\t\u001b";
// Command names as tmux derives them from argv[0] (names.c parse_window_name): no space or ", end
// in a letter. tmux 3.7+ reports a name holding control bytes as "" (clean_name refuses it).
const ARGV0 = `c'$x\\037#;é中\\z`;
const ARGV0_CONTROL = `c${CONTROL}\\037z`;
// A session name tmux's new-session -s does not expand as a format (no #{, ## or #X aliases).
const SESSION = `s'"$HOME \\ \\037 #;é中 x.y`;

/** The pane's process, as the kernel sees it: its argv[0] and working directory. */
async function processOf(pid: number): Promise<{ argv0: string; cwd: string }> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
  return { argv0: cmdline.split("\0")[0] ?? "", cwd: await readlink(`/proc/${pid}/cwd`).catch(() => "") };
}

const texts = (delta: Capture): string[] => delta.rows.map((row) => row.text);

/** argv[0] of the processes whose parent is `pid`. */
async function childrenOf(pid: number): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === pid) found.push((await processOf(Number(entry))).argv0);
  }
  return found;
}

describe("hostile values", () => {
  it("round-trip exactly through list_panes, capture_since, open_pane and the golden launch", async () => {
    const base = await mkdtemp(join(tmpdir(), "ps-hostile-"));
    const dir = join(base, `d'"$x \\ \\037 #;é中${CONTROL}\nz`);
    await mkdir(dir);
    const test = await startServer({ command: "sh" });
    const mcp = await connect(test.server);
    try {
      // A pane that sets its title (OSC 2), prints it, and becomes a process named ARGV0 in `dir`.
      const script = `printf '\\033]2;%s\\033\\\\' "$TITLE"; printf '%s\\n' "$TITLE"; exec -a "$NAME" cat`;
      await test.run(["new-session", "-d", "-s", SESSION, "-x", "80", "-y", "24", "-c", dir, "-e", `TITLE=${TEXT}`, "-e", `NAME=${ARGV0}`, "--", "bash", "-c", script]);
      const listed = async () => (await mcp.call("list_panes")).structuredContent?.panes as Array<Record<string, unknown>>;
      const hostile = (await listed()).find((p) => p.session !== "main");
      const pane = String(hostile?.paneId);
      const pid = Number(hostile?.pid);
      await test.server.sizeNewSession(pane, 80, 24);
      await waitFor(async () => (await processOf(pid)).argv0 === ARGV0, 5000, "the pane's program to start");
      expect(await processOf(pid)).toEqual({ argv0: ARGV0, cwd: dir });
      await waitFor(async () => (await listed()).some((p) => p.paneId === pane && p.title !== "" && p.path !== ""), 5000, "tmux to know the title and path");

      // list_panes: what the program set, and the session name tmux stores (the one -t =NAME: finds).
      const session = storedSessionName(SESSION, await test.server.version());
      expect((await listed()).find((p) => p.paneId === pane)).toMatchObject({ session, title: TEXT, command: ARGV0, path: dir });
      await test.run(["has-session", "-t", `=${session}:`]);

      // capture_since: the pane's session looked up by id, probed and seeded; then the live stream.
      const first = await mcp.capture({ paneId: pane });
      expect(texts(first)).toContain(TEXT);
      expect(first.screen).toMatchObject({ cols: 80, rows: 24, cursorX: 0, cursorY: 1 });
      const typed = await mcp.call("send_keys", { paneId: pane, text: `${TEXT}\n` });
      expect(typed.isError).toBeFalsy();
      // The echo and cat's copy may come in separate answers: count the lines showing TEXT so far.
      const shown = new Set<number>();
      const later = await mcp.captureUntil(first, (d) => {
        for (const row of d.rows) if (row.text === TEXT) shown.add(row.line);
        return shown.size >= 2;
      }, 5);
      // The terminal's echo of the typed line, then cat's copy of it.
      expect(later.map((d) => d.raw).join("").split(TEXT)).toHaveLength(3);

      // open_pane: a hostile working directory and program name, reported back by list_panes.
      const opened = await mcp.call("open_pane", { cwd: dir, env: { NAME: ARGV0_CONTROL }, command: `exec bash -c 'exec -a "$NAME" cat'` });
      expect(opened.isError, JSON.stringify(opened.content)).toBeFalsy();
      const { paneId, pid: openedPid } = opened.structuredContent as { paneId: string; pid: number };
      // The pane's process is open_pane's wrapper (it records the exit status); the command is its child.
      await waitFor(async () => (await childrenOf(openedPid)).some((argv0) => argv0 === ARGV0_CONTROL), 5000, "the opened pane's program to start");
      const command = (await test.server.version()).storesNamesEncoded ? "" : ARGV0_CONTROL;
      await waitFor(async () => (await listed()).some((p) => p.paneId === paneId && p.command !== "bash"), 5000, "tmux to see the new command");
      expect((await listed()).find((p) => p.paneId === paneId)).toMatchObject({ session: "panescope", command, path: dir, pid: openedPid, opened: true });
    } finally {
      await mcp.close();
      await test.kill();
    }

    // The golden launch reads back its server's socket path, and removes exactly that file.
    const sockets = join(base, "t$x \\ é;#");
    await mkdir(sockets);
    const before = process.env.TMUX_TMPDIR;
    process.env.TMUX_TMPDIR = sockets;
    try {
      const launched = await launchPane({ size: { cols: 20, rows: 5 }, command: ["true"] });
      expect(launched.socket).toBe(join(sockets, `tmux-${process.getuid?.() ?? 0}`, launched.server.socketName ?? ""));
      expect(existsSync(launched.socket ?? "")).toBe(true);
      await discardLaunch(launched);
      expect(existsSync(launched.socket ?? "")).toBe(false);
    } finally {
      if (before === undefined) delete process.env.TMUX_TMPDIR;
      else process.env.TMUX_TMPDIR = before;
      await rm(base, { recursive: true, force: true });
    }
  });
});
