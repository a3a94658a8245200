// App icons for the web app manifest (docs/product.md §1 installable app mode): the primary colour (app/tailwind.css) with a
// white heart, as PNG 192 and 512 (maskable: the heart stays inside the safe zone). `node scripts/make-icons.mjs`
// writes public/icon-192.png and public/icon-512.png; rerun it when the primary colour changes.
import fs from "node:fs";
import zlib from "node:zlib";

const primary = [0xe6, 0x24, 0x6e];

function crc32(buffer) {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function icon(size) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      // Heart curve (x²+y²-1)³ - x²y³ <= 0, about half the icon (inside the maskable safe zone).
      const u = ((x + 0.5) / size - 0.5) * 3.8;
      const v = (0.5 - (y + 0.5) / size) * 3.8 + 0.15;
      const inside = (u * u + v * v - 1) ** 3 - u * u * v ** 3 <= 0;
      const colour = inside ? [255, 255, 255] : primary;
      colour.forEach((c, i) => (row[1 + x * 3 + i] = c));
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(Buffer.concat(rows), { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

for (const size of [192, 512]) fs.writeFileSync(`public/icon-${size}.png`, icon(size));
