import { sendPaypalBatch } from "../../paypal/send-paypal-batch.server";
import type { PayoutSender } from "./index.server";

// PayPal Payouts (app/models/paypal/send-paypal-batch.server.ts).
export const paypalSender: PayoutSender = (db, batch) => sendPaypalBatch(db, batch);
