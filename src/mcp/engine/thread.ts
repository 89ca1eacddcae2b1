// The engine thread of the split server (front.ts): the whole MCP server as `panescope` runs it in
// one thread, on the stdin and stdout the front pipes to it, publishing every streamed pane for
// the reads the front answers itself.
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import type { McpOptions } from "../../options.js";
import { PortPublisher } from "./publisher.js";
import { EngineStdout } from "./shared-stdout.js";

export interface EngineData {
  options: McpOptions;
  port: MessagePort;
  /** fd 1 as the two threads share it (shared-stdout.ts): its words, and whether it is a pipe or a socket. */
  stdout: { words: Int32Array; pipeOrSocket: boolean };
  /** The --transcript file, opened by the front (threads share the process's files). */
  transcriptFd?: number;
}

const { options, port, stdout, transcriptFd } = workerData as EngineData;
// The server's face loads when the front says so, once it has answered the handshake
// (mcp/handshake.ts): loaded beside the front's, the two shared the cores and the handshake came
// 20–25 ms later (2-core VM). Requests wait meanwhile in this thread's stdin.
// Then "stop" when the process is told to stop (front.ts): its waits answer at once.
const stopping = new AbortController();
await new Promise((resolve) => {
  parentPort?.on("message", (message) => {
    if (message === "stop") stopping.abort();
    else resolve(message);
  });
});
const { main } = await import("../main.js");
const publisher = new PortPublisher(port);
const answers = new EngineStdout(stdout.words, process.stdout, stdout.pipeOrSocket);
const code = await main(options, publisher, answers, transcriptFd, stopping.signal);
publisher.close();
process.stderr.write(`panescope: ${answers.direct} answers written by the engine thread itself\n`);
process.exit(code);
