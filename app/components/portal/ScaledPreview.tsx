import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * Shows its children laid out at `width` CSS pixels and scaled down to fit
 * the space it has, so a desktop-wide page fits the editor's column and a
 * 390 px one is shown as a phone lays it out. The portal's narrow layout
 * follows its frame's width (a container query), not the window's.
 */
export function ScaledPreview({ width, children }: { width: number; children: ReactNode }) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState({ available: width, height: 0, measured: false });

  useEffect(() => {
    const o = outer.current;
    const i = inner.current;
    if (!o || !i || typeof ResizeObserver === "undefined") return;
    const measure = () => setBox({ available: o.clientWidth, height: i.offsetHeight, measured: true });
    const observer = new ResizeObserver(measure);
    observer.observe(o);
    observer.observe(i);
    measure();
    return () => observer.disconnect();
  }, []);

  const scale = Math.min(1, box.available / width);
  return (
    // Until measured the page would stick out of the column: hidden. Once
    // scaled it fits, and nothing is cut off (the scaled box is what counts
    // for overflow, not the wide one it was laid out in).
    <div
      ref={outer}
      style={{
        width: "100%",
        overflow: box.measured ? "visible" : "hidden",
        height: box.height ? box.height * scale : undefined,
      }}
    >
      <div
        ref={inner}
        data-preview-width={width}
        style={{
          width,
          transform: scale < 1 ? `scale(${scale})` : undefined,
          transformOrigin: "top left",
          marginInline: scale < 1 ? undefined : "auto",
          background: "var(--p-color-bg)",
        }}
      >
        {children}
      </div>
    </div>
  );
}
