// Proof that a merchant controls a custom portal domain: a DNS TXT record
// that only the domain's owner can publish. It lives on a name of its own
// under the domain, because the domain itself is usually a CNAME to the app,
// and DNS allows no other record next to a CNAME.

export const PROOF_LABEL = "_affiliate-portal";
export const PROOF_PREFIX = "affiliate-portal-verification=";

export interface ProofRecord {
  /** Where the TXT record goes. */
  name: string;
  /** What it must say. */
  value: string;
}

export function proofRecord(host: string, token: string): ProofRecord {
  return { name: `${PROOF_LABEL}.${host}`, value: `${PROOF_PREFIX}${token}` };
}

/**
 * Whether the TXT records found carry the expected value. A TXT record is a
 * list of strings of at most 255 bytes each, which DNS tools join; so do we.
 * Surrounding spaces and quotes (pasted from a DNS console) are forgiven.
 */
export function proofFound(records: string[][], expected: string): boolean {
  return records.some((chunks) => chunks.join("").trim().replace(/^"|"$/g, "").trim() === expected);
}
