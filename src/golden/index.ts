// Public surface of panescope/golden: the pure tape parser, golden format and diff, the file store
// and the key name validator. The tmux-driven runner is added beside them.

export { charWidth, displayWidth, visibleChar, visibleText } from "./cells.js";
export { compareGolden, type CompareLabels, type CompareResult } from "./compare.js";
export { formatGolden, parseGolden, GOLDEN_VERSION, type FormatOptions, type GoldenHeader, type Mask, type ParsedGolden } from "./format.js";
export { isKeyName, validateKeyName, KEY_FORMS, MAX_KEY_NAME_LENGTH, NAMED_KEYS } from "./keys.js";
export { decide, goldenPath, isCI, isUpdate, listStale, readGolden, writeGolden, GOLDEN_EXT, type DecideInput, type Decision } from "./store.js";
export { parseTape, TAPE_DEFAULTS, type RunCommand, type Size, type Step, type Tape, type TextMatch } from "./tape.js";
