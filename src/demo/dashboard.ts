// Demo program: a small full-screen dashboard on the alternate screen, repainted by cursor moves.
const ESC = "\x1b";
const jobs = ["build", "test", "lint", "package", "deploy"];
let tick = 0;

function paint(): void {
  const cols = process.stdout.columns || 80;
  let out = `${ESC}[H${ESC}[7m${" panescope demo dashboard".padEnd(cols)}${ESC}[0m`;
  jobs.forEach((job, i) => {
    const progress = Math.min(10, Math.max(0, tick - i * 3));
    const state = progress >= 10 ? `${ESC}[32mok     ${ESC}[0m` : progress > 0 ? `${ESC}[33mrunning${ESC}[0m` : "queued ";
    out += `${ESC}[${i + 3};3H${job.padEnd(10)} ${state} ${"■".repeat(progress).padEnd(10, "·")}`;
  });
  out += `${ESC}[10;3Htick ${tick}`;
  process.stdout.write(out);
  tick++;
}

process.stdout.write(`${ESC}[?1049h${ESC}[?25l${ESC}[2J`);
paint();
setInterval(paint, 250);
process.on("SIGTERM", () => {
  process.stdout.write(`${ESC}[?25h${ESC}[?1049l`);
  process.exit(0);
});
