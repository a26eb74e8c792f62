// The key that makes one person one advocate (and tells a friend who is the
// advocate in disguise): lower case, "+tag" removed everywhere, and for Gmail
// the dots of the local part removed and googlemail.com read as gmail.com,
// because Gmail delivers all of those spellings to the same inbox.

const GMAIL = new Set(["gmail.com", "googlemail.com"]);

export function emailKey(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf("@");
  if (at <= 0) return trimmed;
  let local = trimmed.slice(0, at);
  let domain = trimmed.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL.has(domain)) {
    local = local.replace(/\./g, "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}
