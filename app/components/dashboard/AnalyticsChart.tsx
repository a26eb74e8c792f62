import { SkeletonBodyText } from "@shopify/polaris";
import { lazy, Suspense, useEffect, useState } from "react";

// The chart over time, drawn by @shopify/polaris-viz (Shopify's own charting
// library for Polaris). It measures the DOM to lay itself out, so it is drawn
// in the browser only: the server sends a skeleton of the same height, and
// the library loads as its own chunk (nothing from the internet).

const Chart = lazy(() =>
  import("@shopify/polaris-viz").then((viz) => ({
    default: function PolarisVizChart({ name, points, formatY, formatX }: ChartProps) {
      return (
        <viz.PolarisVizProvider>
          <viz.LineChart
            theme="Light"
            isAnimated={false}
            showLegend={false}
            data={[{ name, data: points.map((p) => ({ key: p.key, value: p.value })) }]}
            xAxisOptions={{ labelFormatter: (value) => formatX(String(value ?? "")) }}
            yAxisOptions={{ labelFormatter: (value) => formatY(Number(value ?? 0)) }}
          />
        </viz.PolarisVizProvider>
      );
    },
  })),
);

interface ChartProps {
  name: string;
  points: { key: string; value: number }[];
  formatY: (value: number) => string;
  formatX: (key: string) => string;
}

export function AnalyticsChart(props: ChartProps) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const placeholder = <SkeletonBodyText lines={8} />;
  return (
    <div style={{ height: 260 }} data-chart-points={props.points.length}>
      {mounted ? <Suspense fallback={placeholder}>{<Chart {...props} />}</Suspense> : placeholder}
    </div>
  );
}
