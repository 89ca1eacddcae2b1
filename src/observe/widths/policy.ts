// The width policy of one tmux server: its version's rules and a width per code point (glibc's
// table, the version's adjustments, the server's options, what the server measured), handed to
// every screen of that server as an xterm Unicode provider.
import type { IUnicodeVersionProvider } from "@xterm/headless";
import { applyCodepointWidths, defaultWidths, rulesFor, type WidthRules } from "./table.js";
import { markSpecial, TmuxWidths, WIDTH_MASK, type CellBefore } from "./rules.js";

/** What is known of a tmux server's widths (tmux/widths.ts reads it). */
export interface WidthFacts {
  /** `#{version}` of the server, e.g. "3.3a". */
  version: string;
  /** 3.6+: `variation-selector-always-wide` (default on). */
  vsAlwaysWide?: boolean;
  /** 3.6+: the `codepoint-widths` option's entries. */
  codepointWidths?: readonly string[];
  /** Widths the server measured for these code points; `checked` code points were probed in all. */
  learned?: { codepoints: readonly number[]; widths: readonly number[]; checked?: number };
}

/** The layout rules a screen follows; its table is shared by every screen of the policy. */
export interface WidthPolicy {
  readonly tmuxVersion: string;
  readonly rules: WidthRules;
  /** Code points the server was asked about, and how many of them differed from glibc's table. */
  readonly checked: number;
  readonly learned: number;
  /** The width tmux gives one code point before any combining (its utf8_width). */
  widthOf(cp: number): number;
  /** An xterm Unicode provider for one screen; `cellBefore` lets it see across escape sequences. */
  providerFor(cellBefore?: CellBefore): IUnicodeVersionProvider;
}

export function widthPolicy(facts: WidthFacts): WidthPolicy {
  const rules = rulesFor(facts.version);
  const table = defaultWidths(rules);
  if (facts.codepointWidths && (rules === "3.6" || rules === "3.7")) applyCodepointWidths(table, facts.codepointWidths);
  const learned = facts.learned;
  let count = 0;
  if (learned) {
    for (const [i, cp] of learned.codepoints.entries()) {
      const width = learned.widths[i];
      if (width === undefined || cp >= table.length) continue;
      table[cp] = Math.min(width, 2);
      count++;
    }
  }
  markSpecial(table);
  // Before 3.4 VS16 is an ordinary zero-width character; 3.4 and 3.5 always widen with it.
  const vsWide = rules === "3.6" || rules === "3.7" ? (facts.vsAlwaysWide ?? true) : rules === "3.4";
  return {
    tmuxVersion: facts.version,
    rules,
    checked: learned?.checked ?? count,
    learned: count,
    widthOf: (cp) => (table[cp] ?? 1) & WIDTH_MASK,
    providerFor: (cellBefore) => new TmuxWidths(rules, table, vsWide, cellBefore),
  };
}

