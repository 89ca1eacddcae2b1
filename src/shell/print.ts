// The answer onto stdout (and notes onto stderr) when the other end may be gone: `panescope read %1
// | head -2` closes the pipe before the answer is all written. Node then emits EPIPE as an
// unhandled 'error' (a stack trace, exit status 1, which a script reads as "timed out"); here the
// write's error is handed back, for main.ts to exit 141 as a shell reports a program SIGPIPE ended
// (`seq 1 100000 | head -1`), or to say another (a full disk: ENOSPC) on stderr.
type Stream = NodeJS.WritableStream & { on(event: "error", listener: (error: Error) => void): unknown };

const guarded = new WeakSet<object>();

/**
 * A stream whose write failed emits 'error' after the write's callback: a listener kept for the
 * process's life takes it (the callback already said what failed; a note on a closed stderr is
 * let go).
 */
export function guard(stream: Stream): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on("error", () => undefined);
}

/** Writes `text`; resolves with the error that kept it from being written, else undefined. */
export function write(stream: Stream, text: string): Promise<NodeJS.ErrnoException | undefined> {
  guard(stream);
  return new Promise((resolve) => {
    try {
      stream.write(text, (error) => resolve(error ?? undefined));
    } catch (error) {
      // A file or a terminal is written synchronously: its failure is thrown (then emitted).
      resolve(error as NodeJS.ErrnoException);
    }
  });
}
