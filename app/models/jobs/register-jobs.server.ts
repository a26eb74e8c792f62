import { registerDashboardJobs } from "../dashboard/rollup.server";
import { registerMailJobs } from "../mail/outbox.server";
import { registerCatalogueJobs } from "../portal/catalogue-sync.server";
import { registerCoreJobs } from "../webhooks/process-webhook.server";

/** Every job type a worker runs. */
export function registerAllJobs() {
  registerCoreJobs();
  registerMailJobs();
  registerDashboardJobs();
  registerCatalogueJobs();
}
