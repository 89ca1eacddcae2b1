import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultKeyDir, KEY_FILE, loadCursorKey } from "../../../src/observe/cursor/key.js";

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(join(tmpdir(), "panescope-key-"));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const CWD = fileURLToPath(new URL("../../..", import.meta.url));
const MODULE = fileURLToPath(new URL("../../../src/observe/cursor/key.ts", import.meta.url));

/** loadCursorKey in a child process (tsx), printing "<key hex> <persistent>"; killed after 20 s. */
function loadInChild(dir: string): { status: number | null; stdout: string; stderr: string } {
  const script = `import { loadCursorKey } from ${JSON.stringify(MODULE)};
    const loaded = loadCursorKey({ dir: ${JSON.stringify(dir)} });
    console.log(Buffer.from(loaded.key).toString("hex"), loaded.persistent);`;
  const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: CWD, encoding: "utf8", timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const quiet = () => {
  const warnings: string[] = [];
  return { warnings, warn: (message: string) => void warnings.push(message) };
};

describe("loadCursorKey", () => {
  it("creates a 32-byte key file with mode 0600 in a directory with mode 0700", () => {
    const dir = join(root, "state", "panescope");
    const { warnings, warn } = quiet();
    const loaded = loadCursorKey({ dir, warn });
    expect(loaded.persistent).toBe(true);
    expect(loaded.path).toBe(join(dir, KEY_FILE));
    expect(loaded.key.length).toBe(32);
    const stat = fs.statSync(join(dir, KEY_FILE));
    expect(stat.mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(hex(fs.readFileSync(join(dir, KEY_FILE)))).toBe(hex(loaded.key));
    expect(fs.readdirSync(dir)).toEqual([KEY_FILE]); // no temp file left behind
    expect(warnings).toEqual([]);
  });

  it("reuses the stored key on the next load, as a restarted panescope would", () => {
    const first = loadCursorKey({ dir: root, warn: quiet().warn });
    const second = loadCursorKey({ dir: root, warn: quiet().warn });
    expect(hex(second.key)).toBe(hex(first.key));
    expect(second.persistent).toBe(true);
  });

  it("replaces a key file others could read or change (mode 0644), saying so", () => {
    const first = loadCursorKey({ dir: root, warn: quiet().warn });
    fs.chmodSync(join(root, KEY_FILE), 0o644);
    const { warnings, warn } = quiet();
    const second = loadCursorKey({ dir: root, warn });
    expect(hex(second.key)).not.toBe(hex(first.key));
    expect(fs.statSync(join(root, KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(hex(fs.readFileSync(join(root, KEY_FILE)))).toBe(hex(second.key));
    expect(warnings).toEqual([expect.stringMatching(/has mode 0644 .*replacing it with a new key/)]);
  });

  it("replaces a hard-linked key file and leaves the other name alone", () => {
    const elsewhere = join(root, "elsewhere");
    fs.writeFileSync(elsewhere, Buffer.alloc(32, 7), { mode: 0o600 });
    const dir = join(root, "state");
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.linkSync(elsewhere, join(dir, KEY_FILE));
    const { warnings, warn } = quiet();
    const loaded = loadCursorKey({ dir, warn });
    expect(hex(loaded.key)).not.toBe(hex(Buffer.alloc(32, 7)));
    expect(fs.statSync(join(dir, KEY_FILE)).nlink).toBe(1);
    expect(fs.readFileSync(elsewhere)).toEqual(Buffer.alloc(32, 7));
    expect(warnings).toEqual([expect.stringContaining("has 2 hard links")]);
  });

  it("replaces a key file that belongs to another user", () => {
    const first = loadCursorKey({ dir: root, warn: quiet().warn });
    const me = fs.statSync(join(root, KEY_FILE)).uid;
    const { warnings, warn } = quiet();
    // The uid seam: a file owned by uid me is someone else's to a process running as me + 1.
    const second = loadCursorKey({ dir: root, warn, uid: me + 1, random: (size) => new Uint8Array(size).fill(9) });
    expect(hex(second.key)).not.toBe(hex(first.key));
    expect(warnings[0]).toContain(`belongs to uid ${me}, not to us (uid ${me + 1})`);
  });

  it("does not block on a FIFO at the key path: it is replaced by a key file", () => {
    // In a child process, so that a blocking open fails this test by timeout instead of hanging the run.
    const dir = join(root, "fifo");
    fs.mkdirSync(dir, { mode: 0o700 });
    execFileSync("mkfifo", [join(dir, KEY_FILE)]);
    const result = loadInChild(dir);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(`${fs.readFileSync(join(dir, KEY_FILE)).toString("hex")} true`);
    expect(result.stderr).toContain("is not a regular file: replacing it");
    expect(fs.lstatSync(join(dir, KEY_FILE)).isFile()).toBe(true);
  });

  it("tightens a state directory others can write to (0777 → 0700), saying so", () => {
    const dir = join(root, "loose");
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
    const { warnings, warn } = quiet();
    const loaded = loadCursorKey({ dir, warn });
    expect(loaded.persistent).toBe(true);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(warnings).toEqual([expect.stringContaining("was writable by others (mode 0777): its mode is now 0700")]);
  });

  it("does not use a state directory that belongs to another user: per-process key, with a warning", () => {
    const me = fs.statSync(root).uid;
    const { warnings, warn } = quiet();
    const loaded = loadCursorKey({ dir: root, warn, uid: me + 1 });
    expect(loaded.persistent).toBe(false);
    expect(fs.existsSync(join(root, KEY_FILE))).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/cannot store the cursor key .*belongs to uid \d+, not to us/)]);
  });

  it("keeps a key whose second link is another panescope's temp file, mid-publication", () => {
    const first = loadCursorKey({ dir: root, warn: quiet().warn });
    fs.linkSync(join(root, KEY_FILE), join(root, `.${KEY_FILE}.99999.abcdef.tmp`));
    const { warnings, warn } = quiet();
    expect(hex(loadCursorKey({ dir: root, warn }).key)).toBe(hex(first.key));
    expect(warnings).toEqual([]);
  });

  it("replaces a key file of the wrong size, which it can never have written", () => {
    fs.writeFileSync(join(root, KEY_FILE), "short", { mode: 0o600 });
    const { warnings, warn } = quiet();
    const loaded = loadCursorKey({ dir: root, warn });
    expect(loaded.persistent).toBe(true);
    expect(hex(fs.readFileSync(join(root, KEY_FILE)))).toBe(hex(loaded.key));
    expect(warnings).toEqual([expect.stringContaining("is 5 bytes, not a 32-byte key: replacing it")]);
  });

  it("never follows a symbolic link in place of the key file", () => {
    const target = join(root, "elsewhere");
    fs.writeFileSync(target, Buffer.alloc(32, 7));
    fs.symlinkSync(target, join(root, KEY_FILE));
    const { warnings, warn } = quiet();
    const loaded = loadCursorKey({ dir: root, warn });
    expect(warnings).toEqual([expect.stringContaining("is a symbolic link: replacing it")]);
    expect(hex(loaded.key)).not.toBe(hex(Buffer.alloc(32, 7)));
    expect(fs.lstatSync(join(root, KEY_FILE)).isFile()).toBe(true);
    expect(fs.readFileSync(target)).toEqual(Buffer.alloc(32, 7));
  });

  it("falls back to a per-process key and warns when the directory cannot be written", () => {
    // Tests may run as root, where chmod does not stop writes: a path under a regular file does.
    const blocker = join(root, "a-file");
    fs.writeFileSync(blocker, "");
    const { warnings, warn } = quiet();
    const loaded = loadCursorKey({ dir: join(blocker, "panescope"), warn });
    expect(loaded.persistent).toBe(false);
    expect(loaded.path).toBeUndefined();
    expect(loaded.key.length).toBe(32);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^panescope: cannot store the cursor key in .*a-file\/panescope.*: cursors will not survive a restart$/);
  });

  it("reads the winner's key when another process creates the file first", () => {
    const winner = Buffer.alloc(32, 0xab);
    const loaded = loadCursorKey({
      dir: root,
      warn: quiet().warn,
      random: (size) => {
        // Another process publishes its key while we are generating ours.
        if (!fs.existsSync(join(root, KEY_FILE))) fs.writeFileSync(join(root, KEY_FILE), winner, { mode: 0o600 });
        return new Uint8Array(size).fill(0xcd);
      },
    });
    expect(hex(loaded.key)).toBe(hex(winner));
    expect(fs.readdirSync(root)).toEqual([KEY_FILE]);
  });

  it("agrees on one key when several processes create it at once", async () => {
    const dir = join(root, "race");
    const module = fileURLToPath(new URL("../../../src/observe/cursor/key.ts", import.meta.url));
    const script = join(root, "load.mts");
    // Each child says "ready", then loads the key the moment a byte arrives on stdin: all at once.
    fs.writeFileSync(
      script,
      `import { loadCursorKey } from ${JSON.stringify(module)};
       process.stdin.once("data", () => {
         const loaded = loadCursorKey({ dir: ${JSON.stringify(dir)}, warn: (m) => console.error(m) });
         console.log(Buffer.from(loaded.key).toString("hex"), loaded.persistent);
         process.exit(0);
       });
       console.log("ready");`,
    );
    const cwd = fileURLToPath(new URL("../../..", import.meta.url));
    const children = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", script], { cwd });
      let stdout = "";
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
      const ready = new Promise<void>((resolve) =>
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes("ready")) resolve();
        }),
      );
      const done = new Promise<{ stdout: string; stderr: string }>((resolve) =>
        child.on("close", () => resolve({ stdout: stdout.replace("ready", "").trim(), stderr })),
      );
      return { child, ready, done };
    });
    await Promise.all(children.map((c) => c.ready));
    for (const { child } of children) child.stdin.write("go\n");
    const results = await Promise.all(children.map((c) => c.done));
    const outputs = results.map((result) => result.stdout);
    expect(new Set(outputs).size).toBe(1);
    expect(outputs[0]).toBe(`${fs.readFileSync(join(dir, KEY_FILE)).toString("hex")} true`);
    expect(results.map((result) => result.stderr)).toEqual(Array(4).fill(""));
    expect(fs.readdirSync(dir)).toEqual([KEY_FILE]);
  });
});

describe("defaultKeyDir", () => {
  it("uses $XDG_STATE_HOME/panescope, else ~/.local/state/panescope", () => {
    expect(defaultKeyDir({ XDG_STATE_HOME: "/x/state", HOME: "/home/u" })).toBe("/x/state/panescope");
    expect(defaultKeyDir({ HOME: "/home/u" })).toBe("/home/u/.local/state/panescope");
    expect(defaultKeyDir({ XDG_STATE_HOME: "relative", HOME: "/home/u" })).toBe("/home/u/.local/state/panescope");
  });
});
