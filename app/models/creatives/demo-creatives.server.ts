import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { getConfig } from "../../config.server";
import type { ShopDb } from "../../db/shop-db.server";
import { createCreativeFromUpload, saveCreative } from "./merchant-creatives.server";

// The demo shop's creatives: two banners drawn here (an SVG landscape
// rendered by sharp, no text, so no font is needed), a caption, an e-mail
// swipe for one campaign and a video link. Nothing is copied from anywhere.

function landscape(width: number, height: number, sky: [string, string], hills: string[]): string {
  const layers = hills
    .map((color, i) => {
      const base = height * (0.45 + i * 0.17);
      const peak = height * (0.18 + i * 0.12);
      const points = [
        `0,${height}`,
        `0,${base}`,
        `${width * 0.22},${peak + height * 0.1}`,
        `${width * 0.42},${base - height * 0.05}`,
        `${width * (0.62 - i * 0.05)},${peak}`,
        `${width * 0.85},${base - height * 0.08}`,
        `${width},${base}`,
        `${width},${height}`,
      ];
      return `<polygon points="${points.join(" ")}" fill="${color}"/>`;
    })
    .join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#sky)"/>` +
    `<circle cx="${width * 0.78}" cy="${height * 0.24}" r="${Math.min(width, height) * 0.09}" fill="#ffd66b"/>` +
    layers +
    `</svg>`
  );
}

async function addImage(db: ShopDb, name: string, svg: string) {
  const bytes = await sharp(Buffer.from(svg)).png().toBuffer();
  const dir = path.join(getConfig().DATA_DIR, "tmp");
  await mkdir(dir, { recursive: true });
  const tmpPath = path.join(dir, `demo-${randomBytes(6).toString("hex")}`);
  await writeFile(tmpPath, bytes);
  return createCreativeFromUpload(db, { tmpPath, size: bytes.length, type: "png", name });
}

const base = {
  category: "",
  description: "",
  destination: "/",
  videoUrl: "",
  body: "",
  allCampaigns: true,
  campaignIds: [] as string[],
  active: true,
};

export async function seedDemoCreatives(db: ShopDb, shop: { domain: string; url: string }, standardCampaignId: string) {
  const wide = await addImage(
    db,
    "autumn-trails-1200x628.png",
    landscape(1200, 628, ["#f3b27a", "#fbe3c4"], ["#8c5a3c", "#5f3b2a", "#2f2119"]),
  );
  await saveCreative(db, shop, wide.id, {
    ...base,
    kind: "image",
    title: "Autumn trails banner",
    category: "Banners",
    description: "For blog headers and social posts (1200 × 628).",
    destination: "/collections/hiking",
  });
  const square = await addImage(
    db,
    "summit-300x250.png",
    landscape(300, 250, ["#7cc3e8", "#dff1fa"], ["#6c9a77", "#3f6b50", "#1f3a2b"]),
  );
  await saveCreative(db, shop, square.id, {
    ...base,
    kind: "image",
    title: "Summit sidebar ad",
    category: "Banners",
    description: "Fits a sidebar or a newsletter column (300 × 250).",
  });
  await saveCreative(db, shop, null, {
    ...base,
    kind: "text",
    title: "Instagram caption",
    category: "Social",
    destination: "/collections/hiking",
    body: "Weekend plans: up the ridge and back before dark. My boots and pack come from Demo Outdoor Store. Gear up here: {{link}}",
  });
  await saveCreative(db, shop, null, {
    ...base,
    kind: "text",
    title: "Newsletter swipe",
    category: "E-mail",
    allCampaigns: false,
    campaignIds: [standardCampaignId],
    body: "Subject: The gear I trust on every trail\n\nHi there,\n\nI've tested a lot of outdoor gear, and Demo Outdoor Store is where I buy mine. Have a look: {{link}}\n\nSee you outside!",
  });
  await saveCreative(db, shop, null, {
    ...base,
    kind: "video",
    title: "Trail test video",
    category: "Video",
    description: "A two-minute gear review you can share or link to.",
    videoUrl: "https://videos.example.com/demo-outdoor/trail-test",
  });
}
