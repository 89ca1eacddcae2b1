// What send_keys types, as tmux send-keys commands for one tmux process: an ordered sequence of
// literal text and key names (`input`), or the shorthand text, then keys, then Enter. Pure.
//
// The newline rule of the shorthand (docs/tools.md): with enter, each newline in text is an Enter
// and one more Enter follows, so `for i in range(3):\n    print(i*i)\n` + enter ends with the
// empty line that runs a Python block; without enter, text is literal (a newline is LF, Ctrl-J).
// In `input`, text is always literal: press "Enter" where an Enter is meant.
import { PanescopeError } from "../errors.js";
import { validateKeyName } from "../tmux/keys.js";
import { requireSendable } from "./strings.js";

/** One step of an ordered input: a key name, or literal text. */
export type Step = string | { text: string };

export interface Typing {
  /** tmux commands, in order, without the target (`send-keys -l -- text`, `send-keys -- k…`). */
  commands: string[][];
  /** Characters of text typed, and the key names pressed, in order (for the answer). */
  typedChars: number;
  keys: string[];
  /** In words: "9 characters of text, then keys Escape". */
  summary: string;
}

/** With enter: line breaks become carriage returns (what the Enter key sends). */
export function literalFor(text: string, enter: boolean): string {
  return enter ? text.replace(/\r?\n/g, "\r") : text;
}

/** The shorthand fields as the ordered steps they mean: text, then keys, then Enter. */
export function shorthandSteps(text: string | undefined, keys: readonly string[], enter: boolean): Step[] {
  const literal = text === undefined ? "" : literalFor(text, enter);
  return [...(literal === "" ? [] : [{ text: literal }]), ...keys, ...(enter ? ["Enter"] : [])];
}

/** Steps → `send-keys` arguments (after the target): each text one `-l`, each run of keys one command. */
export function typingOf(steps: readonly Step[], field: string): Typing {
  if (steps.length === 0) throw new PanescopeError("bad-input", "nothing to send: give text, keys, enter: true, or input");
  const commands: string[][] = [];
  const keys: string[] = [];
  const words: string[] = [];
  let typedChars = 0;
  let inKeys = false;
  steps.forEach((step, i) => {
    if (typeof step === "string") {
      const key = validateKeyName(step);
      keys.push(key);
      const last = commands.at(-1);
      if (inKeys && last) {
        last.push(key);
        words[words.length - 1] += ` ${key}`;
      } else {
        commands.push(["--", key]);
        words.push(`keys ${key}`);
      }
      inKeys = true;
      return;
    }
    requireSendable(`${field}[${i}].text`, step.text, 'press it as the key "C-Space" instead');
    inKeys = false;
    if (step.text === "") return;
    const chars = [...step.text].length;
    typedChars += chars;
    commands.push(["-l", "--", step.text]);
    words.push(`${chars} character${chars === 1 ? "" : "s"} of text`);
  });
  if (commands.length === 0) throw new PanescopeError("bad-input", "nothing to send: every text is empty");
  return { commands, typedChars, keys, summary: words.join(", then ") };
}
