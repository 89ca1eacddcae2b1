// execa, loaded when panescope first starts a tmux process rather than when a module imports it:
// its ~140 modules were a third of what the MCP server loaded before it could answer initialize,
// and `panescope --help` never runs tmux at all. Await loadExeca() on an async path, then use it.
import { PanescopeError } from "../errors.js";

type Execa = typeof import("execa").execa;

let loaded: Execa | undefined;
let loading: Promise<Execa> | undefined;

/** Loads execa once; resolves with it. */
export function loadExeca(): Promise<Execa> {
  loading ??= import("execa").then((module) => (loaded = module.execa));
  return loading;
}

/** execa, for a synchronous caller that awaited loadExeca() before (ControlClient.start does). */
export function loadedExeca(): Execa {
  if (loaded === undefined) throw new PanescopeError("internal", "execa is not loaded yet: await loadExeca() (ControlClient.start does) before spawning");
  return loaded;
}
