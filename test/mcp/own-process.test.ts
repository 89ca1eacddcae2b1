// What the process is, read from /proc: its lineage and terminals (own-process.ts), pure parts first.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { holds, parseStat, rdevDevice, readSelf, ttyNrDevice } from "../../src/mcp/own-process.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("reading /proc/PID/stat", () => {
  it("finds ppid and tty_nr after a command name holding spaces and parentheses", () => {
    expect(parseStat("42 (node) S 7 42 42 34816 42 4194560 0 0")).toEqual({ ppid: 7, ttyNr: 34816 });
    expect(parseStat("42 (a) b (c) S 7 42 42 0 -1 0")).toEqual({ ppid: 7, ttyNr: 0 });
    expect(parseStat("garbage")).toBeUndefined();
  });
  it("decodes tty_nr (kernel) and rdev (glibc) to the same major:minor", () => {
    // /dev/pts/3 is 136:3; a pts past 255 spills minor bits into the high part in both encodings.
    expect(ttyNrDevice(34816 + 3)).toBe("136:3");
    expect(rdevDevice(34816n + 3n)).toBe("136:3");
    expect(ttyNrDevice((300 & 0xff) | (136 << 8) | ((300 & ~0xff) << 12))).toBe("136:300");
    expect(rdevDevice(BigInt((300 & 0xff) | (136 << 8)) | (BigInt(300 & ~0xff) << 12n))).toBe("136:300");
  });
});

describe("the process's lineage and terminals", () => {
  it("walks the parents from a /proc tree, stopping at pid 1", () => {
    const proc = mkdtempSync(join(tmpdir(), "panescope-proc-"));
    dirs.push(proc);
    const stat = (pid: number, ppid: number, tty: number): void => {
      mkdirSync(join(proc, String(pid)));
      writeFileSync(join(proc, String(pid), "stat"), `${pid} (p ${pid}) S ${ppid} 1 1 ${tty} 1 0`);
    };
    stat(30, 20, 34817);
    stat(20, 10, 34817);
    stat(10, 1, 0);
    const self = readSelf(proc, 30);
    expect(self.lineage).toEqual([30, 20, 10]);
    expect([...self.ttys]).toEqual(["136:1"]);
    expect(holds(self, 20, "")).toBe(true);
    expect(holds(self, 99, "")).toBe(false);
    expect(holds(self, 1, "")).toBe(false);
  });
  it("of this very process includes itself and its parent", () => {
    const self = readSelf();
    expect(self.lineage.slice(0, 2)).toEqual([process.pid, process.ppid]);
  });
  it("a pane terminal matches by device, not by how its path is spelled", () => {
    const nullDevice = rdevDevice(statSync("/dev/null", { bigint: true }).rdev);
    expect(holds({ lineage: [], ttys: new Set([nullDevice]) }, 0, "/dev/../dev/./null")).toBe(true);
    expect(holds({ lineage: [], ttys: new Set(["136:999999"]) }, 0, "/dev/null")).toBe(false);
    expect(holds({ lineage: [], ttys: new Set([nullDevice]) }, 0, "/nonexistent/pts/1")).toBe(false);
  });
});
