// `npm run test:unit`: every test that does not start tmux (the pure parts: parsers, emulator,
// cursor, watch stages, golden format, MCP shaping, docs), in seconds. The tmux-dependent files are
// the ones listed in test/tmux-dependent.ts; `npm test` runs both kinds.
import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";
import { TMUX_DEPENDENT } from "./test/tmux-dependent.js";

export default mergeConfig(base, defineConfig({ test: { exclude: [...configDefaults.exclude, ...TMUX_DEPENDENT] } }));
