/**
 * A DataTable cell for a sentence or a long address: Polaris keeps table
 * cells on one line, which pushed such columns out of their card (the sale's
 * "How it was computed", an affiliate's click landing pages). This one wraps,
 * and keeps a readable minimum width.
 */
export function WrappingCell({ text }: { text: string }) {
  return <div className="app-wrapping-cell">{text}</div>;
}
