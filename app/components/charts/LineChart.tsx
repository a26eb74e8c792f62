import { useState, type KeyboardEvent, type PointerEvent } from "react";
import { linePaths, nearestIndex, valueAxis, xLabelIndexes, xShare, yShare } from "~/lib/chart-scale";

// A line chart over time, drawn on the server: SVG for the line and the grid
// (stretched to its box, strokes kept at their width), HTML for the labels
// (which keep their size at any width; SVG text would shrink on a phone). It
// needs no measurement of the page, so it is in the first HTML at its final
// size, and no charting library: ADR 062.
//
// With `interactive`, a pointer over the plot, or the arrow keys once it has
// focus, shows the value of the nearest point. Screen readers get the values
// as a table. Account pages run no script and pass `interactive={false}`.

export interface LineChartProps {
  points: readonly { key: string; value: number }[];
  label: string;
  formatY: (value: number) => string;
  formatX: (key: string) => string;
  // How many of the values' units make one unit of the axis (100 cents in a dollar).
  unit?: number;
  interactive?: boolean;
  testId?: string;
}

export function LineChart({ points, label, formatY, formatX, unit = 1, interactive = true, testId }: LineChartProps) {
  const [active, setActive] = useState<number | null>(null);
  const values = points.map((p) => p.value);
  const axis = valueAxis(Math.max(0, ...values), unit);
  const paths = linePaths(values, axis.top);
  const n = points.length;
  const shown = active === null ? undefined : points[active];

  const point = (e: PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    if (box.width > 0) setActive(nearestIndex(((e.clientX - box.left) / box.width) * 100, n));
  };
  const key = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = active ?? n - 1;
    const next = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: n - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    setActive(Math.min(n - 1, Math.max(0, next)));
  };

  return (
    <figure className="line-chart" data-testid={testId} data-chart-points={n}>
      <div className="line-chart-y" aria-hidden="true">
        {[...axis.ticks].reverse().map((v) => (
          <span key={v}>{formatY(v)}</span>
        ))}
      </div>
      <div
        className="line-chart-plot"
        {...(interactive && n
          ? {
              tabIndex: 0,
              role: "group",
              "aria-label": label,
              onPointerMove: point,
              onPointerDown: point,
              onPointerLeave: () => setActive(null),
              onFocus: () => setActive((a) => a ?? n - 1),
              onBlur: () => setActive(null),
              onKeyDown: key,
            }
          : {})}
      >
        <svg viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
          {axis.ticks.map((v) => (
            <line
              key={v}
              className="line-chart-grid"
              x1={0}
              x2={100}
              y1={yShare(v, axis.top)}
              y2={yShare(v, axis.top)}
              vectorEffect="non-scaling-stroke"
            />
          ))}
          <path className="line-chart-area" d={paths.area} />
          <path className="line-chart-line" d={paths.line} vectorEffect="non-scaling-stroke" />
        </svg>
        {shown && active !== null ? (
          <ChartTip
            x={xShare(active, n)}
            y={yShare(shown.value, axis.top)}
            title={formatX(shown.key)}
            value={formatY(shown.value)}
          />
        ) : null}
      </div>
      <div className="line-chart-x" aria-hidden="true">
        {xLabelIndexes(n).map((i, j, all) => (
          <span
            key={points[i]!.key}
            style={{ left: `${xShare(i, n)}%` }}
            data-edge={edge(i, n)}
            // On a narrow chart only the ends and the middle keep their label.
            data-minor={j === 0 || j === all.length - 1 || j * 2 === all.length - 1 ? undefined : ""}
          >
            {formatX(points[i]!.key)}
          </span>
        ))}
      </div>
      <table className="line-chart-table">
        <caption>{label}</caption>
        <tbody>
          {points.map((p) => (
            <tr key={p.key}>
              <th scope="row">{formatX(p.key)}</th>
              <td>{formatY(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function ChartTip({ x, y, title, value }: { x: number; y: number; title: string; value: string }) {
  return (
    <>
      <div className="line-chart-guide" style={{ left: `${x}%` }} />
      <div className="line-chart-dot" style={{ left: `${x}%`, top: `${y}%` }} />
      <div
        className="line-chart-tip"
        role="status"
        style={{
          left: `${x}%`,
          top: `${y}%`,
          // Kept inside the plot: beside the point near an edge, below it near the top.
          transform: `translate(${x < 15 ? "0" : x > 85 ? "-100%" : "-50%"}, ${y < 35 ? "12px" : "calc(-100% - 12px)"})`,
        }}
      >
        <span>{title}</span>
        <strong>{value}</strong>
      </div>
    </>
  );
}

// The end labels sit inside the plot's width instead of centred on their point.
function edge(i: number, n: number): "start" | "end" | undefined {
  if (n > 1 && i === 0) return "start";
  if (n > 1 && i === n - 1) return "end";
  return undefined;
}
