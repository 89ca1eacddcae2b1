// A tool's words in the shell. Answers name the MCP tools (what an agent over MCP calls next); a
// shell user runs the commands that make the same calls, so an error printed here names those
// ("no pane %9 …: panescope list shows the panes there are").

const COMMANDS: Readonly<Record<string, string>> = {
  capture_since: "panescope read",
  wait_for: "panescope wait",
  send_keys: "panescope send",
  list_panes: "panescope list",
  open_pane: "panescope open",
  close_pane: "panescope close",
  capture_pane: "panescope shot",
};

const TOOL_NAMES = new RegExp(`\\b(${Object.keys(COMMANDS).join("|")})\\b`, "g");

/** `text` with each tool named as the shell command that makes its call. */
export function inShellWords(text: string): string {
  return text.replace(TOOL_NAMES, (name) => COMMANDS[name] ?? name);
}
