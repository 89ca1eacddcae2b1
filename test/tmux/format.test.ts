// TmuxFormat: named fields asked in one format and read back exactly, whatever each tmux version
// does to command output. tmux's printing is reimplemented in test/support/tmux-output.ts; the real thing is
// checked on every version by test/integration/tmux/hostile-values.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { decodeValue, TmuxFormat } from "../../src/tmux/format.js";
import { TmuxVersion } from "../../src/tmux/version.js";
import { stored, storedSessionName, tmuxPrints, VERSIONS, type Version } from "../support/tmux-output.js";

const FIELDS = {
  id: "pane_id",
  session: "session_name",
  path: "pane_current_path",
  title: { variable: "pane_title", programText: true },
  command: { variable: "pane_current_command", programText: true },
} as const;

interface Pane {
  id: string;
  session: string;
  path: string;
  title: string;
  command: string;
}

/** What tmux would print for these panes, as the given version stores and prints them. */
function reply(format: TmuxFormat<string>, panes: Pane[], version: Version): string[] {
  return panes.flatMap((p) =>
    tmuxPrints(
      format.text,
      {
        pane_id: p.id,
        session_name: storedSessionName(p.session, version),
        pane_current_path: p.path,
        pane_title: stored(p.title, version, true),
        pane_current_command: stored(p.command, version, true),
      },
      version,
    ),
  );
}

const expected = (p: Pane, version: Version): Pane => ({ ...p, session: storedSessionName(p.session, version) });

// Titles cannot hold control bytes (tmux refuses them: utf8_isvalid); paths and commands can.
const HOSTILE = ["\\", "\\037", "\\\\n", "$x", "${y}", "\\$x", '"', "'", "#", "#{pane_id}", ";", " ", "é", "中", "🙂", "PsB", "\\s"];
const CONTROL = ["\u0001", "\t", "\n", "\u001b", "\u001f", "\u007f", "\r"];
const text = (extra: string[] = []) => fc.array(fc.oneof(fc.constantFrom(...HOSTILE, ...extra), fc.string({ unit: "grapheme", maxLength: 4 })), { maxLength: 8 }).map((parts) => parts.join(""));

describe("TmuxFormat", () => {
  it("asks for every field with its backslashes doubled, between alphanumeric separators", () => {
    const format = new TmuxFormat({ id: "pane_id", title: { variable: "pane_title", programText: true } }, "Ps0123456789abcdef");
    expect(format.text).toBe("Ps0123456789abcdefB#{s/[\\\\]/\\\\\\\\/:pane_id}Ps0123456789abcdefF#{s/[\\\\]/\\\\\\\\/:pane_title}Ps0123456789abcdefE");
    expect(format.needsVersion).toBe(true);
    expect(new TmuxFormat({ id: "pane_id" }).needsVersion).toBe(false);
  });

  it("a fresh nonce per format: two questions never share separators", () => {
    expect(new TmuxFormat({ id: "pane_id" }).text).not.toBe(new TmuxFormat({ id: "pane_id" }).text);
  });

  for (const version of VERSIONS) {
    it(`500 random hostile panes round-trip exactly as tmux ${version} prints them (seeded)`, () => {
      const tmux = TmuxVersion.parse(`tmux ${version}`);
      const pane = fc.record({ id: fc.nat(999).map((n) => `%${n}`), session: text(), path: text(CONTROL), title: text(), command: text(CONTROL) });
      fc.assert(
        fc.property(fc.array(pane, { minLength: 1, maxLength: 3 }), (panes) => {
          const format = new TmuxFormat(FIELDS);
          expect(format.parse(reply(format, panes, version), tmux)).toEqual(panes.map((p) => expected(p, version)));
        }),
        { seed: 0x5eed + version.length, numRuns: 500 },
      );
    });
  }

  it("3.4 and 3.5a: the text \\037 and a 0x1f byte stay apart, and 3.4's \\$ is a plain $", () => {
    const format = new TmuxFormat({ path: "pane_current_path" });
    const panes = [{ id: "%1", session: "s", path: "/a\\037b\u001fc$HOME", title: "", command: "" }];
    for (const version of ["3.4", "3.5a"] as const) {
      const lines = reply(format, panes, version);
      expect(lines.join("\n")).toContain(version === "3.4" ? "\\\\037b\\037c\\$HOME" : "\\\\037b\\037c$HOME");
      expect(format.parse(lines)).toEqual([{ path: "/a\\037b\u001fc$HOME" }]);
    }
  });

  it("3.7c: a title tmux stores as y \\\\n end is read as the y \\n end the program set", () => {
    const format = new TmuxFormat({ title: { variable: "pane_title", programText: true } });
    const lines = tmuxPrints(format.text, { pane_title: "y \\\\n end" }, "3.7c");
    expect(format.parse(lines, TmuxVersion.parse("tmux 3.7c"))).toEqual([{ title: "y \\n end" }]);
    expect(format.parse(lines, TmuxVersion.parse("tmux 3.6a"))).toEqual([{ title: "y \\\\n end" }]);
  });

  it("a raw newline inside a value (a path on 3.3a) does not split its record", () => {
    const format = new TmuxFormat({ id: "pane_id", path: "pane_current_path" });
    const lines = [...tmuxPrints(format.text, { pane_id: "%1", pane_current_path: "/x\ny" }, "3.3a"), ...tmuxPrints(format.text, { pane_id: "%2", pane_current_path: "/z" }, "3.3a")];
    expect(lines).toHaveLength(3);
    expect(format.parse(lines)).toEqual([{ id: "%1", path: "/x\ny" }, { id: "%2", path: "/z" }]);
  });

  it("no output is no record (tmux 3.3a prints an empty line for display -p -t %99)", () => {
    const format = new TmuxFormat({ id: "pane_id" });
    expect(format.parse([])).toEqual([]);
    expect(format.parseOne([""])).toBeUndefined();
  });

  it("anything but whole records is a protocol error, never a misread value", () => {
    const format = new TmuxFormat({ id: "pane_id", pid: "pane_pid" }, "Ps00000000aaaaaaaa");
    for (const lines of [["%1 123"], ["Ps00000000aaaaaaaaB%1Ps00000000aaaaaaaaE"], ["Ps00000000aaaaaaaaB%1Ps00000000aaaaaaaaF12"], ["Ps00000000aaaaaaaaB%1Ps00000000aaaaaaaaF12Ps00000000aaaaaaaaE junk"]]) {
      let error: unknown;
      try {
        format.parse(lines);
      } catch (e) {
        error = e;
      }
      expect(isPanescopeError(error, "protocol"), JSON.stringify(lines)).toBe(true);
    }
  });

  it("a programText field cannot be read without the tmux version", () => {
    const format = new TmuxFormat({ title: { variable: "pane_title", programText: true } });
    expect(() => format.parse(tmuxPrints(format.text, { pane_title: "t" }, "3.3a"))).toThrow(/needs the tmux version/);
  });
});

describe("decodeValue", () => {
  it("undoes vis(3): \\\\, octal bytes (UTF-8 included), C-style escapes and \\$", () => {
    expect(decodeValue("a\\\\b\\001\\t\\n\\s\\$x\\303\\251")).toBe("a\\b\u0001\t\n $xé");
  });

  it("keeps an escape tmux never writes, and a trailing backslash, as they are", () => {
    expect(decodeValue("a\\qb\\")).toBe("a\\qb\\");
    expect(decodeValue("plain")).toBe("plain");
  });
});
