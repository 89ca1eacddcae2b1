// `panescope report FILE.jsonl [-o FILE.html]`: reads a transcript written by
// `panescope mcp --transcript`, writes its HTML page, and says where. 0 written, 2 cannot read/write.

import { readFile, writeFile } from "node:fs/promises";
import type { ReportOptions } from "../../options.js";
import { unwritable } from "../../output-file.js";
import { parseTranscript, renderTranscript } from "./render.js";

export interface ReportIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const defaultIo: ReportIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

export async function main(options: ReportOptions, io: ReportIo = defaultIo): Promise<number> {
  let text: string;
  try {
    text = await readFile(options.transcript, "utf8");
  } catch (error) {
    io.err(`panescope report: cannot read ${options.transcript}: ${(error as Error).message} (write one with panescope mcp --transcript FILE)`);
    return 2;
  }
  const parsed = parseTranscript(text);
  // Lines and not one of them an entry: another file was named (an empty transcript is a page of no calls).
  if (parsed.entries.length === 0 && parsed.skipped.length > 0) {
    io.err(`panescope report: ${options.transcript} is not a transcript: none of its ${parsed.skipped.length} line(s) is a call panescope mcp --transcript wrote; nothing written`);
    return 2;
  }
  try {
    await writeFile(options.output, renderTranscript(parsed, options.transcript));
  } catch (error) {
    io.err(`panescope report: cannot write ${options.output}: ${unwritable(options.output, error, "report.html")}`);
    return 2;
  }
  const skipped = parsed.skipped.length === 0 ? "" : `; ${parsed.skipped.length} line(s) were not transcript entries and are left out`;
  io.out(`wrote ${options.output}: ${parsed.entries.length} call${parsed.entries.length === 1 ? "" : "s"}${skipped}`);
  return 0;
}
