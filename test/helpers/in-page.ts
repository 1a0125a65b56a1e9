/**
 * Measurements made inside the page, as strings of the page's own JavaScript (these files are
 * type-checked for Node, without the DOM's types). Shared by the end-to-end test and `npm run bench`.
 */
import { percentile } from './stats.ts';

/** `until(check)`: waits frame by frame until `check()` gives an element; fails after 20 s. */
const UNTIL = `const until = async (check) => {
  const deadline = performance.now() + 20000;
  for (;;) {
    const el = check();
    if (el) return el;
    if (performance.now() > deadline) throw new Error('the page never showed ' + check.toString());
    await new Promise((r) => requestAnimationFrame(r));
  }
};`;

/** The order is on screen: from a click on its first unplaced line to its suggestion list, in ms. */
export const FIRST_SUGGESTIONS = `(async () => {
  ${UNTIL}
  const t0 = performance.now();
  const row = await until(() => document.querySelector('.line-row.unplaced'));
  row.click();
  await until(() => document.querySelector('[data-testid="suggestions"] li:not(.empty)'));
  return performance.now() - t0;
})()`;

/** From the click on an order in the list (the one whose row holds `reference`) to its lines on screen, in ms. */
export function openOrder(reference: string): string {
  return `(async () => {
  ${UNTIL}
  const row = [...document.querySelectorAll('tr.clickable')].find((r) => r.textContent.includes(${JSON.stringify(reference)}));
  const t0 = performance.now();
  row.click();
  await until(() => document.querySelector('.line-row.unplaced'));
  return performance.now() - t0;
})()`;
}

/** The frame times (ms, sorted) while the line table scrolls from top to bottom, 120 px a frame. */
export const SCROLL_FRAMES = `(async () => {
  const table = document.querySelector('[data-testid="line-table"]');
  const deltas = [];
  let last = await new Promise((r) => requestAnimationFrame(r));
  while (table.scrollTop + table.clientHeight < table.scrollHeight - 1) {
    table.scrollTop += 120;
    const now = await new Promise((r) => requestAnimationFrame(r));
    deltas.push(now - last);
    last = now;
  }
  return deltas.sort((a, b) => a - b);
})()`;

export function p95(frames: readonly number[]): number {
  return percentile(frames, 0.95);
}
