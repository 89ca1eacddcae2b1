// Whether a process answers on a unix socket: a tmux server's (is it running?) or a daemon's (is
// its socket file live, or left by a kill?). Asked by a command before it starts a daemon, and by
// the daemon itself.
import { createConnection } from "node:net";

/**
 * "answers" (a connection is accepted), "absent" (no file, or nobody listens: a killed server
 * leaves its socket file behind), else "unknown". A tmux server takes the connection as a client
 * that never identifies itself and drops it when it closes (server-client.c: only an attached
 * client's end is announced).
 */
export function probe(path: string): Promise<"answers" | "absent" | "unknown"> {
  return new Promise((resolve) => {
    const socket = createConnection({ path });
    socket.once("connect", () => {
      socket.destroy();
      resolve("answers");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ENOENT" || error.code === "ECONNREFUSED" ? "absent" : "unknown"));
  });
}
