import type { BulkSql } from "../../db/bulk-sql.server";
import type { Tx } from "../../db/transaction";
import type { LanguageInfo } from "../../i18n/language-table";
import type { DomainEvent, DomainEventRecord } from "../events/event-types";
import type { AffiliateRow, ShopRow, Values } from "./notification-values.server";

// One e-mail notification kind, declared in one file of kinds/: who gets it,
// whether it is transactional, the sample values of its template's
// variables, and the events that send it with the values each fills in. The
// catalogue (catalogue.ts) is the list of these files; the e-mail subscriber
// (notification-subscriber.server.ts) and the batch dispatcher
// (app/worker/dispatch-events-batch.server.ts) both send a kind by calling
// its trigger's `values`, so the two paths cannot word an e-mail apart.

export type Audience = "affiliate" | "merchant" | "staff" | "advocate";

/** The events that name an affiliate: the ones an e-mail can be triggered by. */
export type AffiliateEvent = Extract<DomainEvent, { data: { affiliateId: string } }>;
export type AffiliateEventType = AffiliateEvent["type"];

/** What a trigger's `values` may use without reading the database (the batch path has no more). */
export interface PlainContext<T extends AffiliateEventType> {
  event: DomainEventRecord<T>;
  shop: ShopRow;
  /** The affiliate the event names. */
  affiliate: AffiliateRow;
  /** The recipient's language: the affiliate's for affiliate e-mails, the shop's for merchant e-mails. */
  language: LanguageInfo;
}

/** The one-by-one path's context: reads allowed (before the write transaction). */
export interface TriggerContext<T extends AffiliateEventType> extends PlainContext<T> {
  reader: Tx;
  /** A row to write with the e-mail, only if the e-mail is written (an invite's token). */
  writeWithMail(write: (writer: BulkSql) => Promise<unknown>): void;
}

/** The values a template gets beyond the shop's (and, to an affiliate, the recipient's); null: not sent for this event. */
type Result = Values | null;

export interface Trigger<T extends AffiliateEventType> {
  /** Affiliate e-mails: who gets it (default: the affiliate the event names). */
  recipient?: (ctx: TriggerContext<T>) => Promise<AffiliateRow | null>;
  values: (ctx: TriggerContext<T>) => Result | Promise<Result>;
}

export type Triggers = { readonly [T in AffiliateEventType]?: Trigger<T> };

/** Triggers whose values read nothing: sent to the affiliate the event names, on either dispatch path. */
export type BulkTriggers = { readonly [T in AffiliateEventType]?: (ctx: PlainContext<T>) => Result };

export interface NotificationKind<K extends string = string> {
  key: K;
  audience: Audience;
  /** Transactional mail is always sent and has no unsubscribe link (password reset, invites). */
  transactional: boolean;
  /** Variable name → sample value (the preview's data). Dotted names are objects in Liquid. */
  variables: Values;
  /** The events that send it. None: the module that sends it queues it itself (a reset, a reminder). */
  on?: Triggers;
  /**
   * The bulk variant: events whose values need no reads, so the batch
   * dispatcher composes them for many events at once (a bulk approval); the
   * one-by-one path calls the same functions.
   */
  bulk?: BulkTriggers;
}

/** A kind, its key kept as a literal (NotificationKey is the union of the catalogue's keys). */
export function defineKind<const K extends string>(kind: NotificationKind<K>): NotificationKind<K> {
  return kind;
}

// Sample values shared by many kinds' previews.
export const SAMPLE_SHOP = { "shop.name": "Aurora Candles", "shop.url": "https://aurora-candles.example" };
export const SAMPLE_AFFILIATE = {
  "affiliate.first_name": "Jane",
  "affiliate.last_name": "Doe",
  "affiliate.email": "jane@example.com",
  "affiliate.referral_code": "JANEDOE",
  portal_url: "https://app.example/portal/aurora-candles",
};
