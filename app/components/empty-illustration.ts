// A small illustration for empty states, inline so nothing loads from the
// internet (Polaris' EmptyState wants an image; the app ships none).
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 120 120"><circle cx="60" cy="60" r="58" fill="#f1f1f1"/><circle cx="45" cy="48" r="13" fill="#b5b5b5"/><path d="M22 88c0-14 10-24 23-24s23 10 23 24z" fill="#b5b5b5"/><circle cx="78" cy="44" r="11" fill="#8a8a8a"/><path d="M58 82c0-12 9-21 20-21s20 9 20 21z" fill="#8a8a8a"/></svg>`;

export const EMPTY_ILLUSTRATION = `data:image/svg+xml,${encodeURIComponent(SVG)}`;
