import { describe, expect, it } from "vitest";
import { checkedFileType, sniffFileType, titleFromFileName, typeByName } from "./file-types";

const bytes = (...b: (number | string)[]) =>
  new Uint8Array(b.flatMap((x) => (typeof x === "string" ? [...x].map((c) => c.charCodeAt(0)) : [x])));

const PNG = bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0);
const JPG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10);
const GIF = bytes("GIF89a", 1, 0);
const WEBP = bytes("RIFF", 0x24, 0, 0, 0, "WEBPVP8 ");
const PDF = bytes("%PDF-1.7\n");
const ZIP = bytes("PK", 3, 4, 20, 0);
const EMPTY_ZIP = bytes("PK", 5, 6, 0, 0);

describe("sniffFileType", () => {
  it.each([
    ["png", PNG],
    ["jpg", JPG],
    ["gif", GIF],
    ["webp", WEBP],
    ["pdf", PDF],
    ["zip", ZIP],
    ["zip", EMPTY_ZIP],
  ])("knows %s by its bytes", (type, head) => {
    expect(sniffFileType(head)).toBe(type);
  });

  it.each([
    ["an executable", bytes(0x7f, "ELF", 2, 1, 1)],
    ["HTML", bytes("<html><body>")],
    ["SVG (scripts inside)", bytes("<svg xmlns=")],
    ["a RIFF that is not WebP (WAV)", bytes("RIFF", 0x24, 0, 0, 0, "WAVEfmt ")],
    ["too few bytes", bytes(0x89, "P")],
    ["nothing", bytes()],
  ])("refuses %s", (_label, head) => {
    expect(sniffFileType(head)).toBeNull();
  });
});

describe("checkedFileType", () => {
  it.each([
    ["banner.png", PNG, "png"],
    ["Photo.JPEG", JPG, "jpg"],
    ["photo.jpg", JPG, "jpg"],
    ["kit.zip", ZIP, "zip"],
    ["brochure.pdf", PDF, "pdf"],
    // The content decides: a PNG named .jpg is not what it claims.
    ["banner.jpg", PNG, null],
    ["invoice.pdf", ZIP, null],
    ["tool.exe", bytes(0x4d, 0x5a, 0x90, 0), null],
    ["readme", PDF, null],
    ["page.html", bytes("<html>"), null],
  ])("%s", (name, head, expected) => {
    expect(checkedFileType(name, head)).toBe(expected);
  });
});

describe("typeByName and titleFromFileName", () => {
  it("reads the extension whatever its case", () => {
    expect(typeByName("A.WebP")).toBe("webp");
    expect(typeByName("a.svg")).toBeNull();
  });
  it.each([
    ["summer-sale_banner.png", "summer sale banner"],
    ["C:\\Users\\me\\kit.zip", "kit"],
    [".png", "Creative"],
  ])("%s → %s", (name, title) => {
    expect(titleFromFileName(name)).toBe(title);
  });
});
