import { defineKind, SAMPLE_SHOP } from "../kind";

/** Refer-a-friend: the advocate's reward after a friend's order held (referrals/issue-referral-reward.server.ts). */
export default defineKind({
  key: "advocate.referral_reward",
  audience: "advocate",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    "advocate.first_name": "Jane",
    "advocate.email": "jane@example.com",
    "reward.value": "$10.00",
    "reward.code": "REF-7K3M9QXW2HRT",
  },
});
