// The template-style twin of the pages benchmark (issue 33): the admin's
// sales list and dashboard written as a minimal Remix app would write them,
// the floor the app's pages are measured against. Nothing of it ships.
//
// A real Remix app, assembled by hand instead of by the compiler: a
// ServerBuild (entry, root route, one route per page) served by
// @remix-run/node's request handler behind Express with compression, as
// `remix-serve` serves Shopify's app template. Each page has one route: a
// loader with the same Prisma reads as the app's loader, on the same client
// and database, and a component with the same Polaris tree, English literals
// inline. What it leaves out is what the app adds on top of the template: no
// door (no session, user or permission check, no shop-scoped client), no
// i18n, no security headers, no request log. The shop is found by its domain
// (an admin session would name it).
//
// The document is rendered with renderToString, as the app's entry does
// (ADR 025), so the ratio measures the app's own costs and not a renderer
// choice (the template's streaming renderer costs more). The client script
// tags name the app's own bundles: the twin's document carries as many
// modulepreload links as the app's.
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
  type EntryContext,
  type LoaderFunctionArgs,
  type ServerBuild,
} from "@remix-run/node";
import {
  Link as RemixLink,
  Links,
  Meta,
  Outlet,
  RemixServer,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useNavigate,
} from "@remix-run/react";
import {
  AppProvider,
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  ButtonGroup,
  Card,
  ChoiceList,
  FormLayout,
  Frame,
  Icon,
  IndexFilters,
  IndexTable,
  InlineGrid,
  InlineStack,
  Layout,
  Link,
  List,
  Navigation,
  Page,
  ProgressBar,
  Select,
  SkeletonBodyText,
  Text,
  TextField,
  TopBar,
  useIndexResourceState,
  useSetIndexFiltersMode,
} from "@shopify/polaris";
import { CheckCircleIcon } from "@shopify/polaris-icons";
import en from "@shopify/polaris/locales/en.json";
import compression from "compression";
import express from "express";
import { forwardRef, useEffect, useState, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createDb } from "../../app/db/client.server";
import { getDashboardData } from "../../app/models/dashboard/dashboard-totals.server";

const db = createDb(process.env.DATABASE_URL!);
const SHOP_DOMAIN = process.env.DEMO_SHOP ?? "demo-store.myshopify.com";
const APP_URL = process.env.SHOPIFY_APP_URL ?? "http://127.0.0.1:3000";

// ---- formatting (one Intl formatter per currency or zone, as any app keeps them)

const moneyFormats = new Map<string, Intl.NumberFormat>();
function money(minor: number, currency: string) {
  let f = moneyFormats.get(currency);
  if (!f) moneyFormats.set(currency, (f = new Intl.NumberFormat("en-US", { style: "currency", currency })));
  return f.format(minor / 100);
}
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function day(iso: string | Date, timeZone: string) {
  let f = dateFormats.get(timeZone);
  if (!f) dateFormats.set(timeZone, (f = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone })));
  return f.format(new Date(iso));
}
const count = new Intl.NumberFormat("en-US");

// ---- the shell (the app's AdminShell, standalone mode)

const MENU: [label: string, path: string][] = [
  ["Campaigns", "campaigns"],
  ["Affiliates", "affiliates"],
  ["Sales", "sales"],
  ["Payouts", "payouts"],
  ["Portals", "portals"],
  ["Bonuses", "bonuses"],
  ["Creatives", "creatives"],
  ["Notifications", "mails"],
  ["Settings", "settings"],
  ["Referrals", "referrals"],
  ["Pricing", "plans"],
  ["Contact us", "contact-us"],
];

function Shell({ shopName, children }: { shopName: string; children: ReactNode }) {
  const { pathname } = useLocation();
  const [userMenuOpen, setUserMenuOpen] = useState(false);
  const [mobileNavOpen, setMobileNavOpen] = useState(false);
  const navigation = (
    <Navigation location={pathname} onDismiss={() => setMobileNavOpen(false)}>
      <Navigation.Section
        items={[
          { label: "Dashboard", url: "/admin/dashboard", exactMatch: true },
          ...MENU.map(([label, path]) => ({
            label,
            url: `/admin/${path}`,
            matches: pathname === `/admin/${path}` || pathname.startsWith(`/admin/${path}/`),
          })),
        ]}
      />
    </Navigation>
  );
  const topBar = (
    <TopBar
      showNavigationToggle
      onNavigationToggle={() => setMobileNavOpen((v) => !v)}
      userMenu={
        <TopBar.UserMenu
          name="Admin"
          detail={shopName}
          initials="A"
          open={userMenuOpen}
          onToggle={() => setUserMenuOpen((v) => !v)}
          actions={[{ items: [{ content: "Log out", url: "/logout" }] }]}
        />
      }
    />
  );
  return (
    <Frame
      topBar={topBar}
      navigation={navigation}
      showMobileNavigation={mobileNavOpen}
      onNavigationDismiss={() => setMobileNavOpen(false)}
    >
      {children}
    </Frame>
  );
}

/** Polaris's links through Remix's router; links leaving the app open in a new tab. */
const TwinLink = forwardRef<HTMLAnchorElement, { url: string; external?: boolean; children?: ReactNode }>(
  function TwinLink({ url, external, children, ...rest }, ref) {
    if (external || /^https?:/.test(url))
      return (
        <a {...rest} ref={ref} href={url} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    return (
      <RemixLink {...rest} ref={ref} to={url}>
        {children}
      </RemixLink>
    );
  },
);

// ---- the sales list

const TABS = ["all", "pending", "approved", "denied", "paid", "void"] as const;
const STATUS: Record<string, [label: string, tone?: "success" | "attention" | "critical" | "info"]> = {
  pending: ["Pending", "attention"],
  approved: ["Approved", "success"],
  denied: ["Denied", "critical"],
  paid: ["Paid", "info"],
  void: ["Void"],
  refunded: ["Refunded"],
  uncredited: ["Not credited"],
};
const SOURCES: Record<string, string> = {
  coupon: "Coupon",
  link: "Referral link",
  pixel: "Checkout pixel",
  lifetime: "Lifetime customer",
  none: "Not credited",
  subscription: "Subscription renewal",
  claim: "Claim",
};
const PAGE_SIZE = 25;

async function shopOf() {
  return db.shop.findUniqueOrThrow({ where: { domain: SHOP_DOMAIN } });
}

async function salesLoader() {
  const shop = await shopOf();
  // The app's first page of the list: newest first, one row more to know
  // whether there is a next page, the page's commissions summed, and the
  // count of open claims.
  const [orders, openClaims] = await Promise.all([
    db.order.findMany({
      where: { shopId: shop.id },
      orderBy: [{ placedAt: "desc" }, { id: "desc" }],
      take: PAGE_SIZE + 1,
      select: {
        id: true,
        name: true,
        placedAt: true,
        currency: true,
        total: true,
        refundedAmount: true,
        status: true,
        attributionSource: true,
        affiliate: { select: { firstName: true, lastName: true, referralCode: true } },
      },
    }),
    db.orderClaim.count({ where: { shopId: shop.id, status: "open" } }),
  ]);
  const rows = orders.slice(0, PAGE_SIZE);
  const sums = await db.commission.groupBy({
    by: ["orderId"],
    where: { shopId: shop.id, orderId: { in: rows.map((r) => r.id) }, status: { notIn: ["void", "denied"] } },
    _sum: { amount: true },
  });
  const commissionOf = new Map(sums.map((s) => [s.orderId, s._sum.amount ?? 0]));
  const last = rows[rows.length - 1];
  return {
    shop: { name: shop.name, timezone: shop.timezone },
    sales: rows.map((row) => {
      const refunded = row.total > 0 && row.refundedAmount >= row.total;
      return {
        id: row.id,
        name: row.name,
        placedAt: row.placedAt.toISOString(),
        currency: row.currency,
        total: row.total,
        status: !row.affiliate
          ? "uncredited"
          : refunded && (row.status === "pending" || row.status === "approved")
            ? "refunded"
            : row.status,
        source: row.attributionSource,
        affiliate: row.affiliate
          ? {
              name: `${row.affiliate.firstName} ${row.affiliate.lastName}`.trim(),
              code: row.affiliate.referralCode,
            }
          : null,
        commission: commissionOf.get(row.id) ?? 0,
      };
    }),
    after: orders.length > PAGE_SIZE && last ? `${last.placedAt.getTime()}_${last.id}` : null,
    openClaims,
  };
}

function SalesPage() {
  const { shop, sales, after, openClaims } = useLoaderData<typeof salesLoader>();
  const navigate = useNavigate();
  const { mode, setMode } = useSetIndexFiltersMode();
  const [query, setQuery] = useState("");
  const [source, setSource] = useState<string[]>([]);
  const { selectedResources, allResourcesSelected, handleSelectionChange } = useIndexResourceState(sales);
  return (
    <Shell shopName={shop.name}>
      <Page
        title="Sales"
        subtitle={`Times in ${shop.timezone}`}
        secondaryActions={[
          { content: openClaims ? `Claims (${openClaims} open)` : "Claims", url: "/admin/sales/claims" },
          { content: "Sales by sub-ID", url: "/admin/sales/sub-ids" },
          { content: "Leaked codes", url: "/admin/sales/leaks" },
          { content: "Export CSV", onAction: () => {} },
        ]}
      >
        <Card padding="0">
          <IndexFilters
            queryValue={query}
            queryPlaceholder="Search by affiliate code, e-mail or name"
            onQueryChange={setQuery}
            onQueryClear={() => setQuery("")}
            tabs={TABS.map((tab, index) => ({
              id: tab,
              index,
              content: tab === "all" ? "All" : STATUS[tab]![0],
              isLocked: true,
            }))}
            selected={0}
            onSelect={() => {}}
            filters={[
              {
                key: "source",
                label: "Source",
                filter: (
                  <ChoiceList
                    title="Source"
                    titleHidden
                    choices={Object.entries(SOURCES).map(([value, label]) => ({ label, value }))}
                    selected={source}
                    onChange={setSource}
                  />
                ),
                shortcut: true,
              },
              {
                key: "date",
                label: "Date",
                filter: (
                  <FormLayout>
                    <TextField label="From" type="date" autoComplete="off" value="" onChange={() => {}} />
                    <TextField label="To" type="date" autoComplete="off" value="" onChange={() => {}} />
                  </FormLayout>
                ),
                shortcut: true,
              },
            ]}
            appliedFilters={[]}
            onClearAll={() => setQuery("")}
            mode={mode}
            setMode={setMode}
            canCreateNewView={false}
            cancelAction={{ onAction: () => setQuery("") }}
            loading={false}
          />
          <IndexTable
            resourceName={{ singular: "sale", plural: "sales" }}
            itemCount={sales.length}
            selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
            onSelectionChange={handleSelectionChange}
            promotedBulkActions={[
              { content: "Approve", onAction: () => {} },
              { content: "Deny", onAction: () => {} },
            ]}
            loading={false}
            emptyState={
              <Box padding="800">
                <BlockStack gap="200" inlineAlign="center">
                  <Text as="p" variant="headingMd">
                    No sales match these filters
                  </Text>
                  <Text as="p" tone="subdued">
                    Orders appear here as the store sends them, whether an affiliate was credited or not.
                  </Text>
                </BlockStack>
              </Box>
            }
            headings={[
              { title: "Order" },
              { title: "Date" },
              { title: "Affiliate" },
              { title: "Source" },
              { title: "Status" },
              { title: "Total", alignment: "end" },
              { title: "Commission", alignment: "end" },
            ]}
            pagination={{ hasNext: Boolean(after), hasPrevious: false, onNext: () => {}, onPrevious: () => {} }}
          >
            {sales.map((sale, index) => {
              const [label, tone] = STATUS[sale.status] ?? [sale.status];
              return (
                <IndexTable.Row
                  id={sale.id}
                  key={sale.id}
                  position={index}
                  selected={selectedResources.includes(sale.id)}
                  onClick={() => navigate(`/admin/sales/${sale.id}`)}
                >
                  <IndexTable.Cell>
                    <Link url={`/admin/sales/${sale.id}`} removeUnderline monochrome dataPrimaryLink>
                      <Text as="span" fontWeight="semibold">
                        {sale.name}
                      </Text>
                    </Link>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{day(sale.placedAt, shop.timezone)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    {sale.affiliate ? `${sale.affiliate.name} (${sale.affiliate.code})` : "—"}
                  </IndexTable.Cell>
                  <IndexTable.Cell>{SOURCES[sale.source] ?? sale.source}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={tone}>{label}</Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell className="app-numeric-cell">{money(sale.total, sale.currency)}</IndexTable.Cell>
                  <IndexTable.Cell className="app-numeric-cell">
                    {money(sale.commission, sale.currency)}
                  </IndexTable.Cell>
                </IndexTable.Row>
              );
            })}
          </IndexTable>
        </Card>
      </Page>
    </Shell>
  );
}

// ---- the dashboard

const PRESETS: [value: string, label: string][] = [
  ["all", "All days"],
  ["today", "Today"],
  ["yesterday", "Yesterday"],
  ["last7", "Last 7 days"],
  ["last30", "Last 30 days"],
  ["last90", "Last 90 days"],
  ["lastMonth", "Last month"],
  ["lastYear", "Last year"],
  ["weekToDate", "Week to date"],
  ["monthToDate", "Month to date"],
  ["yearToDate", "Year to date"],
];

const SETUP: { key: string; title: string; body: string; action: string; screen: string }[] = [
  {
    key: "appEmbed",
    title: "Turn on the tracking app embed",
    body: "In the theme editor, open App embeds and switch on “Affiliate tracking”. This ticks once the first referred visit or sale is tracked through it.",
    action: "Open the theme editor",
    screen: "themeEditor",
  },
  {
    key: "campaign",
    title: "Create your first campaign",
    body: "Set the commission, the cookie window and how sign-ups are approved.",
    action: "Open campaigns",
    screen: "campaigns",
  },
  {
    key: "portal",
    title: "Publish your affiliate portal",
    body: "Edit the landing, sign-up or login page affiliates see, and publish it.",
    action: "Open portals",
    screen: "portals",
  },
  {
    key: "payoutMethod",
    title: "Choose how you pay affiliates",
    body: "Save the payout method, the minimum and the schedule in Settings › Payment.",
    action: "Open payment settings",
    screen: "settings/payment",
  },
  {
    key: "affiliateApproved",
    title: "Approve your first affiliate",
    body: "Approve a sign-up, or add an affiliate yourself.",
    action: "Open affiliates",
    screen: "affiliates",
  },
  {
    key: "firstSale",
    title: "Get your first referred sale",
    body: "This ticks when an order is credited to an affiliate.",
    action: "Open sales",
    screen: "sales",
  },
];

const HELPFUL: [path: string, label: string][] = [
  ["campaigns", "Set commission rates and approval rules"],
  ["affiliates", "Approve and manage affiliates"],
  ["portals", "Edit your affiliate landing, sign-up and login pages"],
  ["creatives", "Upload banners and images for affiliates"],
  ["settings", "Branding, payments and integrations"],
];

const FEATURES: [title: string, description: string, path: string][] = [
  ["Portal pages", "Your own landing, sign-up and login pages for affiliates.", "portals"],
  [
    "Multi-level marketing with level setup",
    "Affiliates who recruit others earn a share of their sales, level by level.",
    "campaigns",
  ],
  ["Creatives", "Banners and product images affiliates can download.", "creatives"],
  ["Custom domain", "Serve the affiliate portal on your own domain.", "settings/marketings"],
  ["Payouts through PayPal", "Pay many affiliates at once with PayPal Payouts.", "paypal/connect"],
  ["Referrals reward", "Reward customers who refer friends with discount codes.", "referrals"],
];

const FAQ: [question: string, answer: string][] = [
  [
    "When does a sale count on the dashboard?",
    "When an order is credited to an affiliate (a referral link, coupon or returning referred customer). Denied and cancelled sales are left out; refunds lower the revenue and commission of the day the order was placed.",
  ],
  [
    "Why does a click not show as a sale?",
    "A sale needs an order within the campaign's cookie window, with the tracking app embed on in your live theme. Each sale page says why an order was or was not credited.",
  ],
  [
    "Which time zone do the date ranges use?",
    "Your store's time zone, so Today and Yesterday match your Shopify reports. Weeks start on Monday.",
  ],
  [
    "How are commissions paid?",
    "Approved commissions wait in Payouts, grouped per affiliate. Pay them by hand (mark as paid, CSV export) or through PayPal Payouts.",
  ],
];

async function dashboardLoader({ request }: LoaderFunctionArgs) {
  const preset = new URL(request.url).searchParams.get("preset") || "last30";
  if (!PRESETS.some(([value]) => value === preset)) throw new Response("Unknown date range", { status: 400 });
  const shop = await shopOf();
  // The app's reads: the dashboard's figures (its own SQL, through the same
  // client) and what the setup guide ticks.
  const [data, embedClick, linkOrder, campaign, portal, affiliate, sale] = await Promise.all([
    getDashboardData(shop, preset as "last30", new Date(), db),
    db.click.findFirst({ where: { shopId: shop.id, source: "proxy" }, select: { id: true } }),
    db.order.findFirst({ where: { shopId: shop.id, attributionSource: "link" }, select: { id: true } }),
    db.campaign.findFirst({ where: { shopId: shop.id }, select: { id: true } }),
    db.portalPage.findFirst({ where: { shopId: shop.id, publishedAt: { not: null } }, select: { id: true } }),
    db.affiliate.findFirst({ where: { shopId: shop.id, status: "approved" }, select: { id: true } }),
    db.order.findFirst({ where: { shopId: shop.id, affiliateId: { not: null } }, select: { id: true } }),
  ]);
  const settings = JSON.parse(shop.settings || "{}") as { payment?: unknown; setupGuide?: { dismissedAt?: string } };
  const done: Record<string, boolean> = {
    appEmbed: Boolean(embedClick || linkOrder),
    campaign: Boolean(campaign),
    portal: Boolean(portal),
    payoutMethod: settings.payment !== undefined && settings.payment !== null,
    affiliateApproved: Boolean(affiliate),
    firstSale: Boolean(sale),
  };
  const handle = shop.domain.replace(/\.myshopify\.com$/, "");
  return {
    shop: { name: shop.name, currency: shop.currency, timezone: shop.timezone, url: shop.url },
    preset,
    analytics: data.analytics,
    pending: data.pending,
    hasCampaigns: data.hasCampaigns,
    links: {
      landing: `${APP_URL}/portal/${handle}`,
      signup: `${APP_URL}/portal/${handle}/signup`,
      login: `${APP_URL}/portal/${handle}/login`,
    },
    themeEditorUrl: `https://${shop.domain}/admin/themes/current/editor?context=apps&activateAppId=twin/tracking-embed`,
    setup: {
      steps: SETUP.map((s) => ({ key: s.key, done: done[s.key]! })),
      dismissed: Boolean(settings.setupGuide?.dismissedAt),
    },
  };
}

/** Shown in the browser only (a dismissed banner must not flash), like the app's. */
function ClientBanner({ title, children }: { title: string; children: ReactNode }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => setVisible(true), []);
  return visible ? (
    <Banner title={title} onDismiss={() => setVisible(false)}>
      {children}
    </Banner>
  ) : null;
}

function Tile({ label, value }: { label: string; value: string }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="heading2xl">
          {value}
        </Text>
      </BlockStack>
    </Card>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <TextField
      label={label}
      value={value}
      readOnly
      autoComplete="off"
      connectedRight={
        <InlineStack gap="200" blockAlign="center">
          <Button
            onClick={() => void navigator.clipboard.writeText(value).then(() => setCopied(true))}
            accessibilityLabel={`Copy the ${label} link`}
          >
            Copy
          </Button>
          {copied ? (
            <Text as="span" tone="success">
              Copied
            </Text>
          ) : null}
        </InlineStack>
      }
    />
  );
}

function SetupGuide({ steps, themeEditorUrl }: { steps: { key: string; done: boolean }[]; themeEditorUrl: string }) {
  const done = steps.filter((s) => s.done).length;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <Text as="h2" variant="headingMd">
            Setup guide
          </Text>
          <Button variant="plain">Hide guide</Button>
        </InlineStack>
        <BlockStack gap="100">
          <Text as="p" tone="subdued">
            {`${done} of ${steps.length} steps done`}
          </Text>
          <ProgressBar progress={(done / steps.length) * 100} size="small" tone="success" />
        </BlockStack>
        <BlockStack gap="0">
          {steps.map((step) => {
            const text = SETUP.find((s) => s.key === step.key)!;
            return (
              <Box key={step.key} paddingBlock="200" borderBlockStartWidth="025" borderColor="border-secondary">
                <InlineStack gap="300" wrap={false} blockAlign="start" align="space-between">
                  <InlineStack gap="200" wrap={false} blockAlign="start">
                    <span aria-label={step.done ? "Done" : "To do"} role="img">
                      {step.done ? (
                        <Icon source={CheckCircleIcon} tone="success" />
                      ) : (
                        <span
                          style={{
                            display: "block",
                            width: 16,
                            height: 16,
                            margin: 2,
                            borderRadius: "50%",
                            border: "1.5px dashed #8a8a8a",
                          }}
                        />
                      )}
                    </span>
                    <BlockStack gap="050">
                      <Text as="h3" fontWeight="semibold" tone={step.done ? "subdued" : undefined}>
                        {text.title}
                      </Text>
                      {step.done ? null : (
                        <Text as="p" tone="subdued">
                          {text.body}
                        </Text>
                      )}
                    </BlockStack>
                  </InlineStack>
                  {step.done ? null : (
                    <Button
                      url={text.screen === "themeEditor" ? themeEditorUrl : `/admin/${text.screen}`}
                      external={text.screen === "themeEditor"}
                    >
                      {text.action}
                    </Button>
                  )}
                </InlineStack>
              </Box>
            );
          })}
        </BlockStack>
      </BlockStack>
    </Card>
  );
}

const plural = (n: number, one: string, other: string) => `${n} ${n === 1 ? one : other}`;

function DashboardPage() {
  const { shop, preset, analytics, pending, hasCampaigns, links, themeEditorUrl, setup } =
    useLoaderData<typeof dashboardLoader>();
  const [metric, setMetric] = useState<"revenue" | "commission" | "sales" | "clicks">("revenue");
  const totals = analytics.totals;
  const lastDay = new Date(new Date(analytics.range.end).getTime() - 1);
  const complete = setup.steps.every((s) => s.done);
  return (
    <Shell shopName={shop.name}>
      <Page title="Dashboard">
        <Layout>
          <Layout.Section>
            <BlockStack gap="300">
              {hasCampaigns ? null : <ClientBanner title="Welcome">Create your first campaign.</ClientBanner>}
              {setup.dismissed || complete ? null : <SetupGuide steps={setup.steps} themeEditorUrl={themeEditorUrl} />}
            </BlockStack>
          </Layout.Section>
          <Layout.Section>
            <InlineStack align="space-between" blockAlign="end" gap="300">
              <div style={{ minWidth: 220 }}>
                <Select
                  id="preset"
                  label="Date range"
                  options={PRESETS.map(([value, label]) => ({ label, value }))}
                  value={preset}
                  onChange={() => {}}
                />
              </div>
              <Text as="p" tone="subdued">
                {`${day(analytics.range.start, shop.timezone)} – ${day(lastDay, shop.timezone)} (${shop.timezone})`}
              </Text>
            </InlineStack>
          </Layout.Section>
          <Layout.Section>
            <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
              <Tile label="Total revenue" value={money(totals.revenue, shop.currency)} />
              <Tile label="Total commission" value={money(totals.commission, shop.currency)} />
              <Tile label="Total sales" value={count.format(totals.sales)} />
              <Tile label="Clicks" value={count.format(totals.clicks)} />
            </InlineGrid>
          </Layout.Section>
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    Over time ·{" "}
                    {analytics.granularity === "hour"
                      ? "Per hour"
                      : analytics.granularity === "day"
                        ? "Per day"
                        : "Per month"}
                  </Text>
                  <ButtonGroup variant="segmented">
                    {(["revenue", "commission", "sales", "clicks"] as const).map((m) => (
                      <Button key={m} pressed={metric === m} onClick={() => setMetric(m)}>
                        {m[0]!.toUpperCase() + m.slice(1)}
                      </Button>
                    ))}
                  </ButtonGroup>
                </InlineStack>
                {/* The chart is drawn in the browser; the server sends its skeleton. */}
                <div style={{ height: 260 }}>
                  <SkeletonBodyText lines={8} />
                </div>
                <Text as="p" tone="subdued">
                  Sales credited to affiliates, placed in the range, not denied or cancelled; revenue is their subtotal
                  less refunds.
                </Text>
              </BlockStack>
            </Card>
          </Layout.Section>
          <Layout.Section variant="oneHalf">
            <BlockStack gap="400">
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Waiting for approval
                  </Text>
                  <Link url="/admin/sales?status=pending">
                    {plural(pending.sales, "sale waiting for approval", "sales waiting for approval")}
                  </Link>
                  <Link url="/admin/affiliates?status=pending">
                    {plural(pending.affiliates, "affiliate waiting for approval", "affiliates waiting for approval")}
                  </Link>
                  <Link url="/admin/payouts">
                    {pending.commissionsMore
                      ? `${pending.commissions}+ commissions waiting for payment`
                      : plural(
                          pending.commissions,
                          "commission waiting for payment",
                          "commissions waiting for payment",
                        )}
                  </Link>
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Links for affiliates
                  </Text>
                  <Text as="p" tone="subdued">
                    Share these pages so people can join your affiliate program and log in to their account.
                  </Text>
                  <CopyField label="Landing page" value={links.landing} />
                  <CopyField label="Sign-up page" value={links.signup} />
                  <CopyField label="Login page" value={links.login} />
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Quick help
                  </Text>
                  <InlineStack gap="200">
                    <Button onClick={() => {}}>Live chat</Button>
                    <Button url={`mailto:support@example.com?subject=Dashboard%20help&body=${shop.url}`}>
                      E-mail support
                    </Button>
                    <Button url="/admin/help">Help docs</Button>
                  </InlineStack>
                </BlockStack>
              </Card>
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneHalf">
            <BlockStack gap="400">
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Get found by affiliates
                  </Text>
                  <Text as="p">
                    List your program in the affiliate marketplace so creators looking for brands like yours can apply.
                  </Text>
                  <InlineStack>
                    <Button url="/admin/settings/marketplace">Marketplace settings</Button>
                  </InlineStack>
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Helpful Links
                  </Text>
                  {HELPFUL.map(([path, label]) => (
                    <Link key={path} url={`/admin/${path}`}>
                      {label}
                    </Link>
                  ))}
                </BlockStack>
              </Card>
            </BlockStack>
          </Layout.Section>
          <Layout.Section>
            <BlockStack gap="400">
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Features
                  </Text>
                  <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="300">
                    {FEATURES.map(([title, description, path]) => (
                      <Box key={path} padding="300" borderColor="border" borderWidth="025" borderRadius="200">
                        <BlockStack gap="100">
                          <Text as="h3" variant="headingSm">
                            {title}
                          </Text>
                          <Text as="p" tone="subdued">
                            {description}
                          </Text>
                          <Link url={`/admin/${path}`}>Open</Link>
                        </BlockStack>
                      </Box>
                    ))}
                  </InlineGrid>
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    FAQs
                  </Text>
                  {FAQ.map(([question, answer]) => (
                    <BlockStack gap="100" key={question}>
                      <Text as="h3" variant="headingSm">
                        {question}
                      </Text>
                      <Text as="p" tone="subdued">
                        {answer}
                      </Text>
                    </BlockStack>
                  ))}
                </BlockStack>
              </Card>
              <ClientBanner title="Recommended apps">
                <List>
                  <List.Item>Apps that work well with affiliate programs.</List.Item>
                </List>
              </ClientBanner>
            </BlockStack>
          </Layout.Section>
        </Layout>
      </Page>
    </Shell>
  );
}

// ---- the document and the build

// Polaris's and the app's stylesheets, as the app's root links them.
const STYLESHEETS = ["polaris", "app"].map((name) => ({ rel: "stylesheet", href: `/build/_assets/${name}.css` }));

function Root() {
  return (
    <html lang="en" dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <AppProvider i18n={en} linkComponent={TwinLink}>
          <Outlet />
        </AppProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function handleRequest(request: Request, status: number, headers: Headers, context: EntryContext) {
  const html = renderToString(<RemixServer context={context} url={request.url} />);
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response("<!DOCTYPE html>" + html, { status, headers });
}

/**
 * The twin's ServerBuild. Its client manifest is the app's (`appAssets`:
 * the app's build), each twin route naming the chunks of the app's routes it
 * stands for, so both documents load the same scripts.
 */
export function twinBuild(appAssets: ServerBuild["assets"], future: ServerBuild["future"]): ServerBuild {
  const chunks = (...ids: string[]) => [
    ...new Set(ids.flatMap((id) => [appAssets.routes[id]!.module, ...(appAssets.routes[id]!.imports ?? [])])),
  ];
  const entryRoute = (id: string, path: string, parentId: string | undefined, imports: string[]) => ({
    id,
    path,
    parentId,
    module: imports[0]!,
    imports: imports.slice(1),
    hasAction: false,
    hasLoader: id !== "root",
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: false,
  });
  return {
    mode: "production",
    entry: { module: { default: handleRequest } },
    routes: {
      root: { id: "root", path: "", module: { default: Root, links: () => STYLESHEETS } },
      "routes/sales": {
        id: "routes/sales",
        parentId: "root",
        path: "admin/sales",
        module: { default: SalesPage, loader: salesLoader, meta: () => [{ title: "Sales" }] },
      },
      "routes/dashboard": {
        id: "routes/dashboard",
        parentId: "root",
        path: "admin/dashboard",
        module: { default: DashboardPage, loader: dashboardLoader, meta: () => [{ title: "Dashboard" }] },
      },
    },
    assets: {
      ...appAssets,
      routes: {
        root: entryRoute("root", "", undefined, chunks("root")),
        "routes/sales": entryRoute(
          "routes/sales",
          "admin/sales",
          "root",
          chunks("routes/$role.sales._index", "routes/$role"),
        ),
        "routes/dashboard": entryRoute(
          "routes/dashboard",
          "admin/dashboard",
          "root",
          chunks("routes/$role.dashboard", "routes/$role"),
        ),
      },
    },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future,
    isSpaMode: false,
  };
}

/** Express as `remix-serve` sets it up (compression, the client bundles), with Remix's handler. */
export function twinServer(build: ServerBuild) {
  const handle = createRequestHandler(build, "production");
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  app.all("*", async (req, res, next) => {
    try {
      const controller = new AbortController();
      res.on("close", () => controller.abort());
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(key, v);
        else if (value !== undefined) headers.set(key, value);
      }
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(`http://${req.get("host")}${req.originalUrl}`, {
        method: req.method,
        headers,
        signal: controller.signal,
        ...(hasBody ? { body: createReadableStreamFromReadable(req), duplex: "half" } : {}),
      } as RequestInit);
      const response = await handle(request);
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
    } catch (error) {
      next(error);
    }
  });
  return app;
}
