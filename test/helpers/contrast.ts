/**
 * WCAG contrast, measured inside the page (as a string of the page's own JavaScript: these files are
 * type-checked without the DOM's types). For the appearance test (issue 63 §4).
 */

/** What the page's check reports of one text that falls short. */
export interface ContrastFailure {
  /** The element: tag, classes, test id, and the start of its text. */
  readonly element: string;
  readonly colour: string;
  readonly background: string;
  readonly ratio: number;
  /** 4.5, or 3 for large text (WCAG: 24px, or 18.66px bold). */
  readonly needs: number;
}

export interface ContrastReport {
  /** How many texts were measured. */
  readonly checked: number;
  readonly failures: readonly ContrastFailure[];
  /** Texts not measured, and why (on a picture or a gradient: no one colour behind them). */
  readonly unmeasured: readonly string[];
}

/** A focus ring as the page's check finds it. */
export interface FocusRing {
  readonly element: string;
  readonly colour: string;
  readonly background: string;
  readonly ratio: number;
}

/** The functions both checks below use: colours parsed and blended, relative luminance, the ratio, grounds. */
const COMMON = `
const parse = (c) => {
  let m = /^rgba?\\(([^)]*)\\)$/.exec(c);
  if (m) {
    const p = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  }
  m = /^color\\(srgb ([^)]*)\\)$/.exec(c);
  if (m) {
    const p = m[1].split(/[\\s/]+/).filter(Boolean).map(Number);
    return { r: p[0] * 255, g: p[1] * 255, b: p[2] * 255, a: p.length > 3 ? p[3] : 1 };
  }
  return null;
};
const over = (top, bottom) => ({
  r: top.r * top.a + bottom.r * (1 - top.a),
  g: top.g * top.a + bottom.g * (1 - top.a),
  b: top.b * top.a + bottom.b * (1 - top.a),
  a: 1,
});
const hex = (c) => '#' + [c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
const channel = (v) => {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
};
const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
const ratio = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
// The canvas under everything: the page's own ground where the root has one, else the browser's for the scheme.
const canvas = (() => {
  const probe = document.createElement('div');
  probe.style.backgroundColor = 'Canvas';
  document.documentElement.appendChild(probe);
  const c = parse(getComputedStyle(probe).backgroundColor) ?? { r: 255, g: 255, b: 255, a: 1 };
  probe.remove();
  return { ...c, a: 1 };
})();
// The ground behind an element: its own and its ancestors' backgrounds, blended down to the first opaque
// one (or the canvas). Null when a picture or gradient lies behind it first: no one colour to measure.
const ground = (el) => {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const cs = getComputedStyle(e);
    if (cs.backgroundImage !== 'none' || e.tagName === 'IMG') return null;
    const c = parse(cs.backgroundColor);
    if (c && c.a > 0) {
      layers.push(c);
      if (c.a >= 1) break;
    }
  }
  let g = canvas;
  for (const layer of layers.reverse()) g = over(layer, g);
  return g;
};
const describe = (el) => {
  const id = el.getAttribute('data-testid');
  const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
  const text = (el.value || el.placeholder || el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 50);
  return el.tagName.toLowerCase() + cls + (id ? '[data-testid=' + id + ']' : '') + ' "' + text + '"';
};
`;

/**
 * Every visible text in the page measured against what lies behind it (WCAG 1.4.3): each element with text
 * of its own (and each field's value, or its placeholder while it is empty), its colour (blended by its opacity) against its ground — its
 * ancestors' backgrounds, and where another element is painted under its middle (a progress bar's fill
 * under its words), that one's too; the lower ratio counts. Disabled controls are left out, as WCAG does
 * (inactive components). Evaluates to a `ContrastReport`.
 */
export const CONTRAST_CHECK = `(() => {
${COMMON}
const failures = [];
const unmeasured = [];
let checked = 0;
const FIELDS = ['INPUT', 'SELECT', 'TEXTAREA'];
const NO_TEXT = ['checkbox', 'radio', 'file', 'hidden', 'range', 'color', 'submit', 'button', 'image'];
for (const el of document.body.querySelectorAll('*')) {
  if (['SCRIPT', 'STYLE', 'OPTION', 'OPTGROUP'].includes(el.tagName)) continue;
  const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
  const typed = FIELDS.includes(el.tagName) && !NO_TEXT.includes(el.type);
  const field = typed && String(el.value ?? '').trim() !== '';
  // An empty field shows its placeholder, in the placeholder's colour.
  const placeholder = typed && !field && el.tagName !== 'SELECT' && (el.placeholder ?? '').trim() !== '';
  if (!ownText && !field && !placeholder) continue;
  if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true, opacityProperty: true, visibilityProperty: true })) continue;
  const box = el.getBoundingClientRect();
  if (box.width < 1 || box.height < 1) continue;
  if (el.closest(':disabled, .button.disabled')) continue;
  const cs = getComputedStyle(el);
  const behind = ground(el);
  if (behind === null) {
    unmeasured.push(describe(el));
    continue;
  }
  const grounds = [behind];
  // Painted under its middle but not an ancestor: an overlapping sibling (a bar's fill under its words).
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  if (x >= 0 && y >= 0 && x < innerWidth && y < innerHeight) {
    const stack = document.elementsFromPoint(x, y);
    const at = stack.indexOf(el);
    if (at >= 0) {
      // The first painted thing with a ground, from the element itself down: its own or an ancestor's is
      // the ground above; anything else lies under it without holding it.
      const under = stack.slice(at).find((e) => {
        const c = parse(getComputedStyle(e).backgroundColor);
        return c && c.a > 0;
      });
      if (under && !under.contains(el)) {
        const g = ground(under);
        if (g) grounds.push(g);
      }
    }
  }
  let opacity = 1;
  for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
  const size = parseFloat(cs.fontSize);
  const weight = parseInt(cs.fontWeight, 10);
  const needs = size >= 24 || (size >= 18.66 && weight >= 700) ? 3 : 4.5;
  checked += 1;
  for (const g of grounds) {
    const own = parse(placeholder ? getComputedStyle(el, '::placeholder').color : cs.color) ?? { r: 0, g: 0, b: 0, a: 1 };
    const colour = over({ ...own, a: own.a * opacity }, g);
    const r = ratio(colour, g);
    if (r < needs) {
      failures.push({ element: describe(el), colour: hex(colour), background: hex(g), ratio: Math.round(r * 100) / 100, needs });
      break;
    }
  }
}
return { checked, failures, unmeasured };
})()`;

/**
 * The focused element's focus ring against the ground around it (WCAG 1.4.11: 3 to 1): its outline against
 * its parent's ground (drawn outside the element), or a ring drawn inside it (an inset shadow, as a table's)
 * against its own. Null when nothing shows a ring.
 */
export const FOCUS_RING = `(() => {
${COMMON}
const el = document.activeElement;
if (!el || el === document.body || !el.matches(':focus-visible')) return null;
const cs = getComputedStyle(el);
const outline = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0;
const inset = /^(rgba?\\([^)]*\\)) 0px 0px 0px [1-9][\\d.]*px inset$/.exec(cs.boxShadow);
if (!outline && !inset) return null;
const ring = parse(outline ? cs.outlineColor : inset[1]);
const g = (outline ? ground(el.parentElement) : ground(el)) ?? canvas;
const colour = over(ring, g);
return { element: describe(el), colour: hex(colour), background: hex(g), ratio: Math.round(ratio(colour, g) * 100) / 100 };
})()`;

/** The page's ground (the root's background, over the canvas) and its relative luminance: dark below 0.1. */
export const PAGE_GROUND = `(() => {
${COMMON}
const g = ground(document.body);
return { colour: hex(g), luminance: luminance(g) };
})()`;

/** What failed, one line each, for the test's output. */
export function failureLines(scheme: string, screen: string, failures: readonly ContrastFailure[]): string[] {
  return failures.map(
    (f) => `${scheme} · ${screen}: ${f.element} — ${f.colour} on ${f.background}: ${f.ratio} (needs ${f.needs})`,
  );
}
