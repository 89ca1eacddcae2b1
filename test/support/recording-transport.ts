// An MCP transport for tests of the server's side: it records what the server sends and lets the
// test deliver a message and wait for the answer.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export class RecordingTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sent: JSONRPCMessage[] = [];
  private waiter?: () => void;
  start = async (): Promise<void> => undefined;
  close = async (): Promise<void> => this.onclose?.();
  send = async (message: JSONRPCMessage): Promise<void> => {
    this.sent.push(message);
    this.waiter?.();
  };

  /** Delivers `message` and resolves with the next message the server sends. */
  async request(message: JSONRPCMessage): Promise<Record<string, unknown>> {
    const answered = new Promise<void>((resolve) => (this.waiter = resolve));
    this.onmessage?.(message);
    await answered;
    return this.sent[this.sent.length - 1] as unknown as Record<string, unknown>;
  }
}
