// Pane ids as tmux reads them: `%` and a decimal number, leading zeros ignored (tmux 3.2a–3.7c
// `window_pane_find_by_id_str` uses strtonum, so `%00` and `%000000000` are `%0`). Two spellings
// of one pane must never compare unequal: every id is made canonical (`%N`) where it enters.

/** `%007` → `%7`; an argument that is not `%` and digits is returned unchanged (checked elsewhere). */
export function canonicalPaneId(id: string): string {
  if (!/^%\d+$/.test(id)) return id;
  return `%${id.slice(1).replace(/^0+(?=\d)/, "")}`;
}

/** Whether two pane ids name the same pane on one server, however each is spelled. */
export function samePane(a: string, b: string): boolean {
  return canonicalPaneId(a) === canonicalPaneId(b);
}
