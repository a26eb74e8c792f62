import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { DEFAULT_LANGUAGE_INFO } from "../../i18n/language-table";
import { shippedT } from "../notifications/compose-notification.server";
import type { TaxFormView } from "./tax-form-store.server";

// The affiliate's copy of the form they signed, as a PDF made on the server
// with pdf-lib (no outside service, nothing fetched). The labels are the
// page's own (Account.TaxForm) in English, the language of the IRS forms;
// the TIN is shown masked, as on the page. pdf-lib's standard fonts write
// WinAnsi only: other characters are written without their accents, or as
// "?" (docs/decisions/041-tax-forms-and-1099-nec.md).

const WIN_ANSI_EXTRA = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";

/** Text the standard fonts can draw. */
export function pdfSafe(text: string): string {
  return [...text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")]
    .map((ch) => {
      const code = ch.charCodeAt(0);
      if (ch === "\n" || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return ch;
      return WIN_ANSI_EXTRA.includes(ch) ? ch : "?";
    })
    .join("");
}

interface Writer {
  page: PDFPage;
  y: number;
}

const MARGIN = 56;
const WIDTH = 612; // US Letter
const HEIGHT = 792;

export async function taxFormPdf(
  form: TaxFormView,
  context: { shopName: string; signerIp: string; signerAgent: string },
) {
  const t = shippedT(DEFAULT_LANGUAGE_INFO, "Account.TaxForm");
  const doc = await PDFDocument.create();
  doc.setTitle(pdfSafe(t(`Account.TaxForm:kinds.${form.kind}`)));
  doc.setProducer("affiliate-referral-app");
  doc.setCreationDate(new Date(form.signedAt));
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const w: Writer = { page: doc.addPage([WIDTH, HEIGHT]), y: HEIGHT - MARGIN };

  const line = (text: string, font: PDFFont, size: number, gap = 6) => {
    for (const part of wrap(pdfSafe(text), font, size, WIDTH - 2 * MARGIN)) {
      if (w.y < MARGIN + size) {
        w.page = doc.addPage([WIDTH, HEIGHT]);
        w.y = HEIGHT - MARGIN;
      }
      w.page.drawText(part, { x: MARGIN, y: w.y - size, size, font, color: rgb(0, 0, 0) });
      w.y -= size + gap;
    }
  };

  line(t(`Account.TaxForm:kinds.${form.kind}`), bold, 18, 10);
  line(t("Account.TaxForm:pdf.for", { shop: context.shopName }), regular, 11, 14);
  for (const [key, value] of Object.entries(form.fields)) {
    if (!value) continue;
    line(t(`Account.TaxForm:fields.${key}`), bold, 9, 2);
    line(displayValue(t, key, value), regular, 11, 8);
  }
  line(t("Account.TaxForm:pdf.tin"), bold, 9, 2);
  line(`${t(`Account.TaxForm:tinKinds.${form.tinType}`)} ${form.tinMask}`, regular, 11, 14);
  line(t(`Account.TaxForm:certifyText.${form.kind === "w9" ? "w9" : "w8"}`), regular, 9, 12);
  line(t("Account.TaxForm:pdf.signed"), bold, 12, 6);
  line(`${t("Account.TaxForm:fields.signatureName")}: ${form.signatureName}`, regular, 11, 4);
  line(
    `${t("Account.TaxForm:pdf.date")}: ${form.signedAt.replace("T", " ").replace(/\.\d+Z$/, " UTC")}`,
    regular,
    11,
    4,
  );
  line(`${t("Account.TaxForm:pdf.ip")}: ${context.signerIp}`, regular, 11, 4);
  line(`${t("Account.TaxForm:pdf.agent")}: ${context.signerAgent}`, regular, 9, 4);
  return doc.save();
}

type T = ReturnType<typeof shippedT>;

function displayValue(t: T, key: string, value: string): string {
  if (key === "classification") return t(`Account.TaxForm:classifications.${value}`);
  if (key === "chapter3Status") return t(`Account.TaxForm:chapter3.${value}`);
  if (["citizenship", "country", "incorporationCountry", "treatyCountry"].includes(key)) {
    const name = new Intl.DisplayNames(["en"], { type: "region" }).of(value);
    return name ? `${name} (${value})` : value;
  }
  return value;
}

/** Lines of at most `width` points, broken at spaces (a word longer than a line is cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    let current = "";
    for (const word of paragraph.split(/\s+/)) {
      const next = current ? `${current} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width) {
        current = next;
        continue;
      }
      if (current) out.push(current);
      current = word;
      while (font.widthOfTextAtSize(current, size) > width && current.length > 1) {
        let cut = current.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(current.slice(0, cut), size) > width) cut--;
        out.push(current.slice(0, cut));
        current = current.slice(cut);
      }
    }
    out.push(current);
  }
  return out;
}
