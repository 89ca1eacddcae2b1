// A test's tmux server stopped (SIGSTOP) on purpose, and always let go on (SIGCONT) before it is
// killed, whatever the test did: a stopped server cannot be killed cleanly, and holds its clients.
import type { TestServer } from "./tmux-fixture.js";

export class StoppedServers {
  private readonly pids = new Set<number>();

  /** Stops the test's tmux server; its pid. */
  async stop(test: TestServer): Promise<number> {
    const { pid } = await test.server.serverGeneration();
    process.kill(pid, "SIGSTOP");
    this.pids.add(pid);
    return pid;
  }

  resume(pid: number): void {
    process.kill(pid, "SIGCONT");
    this.pids.delete(pid);
  }

  /** In afterEach, before the servers are killed. */
  resumeAll(): void {
    for (const pid of this.pids) this.resume(pid);
  }
}
