// One golden file, one test: a golden name that a second test of the same file uses (an it.each
// whose cases all call toMatchGolden("screen")) is an error naming the first test, instead of a
// "does not match" against the other test's screen. A retried or repeated test, and a test that
// checks its golden twice, are the same test. Real goldens of a real pane, in this vitest run.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPanescopeError } from "../../../src/errors.js";
import { expectGolden } from "../../../src/golden/expect.js";
import { goldenMatchers, type GoldenMatchers } from "../../../src/golden/matcher.js";
import { startPaneSession, type PaneSession } from "../../../src/golden/session.js";
import { forgetGoldens } from "../../support/golden-counts.js";
import { leftoverSockets } from "../../support/golden-tapes.js";

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion<T> extends GoldenMatchers<T> {}
}
expect.extend(goldenMatchers);

const dir = await mkdtemp(join(tmpdir(), "panescope-one-golden-"));
const options = { dir, suite: "shared", settleMs: 50, ci: false, update: false };
let session: PaneSession;

beforeAll(async () => {
  session = await startPaneSession({ size: { cols: 20, rows: 3 }, command: ["sh", "-c", "printf same; exec sleep 60"] });
  await session.waitFor({ kind: "text", text: "same" }, 5000);
});
afterAll(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a golden name used by two tests of one file", () => {
  it.each(["one", "two"])("toMatchGolden, case %s", async (which) => {
    const check = expect(session).toMatchGolden("screen", options);
    if (which === "one") await check;
    else {
      await expect(check).rejects.toThrow(
        `golden "screen" (${join(dir, "shared", "screen.golden")}) is already used by test "a golden name used by two tests of one file > toMatchGolden, case one" in this file`,
      );
      await expect(expect(session).toMatchGolden("screen", options)).rejects.toThrow(/give each test a golden name of its own, e\.g\. with the case in it \(`screen-\$\{item\}` in an it\.each\)$/);
    }
    forgetGoldens();
  });

  it.each([1, 2])("toMatchGolden in tests of one name", async (which) => {
    const check = expect(session).toMatchGolden("same-name", options);
    if (which === 1) await check;
    else await expect(check).rejects.toThrow(/already used by another test also named "[^"]+> toMatchGolden in tests of one name" in this file.*, and each test a name of its own/);
    forgetGoldens();
  });

  it.each(["one", "two"])("expectGolden, case %s", async (which) => {
    const check = expectGolden(session, "plain", options);
    if (which === "one") expect((await check).kind).toBe("written");
    else {
      const error = await check.catch((e: unknown) => e);
      expect(isPanescopeError(error, "golden") && error.message).toMatch(/^golden "plain" \(\S+plain\.golden\) is already used by test "[^"]+> expectGolden, case one" in this file/);
    }
    forgetGoldens();
  });
});

describe("the same test using its golden again", () => {
  it("checks the same screen twice", async () => {
    await expect(session).toMatchGolden("twice", options);
    await expect(session).toMatchGolden("twice", options);
    await expectGolden(session, "twice-plain", options);
    expect((await expectGolden(session, "twice-plain", options)).kind).toBe("pass");
    forgetGoldens();
  });

  let tries = 0;
  it("is retried", { retry: 1 }, async () => {
    tries++;
    await expect(session).toMatchGolden("retried", options);
    await expectGolden(session, "retried-plain", options);
    forgetGoldens();
    expect(tries, "the first try fails on purpose, after using its goldens").toBe(2);
  });

  let runs = 0;
  it("is repeated", { repeats: 2 }, async () => {
    runs++;
    await expect(session).toMatchGolden("repeated", options);
    await expectGolden(session, "repeated-plain", options);
    forgetGoldens();
  });

  it("ran every try and repeat", () => {
    expect([tries, runs]).toEqual([2, 3]);
  });
});

describe("cleanup", () => {
  it("leaves no tmux server socket behind", async () => {
    await session.close();
    expect(leftoverSockets()).toEqual([]);
  });
});
