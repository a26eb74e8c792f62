import { nice, ticks } from "d3-array";

// The geometry of a line chart, in shares of the plot (0 to 100 on both
// axes), so that the server can draw it without knowing the width: the SVG
// stretches to its box and the labels are HTML placed at the same shares.

/**
 * The value axis: "round" ticks from 0 to at or above the largest value
 * ($0, $50, $100 and not $0, $43.17, $86.34), as d3-array picks them. A tick
 * is never finer than the smallest amount the values count in: `unit` is how
 * many of them make one axis step's unit (100 cents in a dollar: the axis is
 * in dollars and may show $0.50 but never half a cent; 1 for counts, which
 * never show 2.5 clicks).
 */
export function valueAxis(max: number, unit = 1, count = 4): { top: number; ticks: number[] } {
  const high = max > 0 ? max / unit : 1;
  for (let n = count; ; n--) {
    const [, top] = nice(0, high, n);
    const steps = ticks(0, top, n);
    const whole = steps.every((t) => Math.abs(t * unit - Math.round(t * unit)) < 1e-9);
    if (whole || n === 1) return { top: Math.round(top * unit), ticks: steps.map((t) => Math.round(t * unit)) };
  }
}

/** The indexes of the points that get a label under the chart: both ends and evenly between, at most `max`. */
export function xLabelIndexes(length: number, max = 5): number[] {
  if (length <= 0) return [];
  const shown = Math.min(length, max);
  if (shown === 1) return [0];
  const out = new Set<number>();
  for (let j = 0; j < shown; j++) out.add(Math.round((j * (length - 1)) / (shown - 1)));
  return [...out];
}

/** Where point `index` of `length` sits across the plot, 0 to 100. */
export function xShare(index: number, length: number): number {
  return length > 1 ? (index / (length - 1)) * 100 : 50;
}

/** Where `value` sits down the plot, 0 (top) to 100 (the axis). */
export function yShare(value: number, top: number): number {
  return top > 0 ? 100 - (Math.max(0, value) / top) * 100 : 100;
}

/** The line through the values and the area under it, as SVG paths in a 100 × 100 box. */
export function linePaths(values: readonly number[], top: number): { line: string; area: string } {
  if (!values.length) return { line: "", area: "" };
  const points = values.map((v, i) => `${round(xShare(i, values.length))},${round(yShare(v, top))}`);
  const line = `M${points.join("L")}`;
  const first = round(xShare(0, values.length));
  const last = round(xShare(values.length - 1, values.length));
  return { line, area: `${line}L${last},100L${first},100Z` };
}

/** The point nearest a pointer at `share` (0 to 100) across the plot. */
export function nearestIndex(share: number, length: number): number {
  if (length <= 1) return 0;
  return Math.min(length - 1, Math.max(0, Math.round((share / 100) * (length - 1))));
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
