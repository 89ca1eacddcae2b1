// A word as sh reads it back: bare when it is safe, else single-quoted. For commands panescope
// prints for a person to paste (a tmux command that starts a server, a pane's command line).

export function shWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}
