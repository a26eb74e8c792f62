import { createDb } from "../../app/db/client.server";
import { migrate } from "../../app/db/migrate.server";

/**
 * A new database (migrated) holding one shop, its default campaign and an
 * approved affiliate with `code`: what GET /r/{code} needs to redirect. For
 * tests and benchmarks that run the app on a database of their own.
 */
export async function seedClickLink(databaseUrl: string, code: string, shopName: string): Promise<void> {
  await migrate(databaseUrl);
  const db = createDb(databaseUrl);
  try {
    const slug = shopName.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const shop = await db.shop.create({
      data: {
        domain: `${slug}.myshopify.com`,
        name: shopName,
        url: `https://${slug}.example`,
        adminEmail: `owner@${slug}.example`,
      },
    });
    const campaign = await db.campaign.create({
      data: { shopId: shop.id, name: shopName, status: "active", isDefault: true },
    });
    await db.affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        email: `affiliate@${slug}.example`,
        firstName: "Click",
        lastName: "Link",
        status: "approved",
        referralCode: code,
      },
    });
  } finally {
    await db.$disconnect();
  }
}
