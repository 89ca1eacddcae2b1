// Public surface of panescope/golden: the pure tape parser, golden format and diff, the file store,
// the key name validator, and the tmux-driven faces: a pane session, expectGolden and runTape.

export { charWidth, displayWidth, visibleChar, visibleText } from "./cells.js";
export { compareGolden, type CompareLabels, type CompareResult } from "./compare.js";
export { expectGolden, type ExpectGoldenOptions } from "./expect.js";
export { goldenMatchers, type GoldenMatchers, type MatchGoldenOptions } from "./matcher.js";
export { formatGolden, parseGolden, GOLDEN_VERSION, type FormatOptions, type GoldenHeader, type Mask, type ParsedGolden } from "./format.js";
export { isKeyName, validateKeyName, KEY_FORMS, MAX_KEY_NAME_LENGTH, NAMED_KEYS } from "../tmux/keys.js";
export { crossCheck, runTape, tapeError, type RunTapeOptions, type SnapshotResult, type TapeResult } from "./run.js";
export { startPaneSession, PaneSession, type ExitStatus, type TmuxView } from "./session.js";
export { GOLDEN_TERM, type PaneSessionOptions } from "./launch.js";
export { decide, goldenPath, isCI, isUpdate, listStale, readGolden, writeGolden, GOLDEN_EXT, type DecideInput, type Decision } from "./store.js";
export { parseTape, TAPE_DEFAULTS, type RunCommand, type Size, type Step, type Tape, type TextMatch } from "./tape.js";
