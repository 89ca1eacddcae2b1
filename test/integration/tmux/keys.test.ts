// Every key name panescope accepts reaches a real pane as that key on this tmux (run it on each:
// `../shared/tmux/each npx vitest run test/integration/tmux/keys.test.ts`): a pane running `cat` on
// a raw terminal records the bytes each name produces, separated by a marker tmux sends with -H.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isKeyName, NAMED_KEYS } from "../../../src/tmux/keys.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const MODIFIER_SETS = ["", "C-", "M-", "S-", "C-M-", "C-S-", "M-S-", "C-M-S-"];
const MARK = Buffer.from([0, 0, 0, 0xff]); // no single key sends three NULs in a row
const END = Buffer.from([1, 2, 3, 4, 5]);

function candidates(): string[] {
  const ascii = Array.from({ length: 0x7e - 0x20 }, (_, i) => String.fromCharCode(0x21 + i));
  const hex = Array.from({ length: 0x7f }, (_, i) => `0x${(i + 1).toString(16)}`);
  const bases = [...NAMED_KEYS, "enter", "pgdn", "kpenter", ...ascii, "é", "中", "😀", ...hex];
  return MODIFIER_SETS.flatMap((mods) => bases.map((base) => mods + base)).filter(isKeyName);
}

let test: TestServer;
let dir: string;
let file: string;
let pane: string;
let read = 0;

/** Sends each name as its own send-keys (plus a marker after it); returns the bytes per name. */
async function bytesOf(names: readonly string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (let i = 0; i < names.length; i += 50) {
    const batch = names.slice(i, i + 50);
    const commands = batch.flatMap((name) => [
      ["send-keys", "-t", pane, name],
      ["send-keys", "-t", pane, "-H", ...[...MARK].map((b) => b.toString(16).padStart(2, "0"))],
    ]);
    await test.server.runMany([...commands, ["send-keys", "-t", pane, "-H", ...[...END].map((b) => b.toString(16).padStart(2, "0"))]]);
    let data = Buffer.alloc(0);
    await waitFor(() => {
      data = readFileSync(file).subarray(read);
      return data.subarray(-END.length).equals(END);
    }, 10_000, "the keys to reach the pane");
    read += data.length;
    const body = data.subarray(0, data.length - END.length);
    let from = 0;
    for (const name of batch) {
      const at = body.indexOf(MARK, from);
      expect(at, `marker after ${name}`).toBeGreaterThanOrEqual(0);
      out.set(name, body.subarray(from, at));
      from = at + MARK.length;
    }
    expect(from, "bytes left after the last marker").toBe(body.length);
  }
  return out;
}

function modifiersOf(name: string): { mods: string[]; base: string } {
  const m = /^((?:[CMScms]-)*)(.+)$/su.exec(name);
  return { mods: m?.[1]?.match(/[CMScms]-/g) ?? [], base: m?.[2] ?? name };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "panescope-keys-"));
  file = join(dir, "bytes");
  // Raw, no echo, no IEXTEN: the line discipline passes every byte (^C, ^V, ^S…) to cat untouched.
  test = await startServer({ command: `stty raw -echo -iexten && exec cat >> ${file}` });
  [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
  await waitFor(async () => (await test.run(["display-message", "-p", "-t", pane, "#{pane_current_command}"]))[0] === "cat", 10_000, "cat to start");
});

afterAll(async () => {
  await killAllServers();
  rmSync(dir, { recursive: true, force: true });
});

describe("accepted key names on this tmux", () => {
  it("every accepted name arrives as key bytes: not its own text, nothing dropped, each modifier heard", async () => {
    const names = candidates();
    expect(names.length).toBeGreaterThan(600);
    const bytes = await bytesOf(names);
    const wrong: string[] = [];
    for (const name of names) {
      const got = bytes.get(name) ?? Buffer.alloc(0);
      const { mods, base } = modifiersOf(name);
      const text = Buffer.from(name, "utf8");
      if (got.length === 0) wrong.push(`${name}: nothing arrived`);
      else if (mods.length === 0 && [...base].length === 1) {
        if (!got.equals(text)) wrong.push(`${name}: ${got.toString("hex")} is not the character itself`);
      } else if (got.equals(text)) wrong.push(`${name}: typed as text`);
      for (const mod of mods) {
        const without = mods.filter((m) => m !== mod).join("") + base;
        const plain = bytes.get(without);
        if (plain !== undefined && plain.equals(got)) wrong.push(`${name}: ${mod} dropped (same bytes as ${without})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("sends the bytes a terminal would for a sample of keys", async () => {
    const expected: Record<string, string> = {
      Enter: "0d", Tab: "09", Escape: "1b", BSpace: "7f", Space: "20", BTab: "1b5b5a",
      Up: "1b5b41", "S-Up": "1b5b313b3241", "C-S-Up": "1b5b313b3641", "M-Up": "1b5b313b3341",
      F5: "1b5b31357e", "S-F1": "1b5b313b3250",
      "C-c": "03", "C-A": "01", "C-?": "7f", "C-2": "00", "C--": "1f", "C-Space": "00", "C-[": "1b",
      "M-x": "1b78", "C-M-a": "1b01", "M-Enter": "1b0d", "M-!": "1b21", KP5: "35",
      "0x1b": "1b", "0x7f": "7f", é: "c3a9",
    };
    const bytes = await bytesOf(Object.keys(expected));
    expect(Object.fromEntries([...bytes].map(([name, b]) => [name, b.toString("hex")]))).toEqual(expected);
  });

  it("the names issue 11 found typed as text or stripped of a modifier are refused, and tmux shows why", async () => {
    // Sent raw (bypassing the validator): on this tmux each is text or loses its modifier.
    const refused = { "S-a": "a", "C-é": "é", "M-0x10ffff": undefined, "C-0x41": undefined, "S-Tab": "Tab", "C-Enter": "Enter" } as const;
    const names = Object.keys(refused);
    for (const name of names) expect(isKeyName(name), name).toBe(false);
    const bytes = await bytesOf([...names, ...Object.values(refused).filter((v): v is NonNullable<typeof v> => v !== undefined)]);
    for (const [name, plain] of Object.entries(refused)) {
      const got = bytes.get(name) ?? Buffer.alloc(0);
      const faithful = got.length > 0 && !got.equals(Buffer.from(name)) && (plain === undefined || !got.equals(bytes.get(plain) ?? Buffer.alloc(0)));
      expect(faithful, `${name} → ${got.toString("hex")}`).toBe(false);
    }
  });
});
