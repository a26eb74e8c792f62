// The top of a chart's value axis: the smallest "round" number (1, 2, 2.5
// or 5 times a power of ten) at or above the largest value, so the axis
// labels read $0, $50, $100 and not $0, $43.17, $86.34.

export function niceCeiling(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= max) return step * power;
  }
  return 10 * power;
}
