/*
 * Draws the offline GIF catalogue: 12 motifs x 5 variants = 60 small animated GIFs in public/gifs/,
 * each frame an SVG rendered by sharp, the frames joined into one looping GIF. Deterministic: running it again
 * writes the same pictures. Our own work, CC0 (public/gifs/LICENSE.md). Run: node scripts/make-gifs.mjs
 * The tags that find them are in api/services/gifs/catalogue.ts (its motifs must match these).
 */
import { mkdir, writeFile } from "node:fs/promises";
import sharp from "sharp";

const side = 120;
const frames = 8;
const palettes = [
  { bg: "#fff1f2", a: "#e11d48", b: "#fb7185" },
  { bg: "#fdf4ff", a: "#c026d3", b: "#f0abfc" },
  { bg: "#eff6ff", a: "#2563eb", b: "#93c5fd" },
  { bg: "#fefce8", a: "#ea580c", b: "#fde047" },
  { bg: "#f0fdf4", a: "#16a34a", b: "#86efac" },
];
const heartPath = "M0 28C-44 0-34-38 0-14 34-38 44 0 0 28z";
const starPath = (r) => {
  const p = [];
  for (let i = 0; i < 10; i++) {
    const rr = i % 2 ? r * 0.45 : r;
    const t = (Math.PI / 5) * i - Math.PI / 2;
    p.push(`${(rr * Math.cos(t)).toFixed(1)},${(rr * Math.sin(t)).toFixed(1)}`);
  }
  return `M${p.join("L")}z`;
};
const face = (c, extra) => `<circle r="36" fill="${c.b}" stroke="${c.a}" stroke-width="3"/>${extra}`;

/** Each motif draws frame f of n (phase 0..1) in palette c, centred at 0,0 (the frame adds the motion). */
const motifs = {
  heart: (c, ph) => `<path d="${heartPath}" transform="scale(${1 + 0.18 * Math.sin(ph * 2 * Math.PI)})" fill="${c.a}"/><path d="M-22-12c4-8 10-10 14-8" stroke="#fff" stroke-width="4" fill="none" stroke-linecap="round"/>`,
  kiss: (c, ph) => `<path d="M-36 0c10-14 24-18 36-10 12-8 26-4 36 10-10 4-20 18-36 18S-26 4-36 0z" fill="${c.a}"/><path d="${heartPath}" transform="translate(${20 + 20 * ph} ${-20 - 26 * ph}) scale(${0.3 + 0.2 * ph})" fill="${c.b}" opacity="${1 - ph}"/>`,
  wave: (c, ph) =>
    `<g transform="rotate(${22 * Math.sin(ph * 2 * Math.PI)} 0 30)"><rect x="-18" y="-20" width="36" height="46" rx="14" fill="${c.b}" stroke="${c.a}" stroke-width="3"/>${[-14, -5, 4, 13].map((x) => `<rect x="${x - 4}" y="-44" width="9" height="30" rx="4.5" fill="${c.b}" stroke="${c.a}" stroke-width="3"/>`).join("")}<rect x="-32" y="-10" width="9" height="26" rx="4.5" transform="rotate(-30 -28 6)" fill="${c.b}" stroke="${c.a}" stroke-width="3"/></g>`,
  flower: (c, ph) =>
    `<g transform="rotate(${ph * 72})">${[0, 72, 144, 216, 288].map((r) => `<ellipse cx="0" cy="-22" rx="13" ry="20" transform="rotate(${r})" fill="${c.b}" stroke="${c.a}" stroke-width="2"/>`).join("")}</g><circle r="12" fill="${c.a}"/>`,
  hi: (c, ph) => `<text x="0" y="18" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${52 + 8 * Math.sin(ph * 2 * Math.PI)}" fill="${c.a}" stroke="#fff" stroke-width="2">Hi!</text>`,
  wink: (c, ph) =>
    face(c, `<circle cx="-13" cy="-8" r="5" fill="#1f2937"/>${ph < 0.5 ? `<path d="M6-8h16" stroke="#1f2937" stroke-width="5" stroke-linecap="round"/>` : `<circle cx="13" cy="-8" r="5" fill="#1f2937"/>`}<path d="M-16 12c8 10 24 10 32 0" stroke="#1f2937" stroke-width="4" fill="none" stroke-linecap="round"/>`),
  cheers: (c, ph) => {
    const t = 8 * Math.abs(Math.sin(ph * Math.PI));
    const glass = (x, r) => `<g transform="translate(${x} 0) rotate(${r})"><path d="M-12-34h24l-3 30a9 9 0 01-18 0z" fill="${c.b}" stroke="${c.a}" stroke-width="3"/><path d="M0 4v26M-10 32h20" stroke="${c.a}" stroke-width="3"/></g>`;
    return glass(-18 + t, 14 - t) + glass(18 - t, -14 + t) + (t > 6 ? `<path d="M0-44v-10M-10-42l-6-8M10-42l6-8" stroke="${c.a}" stroke-width="3"/>` : "");
  },
  star: (c, ph) => `<path d="${starPath(40)}" transform="rotate(${ph * 72}) scale(${1 + 0.1 * Math.sin(ph * 4 * Math.PI)})" fill="${c.b}" stroke="${c.a}" stroke-width="4" stroke-linejoin="round"/>`,
  smile: (c, ph) =>
    face(c, `<circle cx="-13" cy="-10" r="5" fill="#1f2937"/><circle cx="13" cy="-10" r="5" fill="#1f2937"/><path d="M-20 8c10 ${14 + 6 * Math.sin(ph * 2 * Math.PI)} 30 ${14 + 6 * Math.sin(ph * 2 * Math.PI)} 40 0" stroke="#1f2937" stroke-width="4" fill="none" stroke-linecap="round"/><circle cx="-24" cy="8" r="6" fill="${c.a}" opacity="0.4"/><circle cx="24" cy="8" r="6" fill="${c.a}" opacity="0.4"/>`),
  party: (c, ph) =>
    `<path d="M-30 40L-6-30 30 16z" fill="${c.b}" stroke="${c.a}" stroke-width="3"/>${[0, 1, 2, 3, 4, 5, 6].map((i) => {
      const a = i * 0.9 + ph * 2;
      const r = 20 + 30 * ((ph + i / 7) % 1);
      return `<rect x="${(10 + r * Math.cos(a)).toFixed(1)}" y="${(-20 + r * Math.sin(a) * 0.6).toFixed(1)}" width="6" height="10" transform="rotate(${i * 40 + ph * 180} ${(10 + r * Math.cos(a)).toFixed(1)} ${(-20 + r * Math.sin(a) * 0.6).toFixed(1)})" fill="${i % 2 ? c.a : "#facc15"}"/>`;
    }).join("")}`,
  sun: (c, ph) =>
    `<g transform="rotate(${ph * 45})">${[0, 45, 90, 135, 180, 225, 270, 315].map((r) => `<path d="M0-50l6 14h-12z" transform="rotate(${r})" fill="${c.a}"/>`).join("")}</g><circle r="28" fill="#facc15" stroke="${c.a}" stroke-width="3"/><circle cx="-9" cy="-5" r="3.5" fill="#1f2937"/><circle cx="9" cy="-5" r="3.5" fill="#1f2937"/><path d="M-10 8c5 6 15 6 20 0" stroke="#1f2937" stroke-width="3" fill="none"/>`,
  xoxo: (c, ph) =>
    ["X", "O", "X", "O"].map((l, i) => `<text x="${-39 + i * 26}" y="${14 - 10 * Math.max(0, Math.sin((ph - i / 8) * 2 * Math.PI))}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="34" fill="${i % 2 ? c.a : c.b}" stroke="${c.a}" stroke-width="1.5">${l}</text>`).join(""),
};
/** The five variants: palette and motion of the whole picture. */
const motions = [
  () => "",
  (ph) => `translate(0 ${(-8 * Math.abs(Math.sin(ph * Math.PI))).toFixed(1)})`,
  (ph) => `rotate(${(10 * Math.sin(ph * 2 * Math.PI)).toFixed(1)})`,
  (ph) => `scale(${(0.9 + 0.1 * Math.sin(ph * 2 * Math.PI)).toFixed(3)})`,
  (ph) => `translate(${(6 * Math.sin(ph * 2 * Math.PI)).toFixed(1)} 0)`,
];

await mkdir("public/gifs", { recursive: true });
let total = 0;
for (const [name, draw] of Object.entries(motifs)) {
  for (let v = 0; v < 5; v++) {
    const c = palettes[v];
    const pictures = [];
    for (let f = 0; f < frames; f++) {
      const ph = f / frames;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><rect width="${side}" height="${side}" rx="16" fill="${c.bg}"/><g transform="translate(60 62) ${motions[v](ph)}">${draw(c, ph)}</g></svg>`;
      pictures.push(Buffer.from(svg));
    }
    const gif = await sharp(pictures, { join: { animated: true } }).gif({ delay: 110, loop: 0, colours: 32, effort: 7 }).toBuffer();
    await writeFile(`public/gifs/c-${name}-${v + 1}.gif`, gif);
    total += gif.length;
  }
}
console.log(`wrote ${Object.keys(motifs).length * 5} GIFs, ${Math.round(total / 1024)} KB`);
