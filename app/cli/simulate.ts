// `npm run simulate -- <command> [options]`: the store simulator, a local
// Shopify store (app/simulator). `npm start` runs one next to the demo; the
// commands below act on it (or, when none is running, on its saved state),
// and it sends the app the signed webhooks Shopify would.
//
//   store                                   run a store on its own (STORE_SIMULATOR_PORT, default PORT+1)
//   status                                  the store's products, customers, discount codes, last orders
//   order   [--code CODE] [--click CLICK_ID] [--discount-code CODE] [--customer ID|EMAIL]
//           [--product HANDLE]... [--items N] [--quantity Q] [--amount 80.00]
//           a checkout: lines from the catalogue (--items N: the first N products), the
//           code applied as Shopify applies it; --amount is the ORDER's subtotal before
//           discounts, spread over the lines. Sends orders/create and orders/paid.
//           [--count N] places N such orders, one after the other (1 to 1,000).
//   referral (--friend-code CODE | --invite TOKEN) [--device ID] [--customer EMAIL]
//           [--product HANDLE]... [--items N] [--quantity Q] [--amount 80.00]
//           a refer-a-friend friend's checkout: the advocate's friend code applied, and/or
//           the share link's token (and device id) in the cart attributes the storefront
//           script sets (_referral_invite, _referral_device). A new customer unless
//           --customer. Sends orders/create and orders/paid.
//   refund  [--order NAME|ID|last] [--lines 1]    refunds/create for the first N open lines
//   cancel  [--order NAME|ID|last]                orders/cancelled
//   product create --title T [--price 10.00] [--collection HANDLE]...
//   product update HANDLE [--title T] [--price P] [--status active|draft|archived] [--collection H]...
//   product delete HANDLE                         products/create, products/update, products/delete
//   uninstall                                     app/uninstalled; the app's token stops working
//   connect | disconnect                          point a shop at the simulator (its offline session
//                                                 holds the simulator's token), or back
//   proxy-url [--path /signup]                    a signed app proxy URL
//                                                 (what Shopify calls for https://{shop}/apps/affiliate{path}; valid 90 s)
//
//   --url http://localhost:3000            the app (default: PORT of this machine)
//   --shop demo-store.myshopify.com        (default: DEMO_SHOP)
//   --coupon CODE is --discount-code CODE
import { dataDirectory, loadEnvironment, StartupRefused } from "./bootstrap";
import { orderCount, parseSimulateArgs, referralOrderOptions, UsageError } from "./simulate-referral";
import { signedProxyUrl } from "../models/shopify/app-proxy-signature";

type Json = Record<string, any>;

async function main() {
  const environment = loadEnvironment();
  if (environment.mode !== "demo")
    throw new StartupRefused("The store simulator belongs to the demo: unset SHOPIFY_API_KEY or set DEMO=1.");
  const { secrets } = environment;
  const { values, positionals } = parseSimulateArgs(process.argv.slice(2));
  const [command, sub, target] = positionals;
  const appUrl = (values.url ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, "");
  const shop = values.shop ?? process.env.DEMO_SHOP ?? "demo-store.myshopify.com";
  const secret = secrets.values.SHOPIFY_API_SECRET;
  const { storeSimulatorPort, storeStateFile } = await import("../simulator/demo-store");
  const storeUrl = (process.env.STORE_SIMULATOR_URL ?? `http://127.0.0.1:${storeSimulatorPort()}`).replace(/\/$/, "");

  if (command === "store") {
    const { StoreSimulator } = await import("../simulator/store");
    const { serveStore } = await import("../simulator/server");
    const store = new StoreSimulator({
      app: { apiKey: secrets.values.SHOPIFY_API_KEY, apiSecret: secret, appUrl },
      stateFile: storeStateFile(dataDirectory()),
      demoShop: process.env.DEMO_SHOP ?? "demo-store.myshopify.com",
    });
    const running = await serveStore(store, { port: storeSimulatorPort() });
    console.log(
      [
        `store simulator: ${running.url} (Admin API ${store.apiVersion}, checked against Shopify's schema)`,
        `  webhooks go to ${appUrl}/webhooks, signed with SHOPIFY_API_SECRET`,
        `  point the app at it: SHOPIFY_ADMIN_BASE_URL=${running.url} npm start`,
        `  and a shop at it:    npm run simulate -- connect --shop ${shop}`,
      ].join("\n"),
    );
    const stop = () => void running.close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    return;
  }

  if (command === "connect" || command === "disconnect") {
    const { migrate } = await import("../db/migrate.server");
    const { getConfig } = await import("../config.server");
    await migrate(getConfig().DATABASE_URL);
    const connection = await import("../models/shop/store-simulator-connection.server");
    if (command === "connect") {
      const changed = await connection.connectShopToSimulator(shop);
      console.log(
        changed
          ? `${shop} now uses the store simulator's token; run the app with SHOPIFY_ADMIN_BASE_URL=${storeUrl} (npm start does so for the demo).`
          : `${shop} already uses the store simulator's token.`,
      );
    } else {
      const removed = await connection.disconnectShopFromSimulator(shop);
      console.log(
        removed
          ? `${shop} no longer has the simulator's token: unset SHOPIFY_ADMIN_BASE_URL and open the app from the shop's Shopify admin to install it with a real token.`
          : `${shop} has no store simulator session.`,
      );
    }
    process.exit(0);
  }

  if (command === "proxy-url") {
    console.log(signedProxyUrl(appUrl, shop, values.path ?? "/", secret));
    return;
  }

  // Everything else acts on the store: the running one over HTTP, else its saved state here.
  const act = await storeActions(storeUrl, shop, appUrl, secrets.values.SHOPIFY_API_KEY, secret);
  if (command === "status") {
    const s = await act("GET", "");
    console.log(`store ${shop} (${act.where})${s.installed ? "" : " — the app is uninstalled"}`);
    console.log(
      "products:       " +
        s.products
          .map((p: Json) => `${p.handle} ${p.price}${p.status === "ACTIVE" ? "" : ` (${p.status.toLowerCase()})`}`)
          .join(", "),
    );
    console.log("customers:      " + s.customers.map((c: Json) => `${c.email} (${c.id})`).join(", "));
    console.log(
      "discount codes: " +
        s.discountCodes.map((d: Json) => d.code + (d.createdByApp ? " (by the app)" : "")).join(", "),
    );
    console.log(
      "last orders:    " +
        (s.orders.map((o: Json) => o.name + (o.cancelled ? " (cancelled)" : "")).join(", ") || "none"),
    );
    return;
  }
  if (command === "order") {
    const times = orderCount(values.count);
    for (let n = 1; n <= times; n++) {
      const result = await act("POST", "/orders", {
        referralCode: values.code,
        clickId: values.click,
        discountCode: values["discount-code"] ?? values.coupon,
        customer: values.customer ?? values.email,
        products: values.product,
        items: values.items ? Number(values.items) : undefined,
        quantity: values.quantity ? Number(values.quantity) : undefined,
        amount: values.amount,
      });
      // Many orders (--count): one line each, and the app's decision for the last.
      if (times > 1 && n < times) {
        const statuses = (result.deliveries as Json[]).map((d) => `${d.topic} ${d.status ?? "not delivered"}`);
        console.log(`order ${result.order.name}: ${statuses.join(", ")}`);
        if ((result.deliveries as Json[]).some((d) => d.status !== 200)) process.exitCode = 1;
        continue;
      }
      printOrder(result.order as Json);
      if (report(result.deliveries, appUrl))
        await showSale(appUrl, `gid://shopify/Order/${result.order.id}`, secrets.values.DEMO_API_KEY);
    }
    return;
  }
  if (command === "referral") {
    const result = await act("POST", "/orders", { ...referralOrderOptions(values) });
    printOrder(result.order as Json);
    if (report(result.deliveries, appUrl))
      console.log("  the app records the referral in the background: see /admin/referrals/history");
    return;
  }
  if (command === "refund" || command === "cancel") {
    const order = encodeURIComponent(values.order ?? "last");
    const result =
      command === "refund"
        ? await act("POST", `/orders/${order}/refunds`, { lines: Number(values.lines ?? 1) })
        : await act("POST", `/orders/${order}/cancel`, {});
    console.log(`order ${result.order.name}: ${command === "refund" ? "refunded" : "cancelled"}`);
    if (report(result.deliveries, appUrl))
      await showSale(appUrl, `gid://shopify/Order/${result.order.id}`, secrets.values.DEMO_API_KEY);
    return;
  }
  if (command === "product") {
    const change = {
      title: values.title,
      price: values.price,
      status: values.status,
      collections: values.collection,
    };
    const result =
      sub === "create"
        ? await act("POST", "/products", change)
        : sub === "update" && target
          ? await act("PUT", `/products/${encodeURIComponent(target)}`, change)
          : sub === "delete" && target
            ? await act("DELETE", `/products/${encodeURIComponent(target)}`)
            : null;
    if (!result) return usage();
    console.log(`product ${result.product.handle} (gid://shopify/Product/${result.product.id}): ${sub}d`);
    report(result.deliveries, appUrl);
    return;
  }
  if (command === "uninstall") {
    const result = await act("POST", "/uninstall", {});
    console.log(`${shop}: the app is uninstalled from the store`);
    report(result.deliveries, appUrl);
    return;
  }
  usage();
}

function printOrder(o: Json) {
  console.log(`order ${o.name} (gid://shopify/Order/${o.id}) by ${o.email}`);
  for (const l of o.lines as Json[])
    console.log(
      `  ${l.quantity} × ${l.title}${l.variantTitle === "Default Title" ? "" : ` (${l.variantTitle})`} at ${l.price} ${o.currency}${l.discount ? `, discount ${(l.discount / 100).toFixed(2)}` : ""}`,
    );
  if (o.discountCode) console.log(`  discount code ${o.discountCode}`);
  for (const a of (o.noteAttributes ?? []) as Json[]) console.log(`  cart attribute ${a.name}=${a.value}`);
}

function usage() {
  console.error(
    "usage: npm run simulate -- store|status|order|referral|refund|cancel|product|uninstall|connect|disconnect|proxy-url [options] (see app/cli/simulate.ts)",
  );
  process.exitCode = 2;
}

/** Prints each webhook's answer; false when one did not reach the app. */
function report(deliveries: Json[], appUrl: string) {
  let ok = true;
  for (const d of deliveries) {
    console.log(
      `  webhook ${d.topic} -> ${d.status ?? `not delivered: ${d.error}`}${d.status === null ? ` (is the app running at ${appUrl}?)` : ""}`,
    );
    if (d.status !== 200) ok = false;
  }
  if (!ok) process.exitCode = 1;
  return ok;
}

/**
 * Acts on the running store over its control endpoints, or, when none
 * answers, on a store loaded here from the same state file (so the commands
 * work while only the app runs).
 */
async function storeActions(storeUrl: string, shop: string, appUrl: string, apiKey: string, apiSecret: string) {
  const base = `${storeUrl}/_simulator/shops/${shop}`;
  const running = await fetch(base).then(
    (r) => r.ok,
    () => false,
  );
  const act = async (method: string, path: string, body?: Json): Promise<Json> => {
    if (running) {
      const response = await fetch(base + path, {
        method,
        headers: { "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      });
      const answer = (await response.json()) as Json;
      if (!response.ok) throw new Error(answer.error ?? `the store answered ${response.status}`);
      return answer;
    }
    const { StoreSimulator, CheckoutError } = await import("../simulator/store");
    const { storeStateFile } = await import("../simulator/demo-store");
    const store = new StoreSimulator({
      app: { apiKey, apiSecret, appUrl },
      stateFile: storeStateFile(dataDirectory()),
      demoShop: process.env.DEMO_SHOP ?? "demo-store.myshopify.com",
      log: () => {},
    });
    try {
      const orderPath = /^\/orders\/([^/]+)\/(refunds|cancel)$/.exec(path);
      const productPath = /^\/products\/([^/]+)$/.exec(path);
      if (method === "GET") {
        const s = store.shop(shop);
        return {
          installed: s.installed,
          products: s.products.map((p) => ({ handle: p.handle, price: p.variants[0]?.price, status: p.status })),
          customers: s.customers.map((c) => ({ id: c.id, email: c.email })),
          discountCodes: s.discounts.flatMap((d) =>
            d.codes.map((c) => ({ code: c.code, createdByApp: c.createdByApp })),
          ),
          orders: s.orders.slice(-20).map((o) => ({ name: o.name, cancelled: Boolean(o.cancelledAt) })),
        };
      }
      if (path === "/orders") return await store.placeOrder(shop, body);
      if (orderPath?.[2] === "refunds")
        return await store.refund(shop, decodeURIComponent(orderPath[1]!), Number(body?.lines ?? 1));
      if (orderPath?.[2] === "cancel") return await store.cancel(shop, decodeURIComponent(orderPath[1]!));
      if (path === "/products") return await store.createProduct(shop, body ?? {});
      if (productPath && method === "PUT")
        return await store.updateProduct(shop, decodeURIComponent(productPath[1]!), body ?? {});
      if (productPath && method === "DELETE")
        return await store.deleteProduct(shop, decodeURIComponent(productPath[1]!));
      if (path === "/uninstall") return { deliveries: [await store.uninstall(shop)] };
      throw new Error(`unknown store action ${method} ${path}`);
    } catch (error) {
      if (error instanceof CheckoutError) throw new Error(error.message);
      throw error;
    }
  };
  return Object.assign(act, { where: running ? `running at ${storeUrl}` : "saved state; no store is running" });
}

/** Prints what the app decided, through the REST API (the job runs in the background). */
async function showSale(url: string, orderGid: string, apiKey: string) {
  for (let attempt = 0; attempt < 10; attempt++) {
    await new Promise((r) => setTimeout(r, 300));
    const response = await fetch(`${url}/api/v1/sales?limit=50`, {
      headers: { authorization: `Bearer ${apiKey}` },
    }).catch(() => null);
    if (!response?.ok) continue;
    const body = (await response.json()) as {
      data: { order_gid: string; status: string; attribution: unknown; commissions: unknown[] }[];
    };
    const sale = body.data.find((s) => s.order_gid === orderGid);
    if (sale) {
      console.log(
        JSON.stringify({ status: sale.status, attribution: sale.attribution, commissions: sale.commissions }, null, 2),
      );
      return;
    }
  }
  console.log("(the sale is not visible through the REST API yet; see /admin/sales)");
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
