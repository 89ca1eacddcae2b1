// Where a tmux server's daemon listens: named by the tmux server's socket path, in
// $XDG_RUNTIME_DIR/panescope/ or beside tmux's own socket; trusted only when it is ours and closed.
import { chmodSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { daemonPaths, ensureTrustedDir, requireTrustedDir, socketState, tmuxSocketOf } from "../../src/shell/paths.js";

const uid = process.getuid?.() ?? 0;
const scratch = mkdtempSync(join(tmpdir(), "panescope-paths-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the daemon's paths", () => {
  it("follow tmux's own choice of socket: -S, -L in TMUX_TMPDIR, $TMUX inside a pane, else default", () => {
    expect(tmuxSocketOf({ socketPath: "/run/t.sock" }, {})).toBe("/run/t.sock");
    // Relative, as tmux -S takes it: from the command's directory (the daemon it starts runs elsewhere).
    expect(tmuxSocketOf({ socketPath: "here.sock" }, {})).toBe(join(process.cwd(), "here.sock"));
    expect(tmuxSocketOf({ socketName: "work" }, { TMUX_TMPDIR: "/var/t" })).toBe(`/var/t/tmux-${uid}/work`);
    expect(tmuxSocketOf({}, { TMUX: "/tmp/tmux-5/a,b,1234,0" })).toBe("/tmp/tmux-5/a,b");
    expect(tmuxSocketOf({}, {})).toBe(`/tmp/tmux-${uid}/default`);
  });

  it("are one set per tmux server, in XDG_RUNTIME_DIR or else beside the tmux socket", () => {
    const a = daemonPaths({ socketName: "a" }, { XDG_RUNTIME_DIR: "/run/user/1" });
    const b = daemonPaths({ socketName: "b" }, { XDG_RUNTIME_DIR: "/run/user/1" });
    expect(a.dir).toBe("/run/user/1/panescope");
    expect(a.socket).not.toBe(b.socket);
    expect(daemonPaths({ socketPath: `/tmp/tmux-${uid}/a` }, { XDG_RUNTIME_DIR: "/run/user/1" }).socket).toBe(a.socket);
    expect(daemonPaths({ socketName: "a" }, { XDG_RUNTIME_DIR: "relative/dir" }).dir).toBe(`/tmp/tmux-${uid}/.panescope`);
  });

  it("create the directory 0700 and refuse it once others may enter", () => {
    const dir = join(scratch, "panescope");
    ensureTrustedDir(dir);
    expect(() => requireTrustedDir(dir)).not.toThrow();
    chmodSync(dir, 0o750);
    let message = "";
    try {
      requireTrustedDir(dir);
    } catch (error) {
      if (isPanescopeError(error, "daemon")) message = error.message;
    }
    expect(message).toContain("it has mode 750: others may enter it; it must be 700");
    chmodSync(dir, 0o700);
  });

  it("refuse an existing directory open to others as it is: ensuring it never tightens another's mode", () => {
    const dir = join(scratch, "loose");
    ensureTrustedDir(dir);
    chmodSync(dir, 0o755);
    expect(() => ensureTrustedDir(dir)).toThrow("it has mode 755: others may enter it; it must be 700");
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    const link = join(scratch, "link");
    symlinkSync(dir, link);
    expect(() => ensureTrustedDir(link)).toThrow("it is not a directory (a symlink is refused too)");
  });

  it("tell an absent socket from something else in its place", () => {
    expect(socketState(join(scratch, "none"))).toBe("absent");
    expect(socketState(scratch)).toEqual({ refused: `${scratch} is not a socket: remove it` });
  });
});
