// The demo shop's logins in the pages benchmark (bench-servers.ts seeds them).
export const DEMO_PASSWORD = "bench demo password 123";
export const DEMO_AFFILIATE_EMAIL = "bench-affiliate@demo.example";
