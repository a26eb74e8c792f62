import { niceCeiling } from "~/lib/chart-scale";

// The account dashboard's line chart with its axes. The admin draws its
// chart with polaris-viz, which measures the page in the browser; account
// pages run no script (they also work through the app proxy), so this one
// is plain SVG for the line and HTML for the labels, which keep their size
// at any width (SVG text would shrink with a phone's screen).

interface Props {
  points: { day: string; amount: number }[];
  label: string;
  formatY: (minor: number) => string;
  formatX: (day: string) => string;
  // Minor units in one unit of the currency (100 for dollars): the axis counts whole units.
  unit: number;
}

const W = 600;
const H = 200;

export function AccountChart({ points, label, formatY, formatX, unit }: Props) {
  const top = niceCeiling(Math.max(0, ...points.map((p) => p.amount)) / unit) * unit;
  const ticks = [top, top / 2, 0];
  const step = points.length > 1 ? W / (points.length - 1) : W;
  const y = (v: number) => H - (v / top) * H;
  const path = points
    .map((p, i) => `${i === 0 ? "M" : "L"}${(i * step).toFixed(1)},${y(p.amount).toFixed(1)}`)
    .join(" ");
  const first = points[0];
  const middle = points[Math.floor((points.length - 1) / 2)];
  const last = points[points.length - 1];
  const xLabels = [first, points.length > 2 ? middle : undefined, points.length > 1 ? last : undefined].filter(
    (p): p is { day: string; amount: number } => Boolean(p),
  );
  return (
    <figure className="account-chart" aria-label={label} data-testid="account-chart">
      <div className="account-chart-y" aria-hidden="true">
        {ticks.map((v) => (
          <span key={v}>{formatY(Math.round(v))}</span>
        ))}
      </div>
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={label}>
        {ticks.map((v) => (
          <line
            key={v}
            className="portal-chart-grid"
            x1={0}
            x2={W}
            y1={y(v)}
            y2={y(v)}
            vectorEffect="non-scaling-stroke"
          />
        ))}
        <path d={path} fill="none" stroke="#008060" strokeWidth="2" vectorEffect="non-scaling-stroke" />
      </svg>
      <div className="account-chart-x" aria-hidden="true">
        {xLabels.map((p) => (
          <span key={p.day}>{formatX(p.day)}</span>
        ))}
      </div>
    </figure>
  );
}
