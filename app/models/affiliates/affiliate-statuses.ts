// The states of an affiliate (Affiliate.status); status-transitions.ts says
// which changes between them are allowed.
export const AFFILIATE_STATUSES = ["pending", "approved", "denied", "inactive"] as const;
