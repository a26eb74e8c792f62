import { randomUUID } from "node:crypto";
import { newToken } from "../../auth/single-use-token";
import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { portalUrl } from "../notification-values.server";

/** How long the link of an affiliate's invite works. */
export const AFFILIATE_INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Added by hand in the admin: an invite with a link to set a password. */
export default defineKind({
  key: "affiliate.invite",
  audience: "affiliate",
  transactional: true,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    invite_url: "https://app.example/portal/aurora-candles/reset?token=sample",
  },
  on: {
    "affiliate.created": {
      values: ({ event, shop, affiliate, writeWithMail }) => {
        if (event.data.source !== "admin") return null;
        // A long-lived reset token, stored with the e-mail and only if the e-mail is.
        const { token, tokenHash, expiresAt } = newToken(AFFILIATE_INVITE_TTL_MS);
        writeWithMail((writer) =>
          writer.insertRows("AffiliateToken", [
            {
              id: randomUUID(),
              affiliateId: affiliate.id,
              purpose: "reset",
              tokenHash,
              expiresAt,
              usedAt: null,
              createdAt: new Date(),
            },
          ]),
        );
        return { invite_url: `${portalUrl(shop)}/reset?token=${token}` };
      },
    },
  },
});
