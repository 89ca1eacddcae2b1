// The engine thread of the split server (front.ts): the whole MCP server as `panescope` runs it in
// one thread, on the stdin and stdout the front pipes to it, publishing every streamed pane for
// the reads the front answers itself.
import { workerData, type MessagePort } from "node:worker_threads";
import type { McpOptions } from "../../options.js";
import { main } from "../main.js";
import { PortPublisher } from "./publisher.js";

export interface EngineData {
  options: McpOptions;
  port: MessagePort;
}

const { options, port } = workerData as EngineData;
const publisher = new PortPublisher(port);
const code = await main(options, publisher);
publisher.close();
process.exit(code);
