// Pure parser for tmux layout strings (`%layout-change`, `#{window_layout}`): the leaf panes with
// their geometry. Grammar (tmux 3.3a layout-custom.c): `CSUM,` cell; cell = `WxH,X,Y` followed by
// `,ID` (a pane) or `{cell,cell…}` (side by side) or `[cell,cell…]` (stacked).

import type { LayoutPane } from "./events.js";

/** The leaf panes of a layout string, left to right / top to bottom; null if it is malformed. */
export function parseLayout(layout: string): LayoutPane[] | null {
  const match = /^[0-9a-f]{4},/.exec(layout);
  if (match === null) return null;
  const state = { s: layout, at: match[0].length };
  const panes: LayoutPane[] = [];
  if (!parseCell(state, panes, 0) || state.at !== layout.length) return null;
  return panes;
}

interface State {
  s: string;
  at: number;
}

/** Up to 10 digits: pane ids reach UINT_MAX (pane-id.ts); sizes are bounded where they are used. */
function parseNumber(state: State): number | null {
  const m = /^\d{1,10}/.exec(state.s.slice(state.at, state.at + 11));
  if (m === null) return null;
  state.at += m[0].length;
  return Number(m[0]);
}

function expect(state: State, ch: string): boolean {
  if (state.s[state.at] !== ch) return false;
  state.at += 1;
  return true;
}

// Depth is bounded so a hostile string cannot overflow the stack (tmux itself nests a few levels).
const MAX_DEPTH = 64;

function parseCell(state: State, panes: LayoutPane[], depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const cols = parseNumber(state);
  if (cols === null || !expect(state, "x")) return false;
  const rows = parseNumber(state);
  if (rows === null || !expect(state, ",")) return false;
  const x = parseNumber(state);
  if (x === null || !expect(state, ",")) return false;
  const y = parseNumber(state);
  if (y === null) return false;
  const next = state.s[state.at];
  if (next === ",") {
    state.at += 1;
    const id = parseNumber(state);
    if (id === null) return false;
    panes.push({ paneId: `%${id}`, cols, rows, x, y });
    return true;
  }
  if (next === "{" || next === "[") {
    const close = next === "{" ? "}" : "]";
    state.at += 1;
    for (;;) {
      if (!parseCell(state, panes, depth + 1)) return false;
      if (expect(state, close)) return true;
      if (!expect(state, ",")) return false;
    }
  }
  return false;
}
