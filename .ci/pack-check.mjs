#!/usr/bin/env node
// The path a user takes after `npx -y panescope`, from the packed tarball: pack (prepack builds
// from clean), check the file list, install it into an empty project, then run the installed
// `panescope --version`, an MCP handshake listing the tools, a golden tape, and the vitest example
// of docs/golden.md. Needs tmux on PATH (.ci/run installs it). Every process gets an argv array.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const started = Date.now();
const work = mkdtempSync(join(tmpdir(), "panescope-pack-check-"));
const project = join(work, "project");
// Nothing the checks run may touch the user's tmux server or cursor key.
const env = { ...process.env, CI: "", PANESCOPE_UPDATE: "", PANESCOPE_SOCKET: `panescope-pack-check-${process.pid}`, XDG_STATE_HOME: join(work, "state") };
delete env.PANESCOPE_SOCKET_PATH;

function step(text) {
  process.stdout.write(`pack-check: ${text} (${((Date.now() - started) / 1000).toFixed(1)}s)\n`);
}

function fail(text) {
  throw new Error(text);
}

/** Runs argv to completion; fails with its output unless the exit status is `status`. */
function run(argv, { cwd = project, status = 0, extraEnv = {}, timeoutMs = 180_000 } = {}) {
  const [command, ...args] = argv;
  const result = spawnSync(command, args, { cwd, env: { ...env, ...extraEnv }, encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.error) fail(`${argv.join(" ")}: ${result.error.message}\n${output}`);
  if (result.status !== status) fail(`${argv.join(" ")} exited ${result.status ?? result.signal}, expected ${status}:\n${output}`);
  return result;
}

/**
 * The tarball's files: package.json, README, LICENSE and built JavaScript with its types (the MCP
 * server's face is a script, .cjs: src/code-cache.ts); no maps, no code cache.
 */
function checkFiles(files) {
  const allowed = (path) => ["package.json", "README.md", "LICENSE"].includes(path) || /^dist\/.+\.(js|d\.ts)$/.test(path) || /^dist\/faces\/[^/]+\.cjs$/.test(path);
  const extra = files.filter((path) => !allowed(path));
  if (extra.length > 0) fail(`the tarball holds files it does not need: ${extra.join(", ")}`);
  for (const needed of ["LICENSE", "README.md", "dist/cli.js", "dist/faces/mcp.js", "dist/faces/mcp.cjs", "dist/faces/shell-entry.js", "dist/index.js", "dist/golden/index.js", "dist/demo/progress.js", "dist/demo/dashboard.js"]) {
    if (!files.includes(needed)) fail(`the tarball lacks ${needed}`);
  }
}

/** initialize → initialized → tools/list over the installed bin's stdio; resolves with the tool names. */
function handshake(bin) {
  return new Promise((resolveTools, reject) => {
    const child = spawn(bin, [], { cwd: project, env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no tools/list answer within 30 s; stderr:\n${err}`));
    }, 30_000);
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    child.stderr.on("data", (chunk) => (err += chunk));
    child.stdout.on("data", (chunk) => {
      out += chunk;
      for (let nl = out.indexOf("\n"); nl >= 0; nl = out.indexOf("\n")) {
        const message = JSON.parse(out.slice(0, nl));
        out = out.slice(nl + 1);
        if (message.id === 1) {
          if (message.result?.serverInfo?.name !== "panescope") reject(new Error(`unexpected initialize answer: ${JSON.stringify(message)}`));
          send({ method: "notifications/initialized" });
          send({ id: 2, method: "tools/list", params: {} });
        } else if (message.id === 2) {
          clearTimeout(timer);
          child.stdin.end(); // the server ends when its client closes stdin
          resolveTools((message.result?.tools ?? []).map((tool) => tool.name).sort());
        }
      }
    });
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`the MCP server exited ${code}; stderr:\n${err}`));
    });
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pack-check", version: "0" } } });
  });
}

try {
  step("packing");
  const packed = JSON.parse(run(["npm", "pack", "--json", "--pack-destination", work], { cwd: ROOT }).stdout)[0];
  const files = packed.files.map((file) => file.path).sort();
  checkFiles(files);
  const built = files.filter((path) => path.startsWith("dist/"));
  const top = files.filter((path) => !path.startsWith("dist/"));
  step(`${packed.filename}: ${top.join(", ")} and ${built.length} files under dist/ (.js, .d.ts); ${(packed.size / 1024).toFixed(1)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked`);

  mkdirSync(project);
  writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "pack-check", private: true, type: "module" }, null, 2)}\n`);
  // The same vitest as ours: it is in npm's cache already, so the install works offline too.
  const vitest = JSON.parse(readFileSync(join(ROOT, "node_modules/vitest/package.json"), "utf8")).version;
  step(`installing the tarball and vitest@${vitest} into an empty project`);
  const installed = run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline", join(work, packed.filename), `vitest@${vitest}`]);
  // A user who installs the tarball sees what npm says of it: no script of ours to approve (npm 11).
  const warned = `${installed.stdout}${installed.stderr}`.split("\n").filter((line) => line.includes("panescope") && /warn/i.test(line));
  if (warned.length > 0) fail(`installing the tarball drew warnings about panescope:\n${warned.join("\n")}`);

  // `--`: npm 11's npx takes a --version anywhere on its line for its own (it prints npm's version).
  const version = run(["npx", "--no", "--", "panescope", "--version"]).stdout.trim();
  if (version !== manifest.version) fail(`npx -- panescope --version printed ${JSON.stringify(version)}, expected ${manifest.version}`);
  step(`npx -- panescope --version: ${version}`);

  const tools = await handshake(join(project, "node_modules/.bin/panescope"));
  const expected = ["capture_pane", "capture_since", "close_pane", "list_panes", "open_pane", "send_keys", "wait_for"];
  if (JSON.stringify(tools) !== JSON.stringify(expected)) fail(`tools/list gave ${tools.join(", ")}, expected ${expected.join(", ")}`);
  step(`MCP handshake: ${tools.join(", ")}`);

  const page = readFileSync(join(ROOT, "docs/golden.md"), "utf8");
  const tape = /cat > golden\/hello\.tape <<'EOF'\n([\s\S]*?)\nEOF/.exec(page)?.[1] ?? fail("docs/golden.md has no hello.tape");
  mkdirSync(join(project, "golden"));
  writeFileSync(join(project, "golden/hello.tape"), `${tape}\n`);
  const first = run(["npx", "--no", "--", "panescope", "golden"]).stdout;
  if (!first.includes("wrote golden/hello/greeting.golden (new golden)")) fail(`the first golden run wrote nothing:\n${first}`);
  const again = run(["npx", "--no", "--", "panescope", "golden"], { extraEnv: { CI: "true" } }).stdout;
  if (!/^1 passed, 0 failed$/m.test(again)) fail(`the golden run under CI did not pass:\n${again}`);
  step("npx panescope golden: wrote the golden, then passed under CI=true");

  const example = /## From vitest[^\n]*\n\n```ts\n([\s\S]*?)```/.exec(page)?.[1] ?? fail("docs/golden.md has no vitest example");
  mkdirSync(join(project, "test"));
  writeFileSync(join(project, "test/greet.test.ts"), example);
  run(["npx", "--no", "--", "vitest", "run"]);
  const golden = join(project, "test/__goldens__/greet/greeting.golden");
  if (!existsSync(golden) || !readFileSync(golden, "utf8").includes("│took <ms>")) fail(`the vitest example wrote no masked golden at ${golden}`);
  run(["npx", "--no", "--", "vitest", "run"], { extraEnv: { CI: "true" } });
  step("the vitest example of docs/golden.md: wrote its golden, then passed under CI=true");
  step("ok");
} catch (error) {
  process.stderr.write(`pack-check: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
