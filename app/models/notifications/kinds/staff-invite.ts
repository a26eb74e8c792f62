import { defineKind, SAMPLE_SHOP } from "../kind";

/** Queued by the staff screen when a member is invited. */
export default defineKind({
  key: "staff.invite",
  audience: "staff",
  transactional: true,
  variables: {
    ...SAMPLE_SHOP,
    "staff.name": "Alex Kim",
    invite_url: "https://app.example/staff/get-password?token=sample",
  },
});
