/**
 * Generates the app's icons from one drawing of the header's "ID" mark (a white "ID" on an indigo
 * rounded square), so the favicon, the app icons and the web-app manifest's icons agree:
 *
 *   public/icon.svg                the drawing itself (browsers that take SVG favicons use it)
 *   public/favicon.ico             16, 32 and 48 px PNGs in one ICO (every browser asks for it)
 *   public/apple-touch-icon.png    180 px, full-bleed (iOS rounds the corners itself)
 *   public/icons/icon-192.png      manifest icons, rounded like the header's mark
 *   public/icons/icon-512.png
 *   public/icons/icon-maskable-512.png  full-bleed, the mark inside the maskable safe zone
 *
 * The letters are paths, not text, so no font is needed and every rasteriser draws the same.
 * Run after changing the drawing: `node scripts/generate-icons.mjs` (uses sharp, which Next.js
 * installs for image optimisation).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC = path.join(ROOT, 'public');

/** The header's mark: Tailwind's indigo-700 behind white letters. */
const INDIGO = '#4338ca';

/** "I" and "D" on a 512-unit grid, 220 units tall, centred. */
const LETTERS = 'M126 146h46v220h-46z M208 146h68a110 110 0 0 1 0 220h-68z M254 190v132h20a66 66 0 0 0 0-132z';

/** @param {{ corner: number, scale?: number }} options corner radius in units of 512; scale shrinks the letters (maskable safe zone) */
function drawing({ corner, scale = 1 }) {
  const letters =
    scale === 1
      ? `<path fill="#fff" fill-rule="evenodd" d="${LETTERS}"/>`
      : `<g transform="translate(256 256) scale(${scale}) translate(-256 -256)"><path fill="#fff" fill-rule="evenodd" d="${LETTERS}"/></g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="${corner}" fill="${INDIGO}"/>${letters}</svg>\n`;
}

const ROUNDED = drawing({ corner: 128 });
const FULL_BLEED = drawing({ corner: 0 });
const MASKABLE = drawing({ corner: 0, scale: 0.8 });

function png(svg, size) {
  return sharp(Buffer.from(svg), { density: 72 * (size / 512) * 4 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** An ICO holding PNG images (the format every browser since IE 9 reads). */
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ data }) => data)]);
}

await mkdir(path.join(PUBLIC, 'icons'), { recursive: true });
await writeFile(path.join(PUBLIC, 'icon.svg'), ROUNDED);
const favicons = await Promise.all([16, 32, 48].map(async (size) => ({ size, data: await png(ROUNDED, size) })));
await writeFile(path.join(PUBLIC, 'favicon.ico'), ico(favicons));
await writeFile(path.join(PUBLIC, 'apple-touch-icon.png'), await png(FULL_BLEED, 180));
await writeFile(path.join(PUBLIC, 'icons', 'icon-192.png'), await png(ROUNDED, 192));
await writeFile(path.join(PUBLIC, 'icons', 'icon-512.png'), await png(ROUNDED, 512));
await writeFile(path.join(PUBLIC, 'icons', 'icon-maskable-512.png'), await png(MASKABLE, 512));
console.log('icons written to public/');
