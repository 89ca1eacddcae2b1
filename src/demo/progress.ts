// Demo program: a download-style progress bar redrawn in place with `\r` and colours.
const total = 40;
let step = 0;

// A 10-cell bar keeps a row under 30 columns: the percentage shows even in a 40-column terminal.
function frame(): void {
  const filled = Math.round((step / total) * 10);
  const bar = "#".repeat(filled).padEnd(10, ".");
  const percent = String(Math.round((step / total) * 100)).padStart(3);
  process.stdout.write(`\r\x1b[36mdownloading\x1b[0m [\x1b[32m${bar}\x1b[0m] ${percent}%`);
  if (step++ < total) setTimeout(frame, 60);
  else process.stdout.write("\r\n\x1b[1mdone\x1b[0m: 40 MiB in 2.4 s\r\n");
}

// Start on SIGUSR1, so the demo can show the screen before the first frame. Listened for before the
// first line is written: the demo signals once it sees that line, and a SIGUSR1 that came before
// the listener started Node's inspector instead ("Debugger listening…", and no bar: seen under load).
process.once("SIGUSR1", frame);
process.stdout.write("$ fetch big-file.tar\r\n");
setTimeout(() => undefined, 60_000); // stay alive so the pane stays readable
