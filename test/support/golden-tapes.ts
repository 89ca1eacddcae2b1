// Helpers for the golden integration tests: throw-away tape folders and a captured CLI io.
import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GoldenIo } from "../../src/golden/main.js";
import { socketFile } from "./tmux-fixture.js";

/** A fresh folder holding the given files (paths relative to it). */
export async function tapeDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "panescope-golden-test-"));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

export interface CapturedIo extends GoldenIo {
  lines: string[];
  errors: string[];
  text(): string;
}

export function captureIo(env: NodeJS.ProcessEnv = {}): CapturedIo {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, env, out: (line) => lines.push(line), err: (line) => errors.push(line), text: () => lines.join("\n") };
}

/** Socket files of golden sessions a process (default: this one) started that are still on disk. */
export function leftoverSockets(pid = process.pid): string[] {
  const dir = join(socketFile("x"), "..");
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => name.startsWith(`panescope-golden-${pid}-`));
}
