import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { NetworkSettings } from "~/components/networks/NetworkSettings";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { campaignLevels, networkLevel, searchNetwork } from "~/models/networks/network.server";

// Settings › Networks: the campaigns' level setup, a member search and the
// tree. It only reads: the levels are set on each campaign.
export const handle: RouteHandle = { i18n: ["Settings", "Global"], title: "Settings:tabs.networks" };

// ?parent= loads one level of the tree (lazily, from the browser), ?after=
// the next page of a level, ?q= searches members.
const query = z.object({
  parent: z.string().max(200).optional(),
  after: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
});

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings", query }, async ({ db, query }) => ({
  network: {
    level: await networkLevel(db, query.parent ?? null, query.after ?? null),
    q: query.q ?? "",
    results: query.q?.trim() ? await searchNetwork(db, query.q) : null,
    campaigns: query.parent || query.after ? [] : await campaignLevels(db),
  },
}));

export default function NetworksSettings() {
  return <NetworkSettings data={useLoaderData<typeof loader>().network} />;
}

export { RouteErrorBoundary as ErrorBoundary };
