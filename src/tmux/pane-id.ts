// Pane ids as tmux reads them: `%` and a decimal number, leading zeros ignored (tmux 3.2a–3.7c
// `window_pane_find_by_id_str` uses strtonum, so `%00` and `%000000000` are `%0`). Two spellings
// of one pane must never compare unequal: every id is made canonical (`%N`) where it enters.

/**
 * The largest pane number tmux can give or read: ids come from a u_int counter and `%N` is read
 * with strtonum(…, 0, UINT_MAX) (window.c, 3.2a–3.7c). A larger N is no pane on any server.
 */
export const MAX_PANE_NUMBER = 0xffff_ffff;

/** `%007` → `%7`; an argument that is not `%` and digits is returned unchanged (checked elsewhere). */
export function canonicalPaneId(id: string): string {
  if (!/^%\d+$/.test(id)) return id;
  return `%${id.slice(1).replace(/^0+(?=\d)/, "")}`;
}

/** Whether two pane ids name the same pane on one server, however each is spelled. */
export function samePane(a: string, b: string): boolean {
  return canonicalPaneId(a) === canonicalPaneId(b);
}

/** Whether `%` and digits name a number tmux can give a pane; anything else is left to the checks that reject it. */
export function paneNumberInRange(id: string): boolean {
  return !/^%\d+$/.test(id) || Number(id.slice(1)) <= MAX_PANE_NUMBER;
}

/** What is wrong with an id out of range; each face adds where its panes are listed. */
export function outOfRange(id: string): string {
  return `pane id ${canonicalPaneId(id)} is out of range: tmux numbers panes from %0 to %${MAX_PANE_NUMBER}`;
}
