import { Badge, IndexTable, InlineStack, Link, Pagination, Text } from "@shopify/polaris";
import { useParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { EmptyMessage } from "../EmptyMessage";
import { useShell } from "../shell-data";

export interface LogRow {
  id: string;
  toAddress: string;
  subject: string;
  kind: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  isTest: boolean;
  createdAt: string;
  sentAt: string | null;
}

export interface LogPage {
  rows: LogRow[];
  total: number;
  page: number;
  pageCount: number;
}

const TONE: Record<string, "success" | "attention" | "critical" | "info" | undefined> = {
  sent: "success",
  logged: "info",
  queued: undefined,
  retrying: "attention",
  unsent: "attention",
  failed: "critical",
};

/** Queued, sent, retried or failed (with the SMTP server's answer), newest first. */
export function DeliveryLog({ log, pageUrl }: { log: LogPage; pageUrl?: (page: number) => string }) {
  const { t } = useTranslation(["Mails", "Global"]);
  const { role } = useParams();
  const format = useFormat();
  const { shop } = useShell();
  return (
    <>
      <IndexTable
        resourceName={{ singular: t("Mails:log.singular"), plural: t("Mails:log.plural") }}
        itemCount={log.rows.length}
        selectable={false}
        emptyState={<EmptyMessage heading={t("Mails:log.empty")} body={t("Mails:log.emptyBody")} />}
        headings={[
          { title: t("Mails:log.time") },
          { title: t("Mails:log.to") },
          { title: t("Mails:log.subject") },
          { title: t("Mails:log.status") },
          { title: t("Mails:log.answer") },
        ]}
      >
        {log.rows.map((row, index) => (
          <IndexTable.Row id={row.id} key={row.id} position={index}>
            <IndexTable.Cell>{format.dateTime(row.createdAt, shop.timezone)}</IndexTable.Cell>
            <IndexTable.Cell>{row.toAddress}</IndexTable.Cell>
            <IndexTable.Cell>
              <div className="app-wrapping-cell">
                <Link url={`/${role}/mails/log/${row.id}`}>{row.subject}</Link>
              </div>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <InlineStack gap="100">
                <Badge tone={TONE[row.status]}>{t(`Mails:status.${row.status}`, { defaultValue: row.status })}</Badge>
                {row.isTest ? <Badge>{t("Mails:log.test")}</Badge> : null}
                {row.attempts > 1 ? (
                  <Badge tone="attention">{t("Mails:log.tries", { count: row.attempts })}</Badge>
                ) : null}
              </InlineStack>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <div className="app-wrapping-cell">
                <Text as="span" tone={row.status === "failed" ? "critical" : "subdued"} breakWord>
                  {row.lastError ?? ""}
                </Text>
              </div>
            </IndexTable.Cell>
          </IndexTable.Row>
        ))}
      </IndexTable>
      {pageUrl && log.pageCount > 1 ? (
        <InlineStack align="center">
          <Pagination
            hasPrevious={log.page > 1}
            previousURL={pageUrl(log.page - 1)}
            hasNext={log.page < log.pageCount}
            nextURL={pageUrl(log.page + 1)}
            label={t("Mails:log.page", { page: log.page, pages: log.pageCount })}
          />
        </InlineStack>
      ) : null}
    </>
  );
}
