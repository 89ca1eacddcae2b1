// Seed, before the first: the width policy of the tmux in use, learned once per server life and shared by its screens:
// the version picks the combining rules; the server measures the code points builds disagree on
// (block sums first, then each code point of a block that differs from glibc's table).
import { messageOf } from "../../errors.js";
import { probeBlocks } from "../../observe/widths/table.js";
import { widthPolicy, type WidthFacts, type WidthPolicy } from "../../observe/widths/policy.js";
import { measureWidths, serverWidths, type RunTmux } from "../../tmux/widths.js";

export class WidthLearner {
  private readonly policies = new Map<string, Promise<WidthPolicy>>();
  private warned = false;

  constructor(private readonly warn: (message: string) => void) {}

  /**
   * The policy of the server `run` talks to: one command to tell which server life it is, then the
   * cached policy, or (the first time) a probe of tens of ms of the server's time (docs/widths.md).
   * Undefined if even the version cannot be read; a failed probe falls back to the version's rules.
   */
  async policy(run: RunTmux): Promise<WidthPolicy | undefined> {
    let server;
    try {
      server = await serverWidths(run);
    } catch (error) {
      this.warnOnce(`panescope: cannot read tmux's version (${messageOf(error)}); character widths follow xterm's Unicode 11`);
      return undefined;
    }
    const facts: WidthFacts = {
      version: server.version,
      codepointWidths: server.codepointWidths,
      vsAlwaysWide: server.vsAlwaysWide,
    };
    const key = `${server.generation} ${server.version} ${server.vsAlwaysWide} ${server.codepointWidths.join(",")}`;
    let policy = this.policies.get(key);
    if (!policy) {
      this.policies.clear(); // another server life or other options: the old policies are of no more use
      policy = learn(run, facts).catch((error: unknown) => {
        this.warnOnce(`panescope: could not measure tmux ${server.version}'s character widths (${messageOf(error)}); using its version's defaults`);
        this.policies.delete(key);
        return widthPolicy(facts);
      });
      this.policies.set(key, policy);
    }
    return policy;
  }

  private warnOnce(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(message);
  }
}

/** Measures every probe block; the code points of the blocks whose sum differs, one by one. */
export async function learn(run: RunTmux, facts: WidthFacts): Promise<WidthPolicy> {
  const draft = widthPolicy(facts);
  const blocks = probeBlocks();
  const sums = await measureWidths(run, blocks.map((block) => String.fromCodePoint(...block)));
  const differing = blocks.filter((block, i) => sums[i] !== block.reduce((sum, cp) => sum + draft.widthOf(cp), 0)).flat();
  const widths = await measureWidths(run, differing.map((cp) => String.fromCodePoint(cp)));
  const checked = blocks.reduce((sum, block) => sum + block.length, 0);
  return widthPolicy({ ...facts, learned: { codepoints: differing, widths, checked } });
}
