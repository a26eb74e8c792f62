// The baselines of the pages benchmark: bare Polaris screens of the same
// shape as the admin's dashboard and sales list, rendered with
// renderToString in a plain Node server (bench-servers.ts "polaris"), with
// no data access, no translations, no router. What Polaris itself costs to
// render such a page on this machine; the admin's pages are measured as a
// ratio of it. Both documents carry their rows as JSON for hydration, as any
// server-rendered app must.
import {
  AppProvider,
  Badge,
  BlockStack,
  Box,
  Button,
  ButtonGroup,
  Card,
  ChoiceList,
  FormLayout,
  Frame,
  IndexFilters,
  IndexTable,
  InlineGrid,
  InlineStack,
  Layout,
  Link,
  List,
  Navigation,
  Page,
  Select,
  SkeletonBodyText,
  Text,
  TextField,
  TopBar,
} from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";

const MENU = [
  "Campaigns",
  "Affiliates",
  "Sales",
  "Payouts",
  "Creatives",
  "Bonuses",
  "Referrals",
  "Portals",
  "Mails",
  "Settings",
  "Plans",
  "Contact us",
];

function Shell({ path, children }: { path: string; children: ReactNode }) {
  const topBar = (
    <TopBar
      showNavigationToggle
      onNavigationToggle={() => {}}
      userMenu={
        <TopBar.UserMenu
          name="Bench Admin"
          detail="Bench Outdoor Store"
          initials="B"
          open={false}
          onToggle={() => {}}
          actions={[{ items: [{ content: "Log out", onAction: () => {} }] }]}
        />
      }
    />
  );
  const navigation = (
    <Navigation location={path}>
      <Navigation.Section
        items={[
          { label: "Dashboard", url: "/bare/dashboard", exactMatch: true },
          ...MENU.map((label) => {
            const url = `/bare/${label.toLowerCase().replace(/ /g, "-")}`;
            return { label, url, matches: path.startsWith(url) };
          }),
        ]}
      />
    </Navigation>
  );
  return (
    <AppProvider i18n={en}>
      <Frame topBar={topBar} navigation={navigation} showMobileNavigation={false}>
        {children}
      </Frame>
    </AppProvider>
  );
}

export interface BareSale {
  id: string;
  name: string;
  placedAt: string;
  affiliate: string;
  source: string;
  status: string;
  total: string;
  commission: string;
}

export function bareSales(count: number): BareSale[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `sale_${i.toString(36).padStart(20, "0")}`,
    name: `#${1000 + i}`,
    placedAt: new Date(Date.UTC(2026, 10, 1, i)).toLocaleString("en-US", { timeZone: "America/New_York" }),
    affiliate: `Affiliate ${i} (CODE${i})`,
    source: i % 3 === 0 ? "Coupon" : "Link",
    status: ["Pending", "Approved", "Paid"][i % 3]!,
    total: `$${(100 + i).toFixed(2)}`,
    commission: `$${(10 + i / 10).toFixed(2)}`,
  }));
}

const TABS = ["All", "Pending", "Approved", "Denied", "Paid", "Void"];

function SalesList({ sales }: { sales: BareSale[] }) {
  return (
    <Page title="Sales" subtitle="Times in America/New_York" fullWidth>
      <Card padding="0">
        <IndexFilters
          queryValue=""
          queryPlaceholder="Search by affiliate"
          onQueryChange={() => {}}
          onQueryClear={() => {}}
          tabs={TABS.map((content, index) => ({ id: content, index, content, isLocked: true }))}
          selected={0}
          onSelect={() => {}}
          filters={[
            {
              key: "source",
              label: "Source",
              shortcut: true,
              filter: (
                <ChoiceList
                  title="Source"
                  titleHidden
                  choices={["Link", "Coupon", "Manual"].map((label) => ({ label, value: label }))}
                  selected={[]}
                  onChange={() => {}}
                />
              ),
            },
            {
              key: "date",
              label: "Date",
              shortcut: true,
              filter: (
                <FormLayout>
                  <TextField label="Since" type="date" autoComplete="off" value="" onChange={() => {}} />
                  <TextField label="Until" type="date" autoComplete="off" value="" onChange={() => {}} />
                </FormLayout>
              ),
            },
          ]}
          appliedFilters={[]}
          onClearAll={() => {}}
          mode={"DEFAULT" as never}
          setMode={() => {}}
          canCreateNewView={false}
          cancelAction={{ onAction: () => {} }}
        />
        <IndexTable
          resourceName={{ singular: "sale", plural: "sales" }}
          itemCount={sales.length}
          selectedItemsCount={0}
          onSelectionChange={() => {}}
          promotedBulkActions={[
            { content: "Approve", onAction: () => {} },
            { content: "Deny", onAction: () => {} },
          ]}
          headings={[
            { title: "Order" },
            { title: "Date" },
            { title: "Affiliate" },
            { title: "Source" },
            { title: "Status" },
            { title: "Total", alignment: "end" },
            { title: "Commission", alignment: "end" },
          ]}
          pagination={{ hasNext: true, hasPrevious: false, onNext: () => {} }}
        >
          {sales.map((sale, index) => (
            <IndexTable.Row id={sale.id} key={sale.id} position={index} selected={false}>
              <IndexTable.Cell>
                <Link url={`/bare/sales/${sale.id}`} removeUnderline monochrome dataPrimaryLink>
                  <Text as="span" fontWeight="semibold">
                    {sale.name}
                  </Text>
                </Link>
              </IndexTable.Cell>
              <IndexTable.Cell>{sale.placedAt}</IndexTable.Cell>
              <IndexTable.Cell>{sale.affiliate}</IndexTable.Cell>
              <IndexTable.Cell>
                <Badge>{sale.source}</Badge>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Badge tone={sale.status === "Pending" ? "attention" : "success"}>{sale.status}</Badge>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Text as="span" alignment="end" numeric>
                  {sale.total}
                </Text>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Text as="span" alignment="end" numeric>
                  {sale.commission}
                </Text>
              </IndexTable.Cell>
            </IndexTable.Row>
          ))}
        </IndexTable>
      </Card>
    </Page>
  );
}

function TextCard({ title, lines }: { title: string; lines: string[] }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        <List>
          {lines.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
        <InlineStack>
          <Button url="/bare/settings">Open</Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}

function Dashboard() {
  const tile = (label: string, value: string) => (
    <Card>
      <BlockStack gap="100">
        <Text as="p" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          {value}
        </Text>
      </BlockStack>
    </Card>
  );
  const lines = (n: number, what: string) => Array.from({ length: n }, (_, i) => `${what} ${i + 1}`);
  return (
    <Page title="Dashboard">
      <Layout>
        <Layout.Section>
          <InlineStack align="space-between" blockAlign="end" gap="300">
            <Select
              label="Date range"
              options={["Today", "Yesterday", "Last 7 days", "Last 30 days", "This month", "Last month", "This year"]}
              value="Last 30 days"
              onChange={() => {}}
            />
            <Text as="p" tone="subdued">
              Oct 25 – Nov 24, 2026
            </Text>
          </InlineStack>
        </Layout.Section>
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
            {tile("Revenue", "$12,345.67")}
            {tile("Commission", "$1,234.56")}
            {tile("Sales", "321")}
            {tile("Clicks", "4,567")}
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Over time
                </Text>
                <ButtonGroup variant="segmented">
                  {["Revenue", "Commission", "Sales", "Clicks"].map((m) => (
                    <Button key={m} pressed={m === "Revenue"}>
                      {m}
                    </Button>
                  ))}
                </ButtonGroup>
              </InlineStack>
              <Box minHeight="260px">
                <SkeletonBodyText lines={8} />
              </Box>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <BlockStack gap="400">
            <TextCard title="Pending" lines={lines(3, "Pending item")} />
            <TextCard title="Your affiliate links" lines={lines(2, "https://bench.example/r/link")} />
            <TextCard title="Quick help" lines={lines(3, "Help topic")} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <BlockStack gap="400">
            <TextCard title="Instructions" lines={lines(5, "Step")} />
            <TextCard title="Helpful links" lines={lines(6, "Link")} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <BlockStack gap="400">
            <TextCard title="Features" lines={lines(10, "Feature")} />
            <TextCard title="Questions" lines={lines(8, "Question")} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function document(body: string, data: unknown) {
  // "<" escaped so the JSON cannot end the script element.
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width,initial-scale=1"/><title>Bench</title><link rel="stylesheet" href="/build/polaris.css"/></head><body>${body}<script>window.__DATA=${json}</script></body></html>`;
}

const SERIES = Array.from({ length: 30 }, (_, i) => ({ key: `2026-10-${i + 1}`, value: 1000 + i * 37 }));

/** The bare dashboard document (a fresh render each call). */
export function renderBareDashboard(): string {
  const data = { totals: { revenue: 1234567, commission: 123456, sales: 321, clicks: 4567 }, series: SERIES };
  return document(
    renderToString(
      <Shell path="/bare/dashboard">
        <Dashboard />
      </Shell>,
    ),
    data,
  );
}

/** The bare sales list document: 25 rows × 7 columns. */
export function renderBareSalesList(sales: BareSale[]): string {
  return document(
    renderToString(
      <Shell path="/bare/sales">
        <SalesList sales={sales} />
      </Shell>,
    ),
    { sales },
  );
}
