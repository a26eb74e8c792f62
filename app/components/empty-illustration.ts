// Small illustrations for empty states and status screens, inline so nothing
// loads from the internet (Polaris' EmptyState wants an image; the app ships none).
const svg = (body: string) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 120 120"><circle cx="60" cy="60" r="58" fill="#f1f1f1"/>${body}</svg>`)}`;

// Two people: nobody here yet.
export const EMPTY_ILLUSTRATION = svg(
  `<circle cx="45" cy="48" r="13" fill="#b5b5b5"/><path d="M22 88c0-14 10-24 23-24s23 10 23 24z" fill="#b5b5b5"/><circle cx="78" cy="44" r="11" fill="#8a8a8a"/><path d="M58 82c0-12 9-21 20-21s20 9 20 21z" fill="#8a8a8a"/>`,
);

// A magnifying glass with a question mark: the address leads nowhere.
export const NOT_FOUND_ILLUSTRATION = svg(
  `<circle cx="52" cy="52" r="24" fill="#fff" stroke="#8a8a8a" stroke-width="7"/><path d="M69 69l20 20" stroke="#8a8a8a" stroke-width="10" stroke-linecap="round"/><path d="M45 46a7 7 0 1 1 10 6c-2 1-3 3-3 5v2" fill="none" stroke="#1a7f5a" stroke-width="4.5" stroke-linecap="round"/><circle cx="52" cy="66" r="3" fill="#1a7f5a"/>`,
);

// A padlock: this page is there, but not for this user.
export const NO_ACCESS_ILLUSTRATION = svg(
  `<path d="M44 52V42a16 16 0 0 1 32 0v10" fill="none" stroke="#6d7175" stroke-width="7"/><rect x="34" y="52" width="52" height="38" rx="7" fill="#8a8a8a"/><circle cx="60" cy="68" r="5" fill="#fff"/><path d="M60 70v9" stroke="#fff" stroke-width="4" stroke-linecap="round"/>`,
);
