// `npm run paypal:fake`: the fake PayPal of the tests on a fixed loopback
// port, for the demo (README, "Paying by PayPal against the local fake").
// PAYPAL_FAKE_PORT (default 4011); --prism also starts Prism on PayPal's
// OpenAPI file (port + 1) and checks every Payouts request against it.
import { PaypalFake, startPrism } from "./paypal-fake";

async function main() {
  const port = Number(process.env.PAYPAL_FAKE_PORT ?? 4011);
  const prism = process.argv.includes("--prism") ? await startPrism(port + 1) : null;
  const fake = new PaypalFake({ prismUrl: prism?.url, log: (line) => console.log(`[paypal-fake] ${line}`) });
  const url = await fake.start(port);
  console.log(`Fake PayPal at ${url}${prism ? ` (requests checked by Prism at ${prism.url})` : ""}
Start the app with  PAYPAL_API_BASE_URL=${url} PAYPAL_FOLLOW_SECONDS=5 npm start
Connect PayPal with any client ID and the secret "fake-secret".
Items end by the receiver's PayPal e-mail: returned…@ → UNCLAIMED then RETURNED, fail…@ → FAILED,
blocked…@ → BLOCKED, unclaimed…@ → UNCLAIMED, anything else → PENDING then SUCCESS.`);
  const stop = async () => {
    await fake.close();
    await prism?.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
