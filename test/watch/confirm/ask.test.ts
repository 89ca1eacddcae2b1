// Confirming through the watching client: the short life question, how its reply is read, and what
// the answer does to the output waiting in the gate (a real Confirmer, a client that replies with data).
import { describe, expect, it } from "vitest";
import { PanescopeError } from "../../../src/errors.js";
import type { CommandOptions } from "../../../src/tmux/client.js";
import { askWatchingClient, lifeCommand, parseLife } from "../../../src/watch/confirm/ask.js";
import { Confirmer, type ConfirmTarget } from "../../../src/watch/confirm/confirm.js";
import { tmuxPrints } from "../../support/tmux-output.js";

const format = lifeCommand("%4")[4] ?? "";
const line = (id: string, pid: string, dead: string): string[] => tmuxPrints(format, { pane_id: id, pane_pid: pid, pane_dead: dead }, "3.4");

function confirmerFor(panePid: number): { confirmer: Confirmer; delivered: string[]; events: string[] } {
  const delivered: string[] = [];
  const events: string[] = [];
  const target: ConfirmTarget = {
    paneId: "%4",
    panePid: () => panePid,
    session: () => "$0",
    awaited: () => false,
    askHere: () => new Promise<void>(() => undefined),
    deliver: (data) => void delivered.push(Buffer.from(data).toString()),
    respawned: () => void events.push("respawned"),
    gone: () => void events.push("gone"),
    close: () => void events.push("closed"),
  };
  return { confirmer: new Confirmer(target, undefined), delivered, events };
}

/** A client whose reply to the life question is `reply`; `during` runs as tmux sends it (more output arriving). */
function client(reply: string[] | Error, during?: () => void): { closed: boolean; command: (argv: readonly string[], options?: CommandOptions) => Promise<string[]> } {
  return {
    closed: false,
    command: async (_argv, options) => {
      options?.atReply?.();
      during?.();
      if (reply instanceof Error) throw reply;
      return reply;
    },
  };
}

describe("the life question", () => {
  it("tmux answering for another pane means this one is gone", () => {
    expect(parseLife("%4", line("%4", "77", "1"))).toEqual({ panePid: 77, dead: true });
    expect(parseLife("%99", [""])).toBeUndefined();
    expect(parseLife("%99", line("%0", "12", "0"))).toBeUndefined();
  });
});

describe("askWatchingClient", () => {
  it("hands on the output that came before the reply, not what the same chunk brought after it", async () => {
    const { confirmer, delivered } = confirmerFor(77);
    confirmer.hold(Buffer.from("before "));
    await askWatchingClient(client(line("%4", "77", "0"), () => confirmer.hold(Buffer.from("after"))), "%4", confirmer, 77, () => undefined);
    expect(delivered).toEqual(["before "]);
    expect(confirmer.held).toBe("after".length);
  });

  it("another process in the pane is a respawn, and the held output never reaches the observer", async () => {
    const { confirmer, delivered, events } = confirmerFor(77);
    confirmer.hold(Buffer.from("new program"));
    await askWatchingClient(client(line("%4", "78", "0")), "%4", confirmer, 77, () => undefined);
    expect(events).toEqual(["respawned"]);
    expect(delivered).toEqual([]);
  });

  it("a dead pane closes once its last output is handed on", async () => {
    const { confirmer, delivered, events } = confirmerFor(77);
    confirmer.hold(Buffer.from("last words"));
    await askWatchingClient(client(line("%4", "77", "1")), "%4", confirmer, 77, () => undefined);
    expect(delivered).toEqual(["last words"]);
    expect(events).toEqual(["closed"]);
  });

  it("a slow reply proves nothing; any other failure looks for the pane", async () => {
    const { confirmer, delivered } = confirmerFor(77);
    confirmer.hold(Buffer.from("x"));
    const lost: string[] = [];
    await askWatchingClient(client(new PanescopeError("timeout", "slow")), "%4", confirmer, 77, () => lost.push("timeout"));
    await askWatchingClient(client(new PanescopeError("command-failed", "no client")), "%4", confirmer, 77, () => lost.push("failed"));
    expect(lost).toEqual(["failed"]);
    expect(delivered).toEqual([]);
  });

  it("a client that ended sends nothing more: what came through it is confirmed without a question", async () => {
    const { confirmer, delivered } = confirmerFor(77);
    confirmer.hold(Buffer.from("all of it"));
    const ended = { closed: true, command: async (): Promise<string[]> => Promise.reject(new Error("asked a closed client")) };
    await askWatchingClient(ended, "%4", confirmer, 77, () => undefined);
    expect(delivered).toEqual(["all of it"]);
  });
});
