// What tmux's own parser prints of a pane's bytes, reimplemented from its state tables (input.c,
// identical 3.2a–3.7c) as an oracle for the raw stripper: the text that reaches tmux's screen, kept
// controls (`\n`, `\r`, `\t`) included, in the form `raw` promises (UTF-8 decoded as TextDecoder
// does, a character cut by a control or an escape is U+FFFD, C1 controls dropped, `\r` folded).

type State =
  | "ground"
  | "esc"
  | "esc-intermediate"
  | "csi"
  | "dcs-enter"
  | "dcs-parameter"
  | "dcs-intermediate"
  | "dcs-handler"
  | "dcs-escape"
  | "dcs-ignore"
  | "osc" // osc_string: ends at ST or BEL
  | "string"; // apc_string, rename_string, consume_st: end at ST

const KEPT = new Set([0x09, 0x0a, 0x0d]);

/** The escape-stripped text tmux draws from `bytes`, as `raw` gives it. */
export function tmuxPrinted(bytes: Uint8Array): string {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let state: State = "ground";
  let text = "";
  let run: number[] = [];
  const flush = () => {
    text += decoder.decode(Uint8Array.from(run));
    run = [];
  };
  const execute = (b: number) => {
    flush();
    if (KEPT.has(b)) text += String.fromCharCode(b);
  };
  for (const b of bytes) {
    // INPUT_STATE_ANYWHERE: every state but the DCS handler and its escape.
    if (state !== "dcs-handler" && state !== "dcs-escape") {
      if (b === 0x18 || b === 0x1a) {
        flush();
        state = "ground";
        continue;
      }
      if (b === 0x1b) {
        flush();
        state = "esc";
        continue;
      }
    }
    const c0 = b < 0x20;
    switch (state) {
      case "ground":
        if (c0) execute(b);
        else if (b === 0x7f) flush(); // ignored, but it cuts a character as any non-text does
        else run.push(b);
        break;
      case "esc":
        if (c0) execute(b);
        else if (b >= 0x7f) break;
        else if (b <= 0x2f) state = "esc-intermediate";
        else if (b === 0x50) state = "dcs-enter";
        else if (b === 0x5b) state = "csi";
        else if (b === 0x5d) state = "osc";
        else if (b === 0x58 || b === 0x5e || b === 0x5f || b === 0x6b) state = "string";
        else state = "ground";
        break;
      case "esc-intermediate":
      case "csi": // csi_enter, csi_parameter, csi_intermediate and csi_ignore end alike
        if (c0) execute(b);
        else if (b >= 0x7f) break;
        else if (state === "esc-intermediate" ? b >= 0x30 : b >= 0x40) state = "ground";
        break;
      case "dcs-enter":
      case "dcs-parameter":
      case "dcs-intermediate":
        if (c0 || b >= 0x7f) break;
        if (b >= 0x40) state = "dcs-handler";
        else if (b <= 0x2f) state = "dcs-intermediate";
        else if (b === 0x3a) state = "dcs-ignore";
        else if (state === "dcs-intermediate") state = "dcs-ignore";
        else if (b >= 0x3c && state === "dcs-parameter") state = "dcs-ignore";
        else state = "dcs-parameter";
        break;
      case "dcs-handler":
        if (b === 0x1b) state = "dcs-escape";
        break;
      case "dcs-escape":
        state = b === 0x5c ? "ground" : "dcs-handler";
        break;
      case "dcs-ignore":
        break;
      case "osc":
        if (b === 0x07) state = "ground";
        break;
      case "string":
        break;
    }
  }
  flush();
  return text
    .replace(/[\u0080-\u009f]/g, "")
    .replace(/\r+/g, "\r")
    .replace(/\r\n/g, "\n")
    .replace(/\r$/, "");
}
