import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";

export default defineKind({
  key: "affiliate.denied",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE },
  bulk: { "affiliate.denied": () => ({}) },
});
