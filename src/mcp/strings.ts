// What panescope refuses in strings it hands to tmux: NUL (an argv element cannot carry one, so
// tmux would never see it) and lone UTF-16 surrogates (not characters: they would arrive as U+FFFD).
import { PanescopeError } from "../errors.js";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Throws bad-input naming the field, the position and what to do instead. */
export function requireSendable(field: string, value: string, nulAdvice = "remove it"): void {
  const nul = value.indexOf("\0");
  if (nul !== -1) throw new PanescopeError("bad-input", `${field} contains a NUL character (U+0000) at index ${nul}, which tmux cannot receive in an argument: ${nulAdvice}`);
  const lone = LONE_SURROGATE.exec(value);
  if (lone !== null) {
    const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
    throw new PanescopeError("bad-input", `${field} contains a lone UTF-16 surrogate (U+${code}) at index ${lone.index}, which is not a character: send well-formed Unicode text`);
  }
}
