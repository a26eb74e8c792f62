// A friend's e-mail as the advocate sees it on their page: enough to
// recognize a friend they invited, not enough to learn an address they did
// not know ("an***@ex***.com").
export function maskEmail(email: string | null | undefined): string {
  const value = (email ?? "").trim();
  const at = value.lastIndexOf("@");
  if (at <= 0) return value ? "***" : "";
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : "";
  const keep = (s: string, n: number) => `${[...s].slice(0, Math.min(n, Math.max(1, [...s].length - 1))).join("")}***`;
  return `${keep(local, 2)}@${keep(host, 2)}${tld}`;
}
