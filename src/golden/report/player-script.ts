// The report's only script: steps each recording's frames (play/pause, a scrubber), nothing else.
// Kept as a string so the page carries it inline; it reads frames from JSON blocks, never the net.

export const PLAYER_SCRIPT = `
for (const player of document.querySelectorAll(".player")) {
  const frames = JSON.parse(document.getElementById(player.dataset.frames).textContent);
  const term = player.querySelector(".term");
  const scrub = player.querySelector(".scrub");
  const play = player.querySelector(".play");
  const time = player.querySelector(".time");
  let timer;
  const show = (i) => {
    scrub.value = String(i);
    term.innerHTML = frames[i].html;
    time.textContent = frames[i].t.toFixed(2) + " s";
    player.dataset.frame = String(i);
  };
  const stop = () => { clearTimeout(timer); timer = undefined; play.textContent = "play"; };
  const next = (i) => {
    show(i);
    if (i + 1 >= frames.length) return stop();
    const wait = Math.min(1000, Math.max(30, (frames[i + 1].t - frames[i].t) * 1000));
    timer = setTimeout(() => next(i + 1), wait);
  };
  play.addEventListener("click", () => {
    if (timer !== undefined) return stop();
    play.textContent = "pause";
    const at = Number(scrub.value);
    next(at + 1 >= frames.length ? 0 : at);
  });
  scrub.addEventListener("input", () => { stop(); show(Number(scrub.value)); });
  show(frames.length - 1);
}
`;
