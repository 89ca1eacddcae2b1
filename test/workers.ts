// How many test files run at once when nothing says otherwise (VITEST_MAX_WORKERS and CI's
// PANESCOPE_CI_WORKERS do). The tests wait on tmux and timers more than they compute, and hold on
// a busy machine: on 2 cores, `npm test` took 171-217 s with 3 files at a time (CI), and about
// 6.5 min with vitest's default of one fewer than the cores (AMD EPYC VM, 2026-12-04).
import { availableParallelism } from "node:os";

export const TEST_FILES_AT_ONCE = Math.max(3, availableParallelism() - 1);
