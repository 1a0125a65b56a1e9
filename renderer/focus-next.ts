/**
 * Where the focus goes once something the worker did has redrawn the screen (issue 64 §1): the first of
 * `places` (CSS selectors, in order of preference) on screen. An action redraws after its answer, and
 * may redraw twice (the order's lines, then the order undone): until `waitMs` have passed, a focus that
 * fell to the page's body (its element gone) is placed again — never left on the body.
 */
export function focusNext(places: readonly string[], waitMs = 2_000): void {
  const until = Date.now() + waitMs;
  const lost = () => document.activeElement === null || document.activeElement === document.body;
  const tick = () => {
    if (lost()) {
      for (const selector of places) {
        const el = document.querySelector<HTMLElement>(selector);
        if (el !== null) {
          el.focus();
          break;
        }
      }
    }
    if (Date.now() < until) setTimeout(tick, 50);
  };
  // What had the focus (the button pressed) goes with the redraw; from then on the focus is placed.
  setTimeout(tick, 0);
}
