import { deflateSync } from "node:zlib";

const crcTable = () =>
  Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });

/** A PNG file of an 8-bit RGB image whose IDAT carries `pixels` (rows with their filter byte). */
function pngFile(width: number, height: number, pixels: Buffer): Buffer {
  const table = crcTable();
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * A PNG that claims `width` × `height` in its header but carries a few bytes
 * of pixels (a decoder bomb's shape): valid up to its first row.
 */
export function pngHeaderOnly(width: number, height: number): Buffer {
  return pngFile(width, height, Buffer.alloc(1 + 3 * Math.min(width, 1024)));
}

/** A real PNG (solid colour), written for the upload. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  return pngFile(width, height, Buffer.concat(Array.from({ length: height }, () => row)));
}
