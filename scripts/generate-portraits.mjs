/**
 * Generates the document portraits of the identity-verification emulator's
 * test personas: lib/emulator/personas/portraits/<id>.jpg (300x400 px, JPEG q82).
 *
 * The people are FICTIONAL. Every portrait is a flat vector illustration
 * drawn from the parameters in PERSONAS below (skin, hair, eyes, age cues,
 * clothing, accessories); no photograph of any real person is involved.
 *
 * This script is committed so the portraits can be regenerated:
 *
 *   node scripts/generate-portraits.mjs                  # writes the JPEGs
 *   node scripts/generate-portraits.mjs --sheet out.png  # + a contact sheet
 *
 * Rendering uses Playwright's Chromium API. Set CHROMIUM_PATH to choose the
 * browser binary (default: /usr/bin/chromium when present, otherwise the
 * browser bundled with Playwright).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'lib', 'emulator', 'personas', 'portraits');
const W = 300;
const H = 400;
const CX = W / 2;
const JPEG_QUALITY = 82;

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

const n = (v) => Math.round(v * 10) / 10;
const pt = ([x, y]) => `${n(x)} ${n(y)}`;

function rgb(hex) {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
}

/** Linear mix of two #rrggbb colours; t = 0 gives a, t = 1 gives b. */
function mix(a, b, t) {
  const ca = rgb(a);
  const cb = rgb(b);
  return `#${ca
    .map((v, i) =>
      Math.round(v + (cb[i] - v) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
const lighten = (c, t) => mix(c, '#ffffff', t);
const darken = (c, t) => mix(c, '#000000', t);
/** Warm shadow for skin (avoids the grey look of plain black mixing). */
const skinShade = (c, t) => mix(c, '#3b1a10', t);

/** Deterministic PRNG (mulberry32) so regenerated files are identical. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Closed path symmetric about x = CX. `start` lies on the axis; `segs` trace
 * the right-hand half and must end on the axis. Each segment is either
 * [c1, c2, end] (cubic) or [end] (line). The left half is mirrored.
 */
function symPath(start, segs) {
  const m = ([x, y]) => [2 * CX - x, y];
  let d = `M${pt(start)}`;
  for (const s of segs) d += s.length === 3 ? `C${pt(s[0])} ${pt(s[1])} ${pt(s[2])}` : `L${pt(s[0])}`;
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i];
    const prev = i === 0 ? start : segs[i - 1][segs[i - 1].length - 1];
    d += s.length === 3 ? `C${pt(m(s[1]))} ${pt(m(s[0]))} ${pt(m(prev))}` : `L${pt(m(prev))}`;
  }
  return `${d}Z`;
}

/** Path from explicit segments (same segment format as symPath). */
function openPath(start, segs, close = false) {
  let d = `M${pt(start)}`;
  for (const s of segs) d += s.length === 3 ? `C${pt(s[0])} ${pt(s[1])} ${pt(s[2])}` : `L${pt(s[0])}`;
  return close ? `${d}Z` : d;
}

/**
 * Smooth path through the given points (Catmull-Rom converted to cubic
 * Béziers); closed paths wrap around.
 */
function crPath(points, closed = false) {
  const P = points;
  const len = P.length;
  const at = (i) => (closed ? P[(i + len) % len] : P[Math.max(0, Math.min(len - 1, i))]);
  let d = `M${pt(P[0])}`;
  const last = closed ? len : len - 1;
  for (let i = 0; i < last; i++) {
    const p0 = at(i - 1);
    const p1 = at(i);
    const p2 = at(i + 1);
    const p3 = at(i + 2);
    const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += `C${pt(c1)} ${pt(c2)} ${pt(p2)}`;
  }
  return closed ? `${d}Z` : d;
}

/** Paints `content` clipped to path `d`. */
const clipTo = (id, d, content) => `<clipPath id="${id}"><path d="${d}"/></clipPath><g clip-path="url(#${id})">${content}</g>`;

/** Wraps right-hand-side markup so it is drawn once as is and once mirrored. */
const both = (svg) => `${svg}<g transform="matrix(-1 0 0 1 ${W} 0)">${svg}</g>`;

// ---------------------------------------------------------------------------
// Hair styles. Each returns { back, front } SVG fragments; `back` is painted
// behind neck and clothing, `front` over the face.
// ---------------------------------------------------------------------------

function hairPaint(c) {
  // saturated (blonde, red, brown) hair darkens towards warm brown, grey towards grey
  const [r, g, b] = rgb(c);
  const sat = (Math.max(r, g, b) - Math.min(r, g, b)) / Math.max(1, Math.max(r, g, b));
  const shadeTo = sat > 0.2 ? '#3a2212' : '#000000';
  return {
    base: c,
    dark: mix(c, shadeTo, 0.28),
    deep: mix(c, shadeTo, 0.5),
    light: lighten(c, 0.22),
    sheen: lighten(c, 0.4),
  };
}

const strand = (d, color, width, opacity) =>
  `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" opacity="${opacity}"/>`;

const HAIR_STYLES = {
  /** Long, straight, centre parting, falling in front of the shoulders. */
  long(g, hc) {
    const { top, eyeY, hw, hairY } = g;
    const back = symPath(
      [CX, top - 10],
      [
        [
          [CX + hw * 0.7, top - 10],
          [CX + hw + 16, top + 40],
          [CX + hw + 16, eyeY],
        ],
        [
          [CX + hw + 18, eyeY + 70],
          [CX + hw + 22, 300],
          [CX + hw + 24, 372],
        ],
        [
          [CX + hw + 10, 376],
          [CX + 20, 376],
          [CX, 376],
        ],
      ],
    );
    const front = symPath(
      [CX, top - 9],
      [
        [
          [CX + hw * 0.68, top - 10],
          [CX + hw + 14, top + 42],
          [CX + hw + 14, eyeY - 5],
        ],
        [
          [CX + hw + 15, eyeY + 60],
          [CX + hw + 19, 300],
          [CX + hw + 28, 366],
        ],
        [
          [CX + hw + 19, 373],
          [CX + hw, 373],
          [CX + hw - 12, 367],
        ],
        [
          [CX + hw - 11, 320],
          [CX + hw - 6, 270],
          [CX + hw - 8, eyeY + 30],
        ],
        [
          [CX + hw - 10, eyeY - 24],
          [CX + hw - 26, hairY + 6],
          [CX + 26, hairY - 3],
        ],
        [
          [CX + 15, hairY - 6],
          [CX + 6, hairY - 4],
          [CX, hairY],
        ],
      ],
    );
    const strands = [
      [
        `M${CX + 3} ${top - 6}C${CX + 40} ${top - 4} ${CX + hw + 4} ${top + 40} ${CX + hw + 6} ${eyeY + 40}S${CX + hw + 12} 330 ${CX + hw + 14} 362`,
        hc.light,
        2,
        0.55,
      ],
      [
        `M${CX + 6} ${top + 6}C${CX + 40} ${top + 8} ${CX + hw - 4} ${top + 46} ${CX + hw + 1} ${eyeY + 30}S${CX + hw + 4} 320 ${CX + hw + 2} 360`,
        hc.dark,
        1.4,
        0.45,
      ],
      [
        `M${CX + 10} ${hairY - 10}C${CX + 44} ${hairY - 10} ${CX + hw - 8} ${hairY + 20} ${CX + hw - 3} ${eyeY + 40}S${CX + hw - 2} 320 ${CX + hw - 6} 362`,
        hc.dark,
        1.2,
        0.4,
      ],
      [
        `M${CX + 16} ${top}C${CX + 50} ${top + 6} ${CX + hw + 10} ${top + 50} ${CX + hw + 11} ${eyeY + 20}S${CX + hw + 16} 320 ${CX + hw + 22} 364`,
        hc.sheen,
        1.2,
        0.5,
      ],
    ]
      .map((s) => strand(...s))
      .join('');
    return {
      back: `<path d="${back}" fill="${hc.dark}"/>`,
      front:
        `<path d="${front}" fill="url(#hairGrad)"/>` +
        clipTo('hairClip', front, both(strands)) +
        `<path d="M${CX} ${top - 4}L${CX} ${hairY - 1}" stroke="${hc.deep}" stroke-width="1.6" opacity="0.6"/>`,
      shadow: front,
    };
  },

  /** Wavy, shoulder length, side parting. */
  wavy(g, hc) {
    const { top, eyeY, hw, hairY } = g;
    const px = CX - 24; // parting
    const R = CX + hw;
    const L = CX - hw;
    const back = crPath(
      [
        [CX, top - 10],
        [R + 16, top + 40],
        [R + 22, eyeY + 40],
        [R + 24, eyeY + 120],
        [R + 10, eyeY + 150],
        [CX, eyeY + 156],
        [L - 10, eyeY + 150],
        [L - 24, eyeY + 120],
        [L - 22, eyeY + 40],
        [L - 16, top + 40],
      ],
      true,
    );
    const front = crPath(
      [
        [px, top - 9],
        [CX + 30, top - 11],
        [R + 8, top + 22],
        [R + 20, eyeY - 22],
        [R + 23, eyeY + 18],
        [R + 12, eyeY + 54],
        [R + 27, eyeY + 92],
        [R + 17, eyeY + 124],
        [R + 34, eyeY + 150],
        [R + 14, eyeY + 152],
        [R + 3, eyeY + 124],
        [R + 7, eyeY + 94],
        [R - 9, eyeY + 56],
        [R - 8, eyeY + 18],
        [R - 11, hairY + 34],
        [CX + 40, hairY + 14],
        [CX + 2, hairY + 3],
        [px - 2, hairY - 1],
        [CX - 50, hairY + 6],
        [L + 8, hairY + 32],
        [L + 8, eyeY + 14],
        [L + 11, eyeY + 52],
        [L + 2, eyeY + 88],
        [L + 5, eyeY + 120],
        [L - 10, eyeY + 148],
        [L - 30, eyeY + 148],
        [L - 17, eyeY + 122],
        [L - 27, eyeY + 88],
        [L - 12, eyeY + 52],
        [L - 21, eyeY + 14],
        [L - 16, top + 34],
        [CX - 52, top - 5],
      ],
      true,
    );
    const strands = [
      [
        [
          [px + 6, hairY - 5],
          [CX + 44, hairY - 4],
          [R + 2, hairY + 30],
          [R + 6, eyeY + 20],
          [R - 2, eyeY + 56],
          [R + 14, eyeY + 94],
          [R + 8, eyeY + 124],
          [R + 22, eyeY + 146],
        ],
        hc.dark,
        1.6,
        0.55,
      ],
      [
        [
          [px + 8, top + 2],
          [CX + 40, top + 2],
          [R + 10, top + 40],
          [R + 12, eyeY],
          [R + 4, eyeY + 54],
          [R + 18, eyeY + 92],
        ],
        hc.sheen,
        2.2,
        0.5,
      ],
      [
        [
          [px + 14, top + 16],
          [CX + 36, top + 18],
          [R + 2, top + 56],
          [R + 4, eyeY + 6],
        ],
        hc.light,
        1.5,
        0.5,
      ],
      [
        [
          [px - 4, hairY + 2],
          [CX - 56, hairY + 10],
          [L - 4, hairY + 40],
          [L - 6, eyeY + 20],
          [L + 2, eyeY + 54],
          [L - 12, eyeY + 90],
          [L - 6, eyeY + 122],
          [L - 20, eyeY + 144],
        ],
        hc.dark,
        1.6,
        0.55,
      ],
      [
        [
          [px - 6, top + 2],
          [CX - 56, top + 10],
          [L - 10, top + 50],
          [L - 14, eyeY + 14],
          [L - 6, eyeY + 52],
          [L - 18, eyeY + 90],
        ],
        hc.sheen,
        2,
        0.45,
      ],
    ]
      .map(([pts, c, w, o]) => strand(crPath(pts), c, w, o))
      .join('');
    return {
      back: `<path d="${back}" fill="${hc.deep}"/>`,
      front:
        `<path d="${front}" fill="url(#hairGrad)"/>` +
        clipTo('hairClip', front, strands) +
        `<path d="M${px} ${top - 6}Q${px - 1} ${top + 20} ${px + 3} ${hairY - 2}" stroke="${hc.deep}" stroke-width="1.4" fill="none" opacity="0.55"/>`,
      shadow: front,
    };
  },
  /** Curly hair pulled back into a bun on top of the head. */
  bun(g, hc) {
    const { top, eyeY, hw, hairY } = g;
    const r = rng(7);
    const cap = symPath(
      [CX, top - 6],
      [
        [
          [CX + hw * 0.64, top - 7],
          [CX + hw + 7, top + 38],
          [CX + hw + 5, eyeY - 16],
        ],
        [
          [CX + hw + 4, eyeY - 9],
          [CX + hw + 1, eyeY - 5],
          [CX + hw - 2, eyeY - 4],
        ],
        [
          [CX + hw - 6, eyeY - 16],
          [CX + hw - 11, hairY + 18],
          [CX + hw - 24, hairY + 7],
        ],
        [
          [CX + hw - 40, hairY - 4],
          [CX + 20, hairY - 4],
          [CX, hairY - 2],
        ],
      ],
    );
    const bunY = top - 22;
    const bunR = 29;
    // bumpy curly silhouette: ring of small circles around bun and cap top
    let bumps = '';
    for (let i = 0; i < 22; i++) {
      const a = (i / 22) * Math.PI * 2;
      bumps += `<circle cx="${n(CX + Math.cos(a) * (bunR - 2))}" cy="${n(bunY + Math.sin(a) * (bunR - 3))}" r="${n(6 + r() * 3)}"/>`;
    }
    for (let i = 0; i <= 16; i++) {
      const a = Math.PI + (i / 16) * Math.PI;
      const x = CX + Math.cos(a) * (hw + 2);
      const y = eyeY - 18 + Math.sin(a) * (eyeY - 18 - (top - 5));
      if (y > eyeY - 24) continue;
      bumps += `<circle cx="${n(x)}" cy="${n(y)}" r="${n(4 + r() * 2.5)}"/>`;
    }
    // curl texture
    let curls = '';
    let capCurls = '';
    const curl = (x, y, s, color, op) =>
      `<path d="M${n(x - s)} ${n(y)}a${n(s)} ${n(s)} 0 1 1 ${n(s)} ${n(s)}" fill="none" stroke="${color}" stroke-width="1.5" stroke-linecap="round" opacity="${op}"/>`;
    for (let i = 0; i < 46; i++) {
      const a = r() * Math.PI * 2;
      const d = Math.sqrt(r()) * (bunR - 4);
      curls += curl(CX + Math.cos(a) * d, bunY + Math.sin(a) * d, 3 + r() * 2.5, r() < 0.5 ? hc.light : hc.sheen, 0.45);
    }
    for (let i = 0; i < 40; i++) {
      const a = Math.PI + 0.12 + r() * (Math.PI - 0.24);
      const k = 0.55 + r() * 0.42;
      const x = CX + Math.cos(a) * hw * k;
      const y = eyeY - 18 + Math.sin(a) * (eyeY - 18 - top) * k;
      if (y > hairY - 6 + Math.abs(x - CX) * 0.35) continue;
      capCurls += curl(x, y, 2.5 + r() * 2, hc.light, 0.22);
    }
    const tendril = (x, y) =>
      `<path d="M${x} ${y}q5 5 0 10q-5 5 0 10q5 5 0 10q-4 4 -1 8" fill="none" stroke="${hc.base}" stroke-width="2.6" stroke-linecap="round"/>`;
    return {
      back:
        `<g fill="${hc.dark}">${bumps}</g>` +
        `<circle cx="${CX}" cy="${bunY}" r="${bunR}" fill="${hc.dark}"/>` +
        `<circle cx="${CX}" cy="${bunY}" r="${bunR - 4}" fill="${hc.base}"/>` +
        curls +
        `<path d="M${CX - 20} ${bunY + 18}Q${CX} ${bunY + 26} ${CX + 20} ${bunY + 18}" stroke="${hc.deep}" stroke-width="3" fill="none" opacity="0.6"/>`,
      front:
        `<path d="${cap}" fill="url(#hairGrad)"/>` +
        clipTo(
          'hairClip',
          cap,
          capCurls +
            both(
              strand(`M${CX + 4} ${hairY - 4}C${CX + 30} ${hairY - 14} ${CX + 40} ${top + 20} ${CX + 14} ${top - 2}`, hc.light, 1.6, 0.45) +
                strand(`M${CX + 28} ${hairY - 2}C${CX + 52} ${hairY - 10} ${CX + 60} ${top + 22} ${CX + 30} ${top + 2}`, hc.light, 1.4, 0.4) +
                strand(`M${CX + hw - 22} ${hairY + 8}C${CX + hw - 10} ${hairY - 12} ${CX + hw - 6} ${top + 30} ${CX + 46} ${top + 6}`, hc.sheen, 1.3, 0.3),
            ),
        ) +
        tendril(CX + hw - 12, hairY + 16) +
        tendril(CX - hw + 12, hairY + 16),
      shadow: cap,
    };
  },

  /**
   * Short cut, optionally tousled. Options: volume, side (thickness over the
   * ears), part (x offset of a side parting), recess (receding temples),
   * drop (hairline offset), fringe { locks, depth }, tufts, seed.
   */
  short(g, hc, o = {}) {
    const { top, eyeY, hw } = g;
    const hairY = g.hairY + (o.drop ?? 6);
    const v = o.volume ?? 10;
    const side = o.side ?? 3;
    const recess = o.recess ?? 0;
    const r = rng(o.seed ?? 1);
    // outer contour: arc from the left sideburn over the crown to the right one
    const acx = CX;
    const acy = eyeY - 4;
    const rx = hw + side;
    const ry = acy - (top - v);
    const sb = g.sideburnY;
    const pts = [[CX - hw + 2, sb]];
    const N = o.tufts ? 15 : 8;
    for (let i = 0; i <= N; i++) {
      const a = Math.PI + 0.06 + (i / N) * (Math.PI - 0.12);
      const k = o.tufts && i > 1 && i < N - 1 ? 1 + (i % 2 ? 0.04 : -0.005) + r() * 0.015 : 1;
      // superellipse: squarer than an ellipse, like the skull underneath
      const c = Math.cos(a);
      const sn = Math.sin(a);
      const e = 2 / 2.6;
      pts.push([acx + Math.sign(c) * Math.abs(c) ** e * rx * k, acy + Math.sign(sn) * Math.abs(sn) ** e * ry * k]);
    }
    pts.push([CX + hw - 2, sb]);
    let d = crPath(pts);
    d += `L${CX + hw - 7} ${sb}`;
    const base = (x) => {
      const u = (x - CX) / hw;
      return hairY + 9 * u * u - recess * Math.exp(-(((Math.abs(x - CX) - 42) / 16) ** 2));
    };
    const xr = CX + hw - 17;
    const xl = CX - hw + 17;
    d += `C${CX + hw - 7} ${eyeY - 10} ${CX + hw - 8} ${base(xr) + 20} ${xr} ${base(xr) + 6}`;
    // fringe: small locks pointing down and to the left
    const locks = o.fringe?.locks ?? 9;
    const depth = o.fringe?.depth ?? 4;
    for (let i = 0; i < locks; i++) {
      const xa = xr + ((xl - xr) * i) / locks;
      const xb = xr + ((xl - xr) * (i + 1)) / locks;
      const yb = i === locks - 1 ? base(xl) + 6 : base(xb);
      const xt = xb + (xa - xb) * 0.25;
      const yt = base(xt) + depth * (0.7 + r() * 0.6);
      d += `Q${n(xa - 1)} ${n(yt - depth * 0.2)} ${n(xt)} ${n(yt)}`;
      d += `Q${n((xt + xb) / 2)} ${n((yt + yb) / 2 - 1)} ${n(xb)} ${n(yb)}`;
    }
    d += `C${CX - hw + 8} ${base(xl) + 20} ${CX - hw + 7} ${eyeY - 10} ${CX - hw + 7} ${sb}Z`;

    let extras = '';
    const part = o.part ?? null;
    if (part !== null) {
      const p = CX + part;
      extras +=
        `<path d="M${p} ${top - v + 5}C${p - 2} ${top + 8} ${p - 3} ${top + 22} ${p - 5} ${top + 32}" stroke="${hc.deep}" stroke-width="1.5" fill="none" opacity="0.55"/>` +
        strand(`M${p + 2} ${top - v + 7}C${p + 40} ${top - v} ${CX + hw} ${top + 10} ${CX + hw + 3} ${eyeY - 30}`, hc.light, 2.2, 0.5) +
        strand(`M${p + 2} ${top + 4}C${p + 40} ${top - 2} ${CX + hw - 6} ${top + 20} ${CX + hw - 3} ${eyeY - 36}`, hc.sheen, 1.5, 0.45) +
        strand(`M${p + 3} ${top + 18}C${CX + 10} ${hairY - 12} ${CX + 40} ${hairY - 8} ${CX + hw - 20} ${hairY + 2}`, hc.dark, 1.3, 0.45) +
        strand(`M${p - 2} ${top - v + 9}C${p - 20} ${top - 2} ${CX - hw + 6} ${top + 22} ${CX - hw - 1} ${eyeY - 30}`, hc.light, 1.6, 0.45) +
        strand(`M${p - 3} ${top + 20}C${p - 22} ${top + 22} ${CX - hw + 10} ${top + 36} ${CX - hw + 4} ${eyeY - 26}`, hc.dark, 1.3, 0.4);
    } else {
      const k = o.tufts ? 11 : 9;
      for (let i = 0; i < k; i++) {
        const x = xl + 6 + (i * (xr - xl - 12)) / (k - 1);
        const sx = CX + (x - CX) * 0.45 + 8;
        const sy = top - v + 8 + ((sx - CX) / hw) ** 2 * 20;
        extras += strand(
          `M${n(sx)} ${n(sy)}C${n(sx + (x - sx) * 0.3)} ${n(sy + 16)} ${n(x + 4)} ${n(base(x) - 18)} ${n(x - 3)} ${n(base(x) + (o.tufts ? 4 : 0))}`,
          i % 2 ? hc.sheen : hc.dark,
          i % 2 ? 1.5 : 1.2,
          o.tufts ? 0.5 : 0.28,
        );
      }
    }
    return { back: '', front: `<path d="${d}" fill="url(#hairGrad)"/>${clipTo('hairClip', d, extras)}`, shadow: d };
  },
  /** Short, soft pixie cut with side-swept fringe. */
  pixie(g, hc) {
    const { top, eyeY, hw, hairY } = g;
    const d = openPath(
      [CX - hw - 5, eyeY + 4],
      [
        [
          [CX - hw - 16, top + 40],
          [CX - 52, top - 20],
          [CX + 4, top - 17],
        ],
        [
          [CX + 60, top - 15],
          [CX + hw + 18, top + 28],
          [CX + hw + 11, eyeY - 4],
        ],
        [
          [CX + hw + 9, eyeY + 8],
          [CX + hw + 3, eyeY + 15],
          [CX + hw - 3, eyeY + 12],
        ],
        [
          [CX + hw - 6, eyeY - 6],
          [CX + hw - 7, hairY + 30],
          [CX + hw - 18, hairY + 20],
        ],
        [
          [CX + 40, hairY + 22],
          [CX + 6, hairY + 10],
          [CX - 24, hairY - 2],
        ],
        [
          [CX - 44, hairY - 4],
          [CX - hw + 4, hairY + 14],
          [CX - hw + 6, eyeY - 6],
        ],
        [
          [CX - hw + 5, eyeY + 6],
          [CX - hw + 1, eyeY + 11],
          [CX - hw - 5, eyeY + 4],
        ],
      ],
      true,
    );
    const strands = [
      [`M${CX - 30} ${top - 8}C${CX + 10} ${top - 14} ${CX + hw} ${top + 10} ${CX + hw + 8} ${eyeY - 20}`, hc.sheen, 2.2, 0.6],
      [`M${CX - 32} ${top + 6}C${CX} ${top + 4} ${CX + 50} ${hairY - 4} ${CX + hw - 16} ${hairY + 18}`, hc.dark, 1.4, 0.5],
      [`M${CX - 26} ${hairY - 6}C${CX} ${hairY - 6} ${CX + 30} ${hairY + 6} ${CX + 50} ${hairY + 18}`, hc.dark, 1.3, 0.45],
      [`M${CX - 40} ${top + 2}C${CX - 60} ${top + 10} ${CX - hw - 6} ${top + 40} ${CX - hw - 4} ${eyeY - 10}`, hc.sheen, 1.8, 0.55],
      [`M${CX - 36} ${top + 20}C${CX - 56} ${top + 26} ${CX - hw + 2} ${hairY} ${CX - hw + 2} ${eyeY - 14}`, hc.dark, 1.3, 0.45],
      [`M${CX + 10} ${top - 6}C${CX + 50} ${top} ${CX + hw + 4} ${top + 30} ${CX + hw + 4} ${eyeY}`, hc.light, 1.4, 0.55],
    ]
      .map((s) => strand(...s))
      .join('');
    return { back: '', front: `<path d="${d}" fill="url(#hairGrad)"/>${clipTo('hairClip', d, strands)}`, shadow: d };
  },

  /** Shaved head: only a faint stubble shadow on the scalp. */
  shaved(g, hc, opts) {
    const { top, eyeY, hw, hairY } = g;
    const cap = symPath(
      [CX, top - 1],
      [
        [
          [CX + hw * 0.6, top - 1],
          [CX + hw + 1, top + 40],
          [CX + hw, eyeY - 14],
        ],
        [
          [CX + hw - 1, eyeY - 4],
          [CX + hw - 2, eyeY + 4],
          [CX + hw - 3, eyeY + 8],
        ],
        [
          [CX + hw - 9, eyeY + 8],
          [CX + hw - 11, hairY + 20],
          [CX + hw - 22, hairY + 6],
        ],
        [
          [CX + hw - 34, hairY - 4],
          [CX + 20, hairY - 3],
          [CX, hairY - 1],
        ],
      ],
    );
    return {
      back: '',
      front:
        `<g clip-path="url(#faceClip)"><path d="${cap}" fill="${hc.base}" opacity="${opts?.stubble ?? 0.2}" filter="url(#soft4)"/>` +
        `<ellipse cx="${CX - 18}" cy="${top + 30}" rx="36" ry="20" fill="#ffffff" opacity="0.08" filter="url(#soft7)"/></g>`,
      shadow: null,
    };
  },
};

// ---------------------------------------------------------------------------
// Clothing
// ---------------------------------------------------------------------------

function drawClothing(g, c) {
  const nw = g.neckW;
  const col = c.color;
  const dark = darken(col, 0.22);
  const light = lighten(col, 0.12);
  const sy = 320; // where the shoulder line meets the neck
  const shoulderL = `M-10 410L-10 368C8 346 ${CX - nw - 46} ${sy + 9} ${CX - nw - 12} ${sy}`;
  const shoulderR = `C${CX + nw + 46} ${sy + 9} ${W + 8} 346 ${W + 10} 368L${W + 10} 410Z`;
  const defs = `<linearGradient id="clothGrad" x1="0" y1="${sy}" x2="0" y2="400" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient>`;
  const folds =
    strand(`M${CX - nw - 30} ${sy + 16}Q${CX - nw - 20} 370 ${CX - nw - 26} 400`, dark, 2, 0.3) +
    strand(`M${CX + nw + 30} ${sy + 16}Q${CX + nw + 20} 370 ${CX + nw + 26} 400`, dark, 2, 0.3);
  // darker sides towards the bottom corners, kept inside the shoulder outline
  const shoulderShade = clipTo(
    'bodyClip',
    `${shoulderL}L${CX + nw + 12} ${sy}${shoulderR}`,
    both(`<ellipse cx="${W - 10}" cy="400" rx="60" ry="40" fill="${darken(col, 0.4)}" opacity="0.2" filter="url(#soft7)"/>`),
  );
  let behind = '';
  let svg = '';
  switch (c.type) {
    case 'crew': {
      const neckline = `C${CX - nw + 4} ${sy + 22} ${CX - 22} ${sy + 26} ${CX} ${sy + 26}C${CX + 22} ${sy + 26} ${CX + nw - 4} ${sy + 22} ${CX + nw + 12} ${sy}`;
      svg =
        `<path d="${shoulderL}${neckline}${shoulderR}" fill="url(#clothGrad)"/>` +
        shoulderShade +
        `<path d="M${CX - nw - 12} ${sy}${neckline}" fill="none" stroke="${dark}" stroke-width="7" stroke-linejoin="round"/>` +
        `<path d="M${CX - nw - 12} ${sy}${neckline}" fill="none" stroke="${light}" stroke-width="1.2" opacity="0.5" transform="translate(0 4)"/>` +
        folds;
      break;
    }
    case 'vneck': {
      const neckline = `C${CX - nw + 2} ${sy + 16} ${CX - 14} ${sy + 36} ${CX} ${sy + 50}C${CX + 14} ${sy + 36} ${CX + nw - 2} ${sy + 16} ${CX + nw + 12} ${sy}`;
      svg =
        `<path d="${shoulderL}${neckline}${shoulderR}" fill="url(#clothGrad)"/>` +
        shoulderShade +
        `<path d="M${CX - nw - 12} ${sy}${neckline}" fill="none" stroke="${dark}" stroke-width="5" stroke-linejoin="round"/>` +
        folds;
      break;
    }
    case 'collar':
    case 'blazer': {
      const shirt = c.shirt ?? col;
      const shirtDark = darken(shirt, 0.2);
      // back of the collar, seen either side of the neck
      behind = `<path d="M${CX - nw - 9} ${sy + 8}L${CX - nw - 4} ${sy - 20}Q${CX} ${sy - 30} ${CX + nw + 4} ${sy - 20}L${CX + nw + 9} ${sy + 8}Z" fill="${shirtDark}"/>`;
      const neckline = `C${CX - nw + 2} ${sy + 14} ${CX - 12} ${sy + 30} ${CX} ${sy + 40}C${CX + 12} ${sy + 30} ${CX + nw - 2} ${sy + 14} ${CX + nw + 12} ${sy}`;
      svg += `<path d="${shoulderL}${neckline}${shoulderR}" fill="${c.type === 'blazer' ? shirt : 'url(#clothGrad)'}"/>`;
      if (c.type === 'blazer') {
        const jacket = col;
        svg +=
          `<path d="M-10 410L-10 368C8 346 ${CX - nw - 46} ${sy + 9} ${CX - nw - 10} ${sy}L${CX - nw + 2} ${sy + 4}L${CX - 18} 400Z" fill="url(#clothGrad)"/>` +
          `<path d="M${W + 10} 410L${W + 10} 368C${W - 8} 346 ${CX + nw + 46} ${sy + 9} ${CX + nw + 10} ${sy}L${CX + nw - 2} ${sy + 4}L${CX + 18} 400Z" fill="url(#clothGrad)"/>` +
          shoulderShade +
          both(
            `<path d="M${CX + nw + 4} ${sy}L${CX + nw + 18} ${sy + 26}L${CX + nw + 6} ${sy + 32}L${CX + 22} 400L${CX + 17} 400L${CX + nw - 3} ${sy + 5}Z" fill="${darken(jacket, 0.12)}"/>` +
              `<path d="M${CX + nw + 18} ${sy + 26}L${CX + nw + 6} ${sy + 32}L${CX + 22} 400" fill="none" stroke="${darken(jacket, 0.35)}" stroke-width="1.2" opacity="0.7"/>`,
          );
      } else {
        svg +=
          shoulderShade +
          folds +
          strand(`M${CX} ${sy + 40}L${CX} 400`, shirtDark, 1.5, 0.6) +
          `<circle cx="${CX}" cy="${sy + 58}" r="2.2" fill="${lighten(shirt, 0.5)}" stroke="${shirtDark}" stroke-width="0.8"/>`;
      }
      // collar wings
      const wing = `M${CX + nw + 1} ${sy - 16}C${CX + nw + 6} ${sy - 6} ${CX + nw + 12} ${sy + 4} ${CX + nw + 16} ${sy + 12}L${CX + 9} ${sy + 40}C${CX + 16} ${sy + 24} ${CX + nw - 6} ${sy} ${CX + nw + 1} ${sy - 16}Z`;
      svg += both(
        `<path d="${wing}" fill="${darken(shirt, 0.3)}" opacity="0.35" transform="translate(1.5 2.5)" filter="url(#soft1)"/>` +
          `<path d="${wing}" fill="${lighten(shirt, 0.1)}" stroke="${shirtDark}" stroke-width="1.1" stroke-linejoin="round"/>`,
      );
      break;
    }
    case 'turtleneck': {
      svg =
        `<path d="${shoulderL}C${CX - nw + 6} ${sy + 4} ${CX + nw - 6} ${sy + 4} ${CX + nw + 12} ${sy}${shoulderR}" fill="url(#clothGrad)"/>` +
        shoulderShade +
        `<path d="M${CX - nw - 5} ${sy - 28}C${CX - nw - 8} ${sy - 12} ${CX - nw - 10} ${sy} ${CX - nw - 12} ${sy + 10}C${CX - 20} ${sy + 20} ${CX + 20} ${sy + 20} ${CX + nw + 12} ${sy + 10}C${CX + nw + 10} ${sy} ${CX + nw + 8} ${sy - 12} ${CX + nw + 5} ${sy - 28}C${CX + 20} ${sy - 18} ${CX - 20} ${sy - 18} ${CX - nw - 5} ${sy - 28}Z" fill="${col}"/>` +
        [-24, -14, -4, 6]
          .map((y, i) =>
            strand(
              `M${CX - nw - 6 - i * 2} ${sy + y + 6}C${CX - 20} ${sy + y + 16} ${CX + 20} ${sy + y + 16} ${CX + nw + 6 + i * 2} ${sy + y + 6}`,
              dark,
              1.6,
              0.4,
            ),
          )
          .join('') +
        folds;
      break;
    }
    default:
      throw new Error(`unknown clothing type ${c.type}`);
  }
  return { defs, behind, svg };
}

// ---------------------------------------------------------------------------
// The portrait
// ---------------------------------------------------------------------------

/**
 * Returns the SVG (300x400) of one fictional person.
 * @param {object} p
 * @param {"f"|"m"} p.sex      drives face shape, brows, neck width
 * @param {string}  p.skin     base skin colour
 * @param {string}  p.hair     hair colour
 * @param {string}  p.hairStyle key of HAIR_STYLES
 * @param {object}  [p.hairOpts] options for the hair style
 * @param {string}  p.eyes     iris colour
 * @param {number}  p.age      drives wrinkles and lip fullness
 * @param {string[]} [p.accessories] glasses | studs | pearls | hoops
 * @param {object}  p.clothing { type: crew|vneck|collar|blazer|turtleneck, color, shirt? }
 * @param {string}  [p.facialHair] beard | moustache
 * @param {string}  [p.brows]  eyebrow colour (defaults to a darker hair colour)
 * @param {string}  [p.lips]   lip colour
 * @param {boolean} [p.freckles]
 * @param {boolean} [p.blush]
 */
function drawPortrait(p) {
  const fem = p.sex === 'f';
  const age = p.age ?? 30;
  const accessories = p.accessories ?? [];
  const g = {
    top: 62,
    eyeY: 176,
    browY: 158,
    noseY: 224,
    mouthY: fem ? 246 : 248,
    chin: fem ? 285 : 291,
    hw: fem ? 73 : 77,
    jw: fem ? 52 : 62,
    jawY: fem ? 246 : 250,
    chw: fem ? 17 : 23,
    hairY: 98,
    sideburnY: 184,
    neckW: fem ? 33 : 40,
    eyeDx: 30,
    ew: 13.5,
    mw: fem ? 19 : 20,
    ...p.geom, // per-person face shape tweaks
  };
  const { top, eyeY, browY, noseY, mouthY, chin, hw, jw, jawY, chw, hairY, neckW, eyeDx, ew, mw } = g;

  const skin = p.skin;
  const [sr, sg, sb] = rgb(skin);
  const skinLum = (0.2126 * sr + 0.7152 * sg + 0.0722 * sb) / 255;
  const shade = (t) => skinShade(skin, t);
  const hc = hairPaint(p.hair);
  const browCol = p.brows ?? darken(p.hair, 0.2);
  const lips = p.lips ?? mix(skin, '#b5484c', fem ? 0.42 : 0.3);
  const lashCol = mix(darken(p.hair, 0.5), '#1b120e', 0.7);

  const face = symPath(
    [CX, top],
    [
      [
        [CX + hw * 0.57, top],
        [CX + hw, top + (eyeY - top) * 0.4],
        [CX + hw, eyeY],
      ],
      [
        [CX + hw, eyeY + 34],
        [CX + jw + 7, jawY - 24],
        [CX + jw, jawY],
      ],
      [
        [CX + jw - 6, jawY + 17],
        [CX + chw + 12, chin - 7],
        [CX + chw, chin - 2],
      ],
      [
        [CX + chw * 0.55, chin],
        [CX + chw * 0.25, chin],
        [CX, chin],
      ],
    ],
  );

  const hairFn = HAIR_STYLES[p.hairStyle];
  if (!hairFn) throw new Error(`unknown hair style ${p.hairStyle}`);
  const hairSvg = hairFn(g, hc, p.hairOpts);
  const cloth = drawClothing(g, p.clothing);

  // --- defs ---------------------------------------------------------------
  const defs = `
<radialGradient id="bg" cx="150" cy="170" r="260" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#eef2f6"/><stop offset="1" stop-color="#dbe3eb"/></radialGradient>
<radialGradient id="faceGrad" cx="${CX - 8}" cy="${eyeY - 10}" r="${hw + 60}" gradientUnits="userSpaceOnUse">
  <stop offset="0" stop-color="${lighten(skin, 0.1)}"/><stop offset="0.55" stop-color="${skin}"/><stop offset="1" stop-color="${shade(0.2)}"/></radialGradient>
<linearGradient id="neckGrad" x1="${CX - neckW}" y1="0" x2="${CX + neckW}" y2="0" gradientUnits="userSpaceOnUse">
  <stop offset="0" stop-color="${shade(0.2)}"/><stop offset="0.45" stop-color="${shade(0.08)}"/><stop offset="1" stop-color="${shade(0.18)}"/></linearGradient>
<linearGradient id="hairGrad" x1="0" y1="${top - 30}" x2="0" y2="370" gradientUnits="userSpaceOnUse">
  <stop offset="0" stop-color="${hc.light}"/><stop offset="0.3" stop-color="${hc.base}"/><stop offset="1" stop-color="${hc.dark}"/></linearGradient>
<radialGradient id="irisGrad" cx="0.5" cy="0.5" r="0.5">
  <stop offset="0.3" stop-color="${lighten(p.eyes, 0.25)}"/><stop offset="0.8" stop-color="${p.eyes}"/><stop offset="1" stop-color="${darken(p.eyes, 0.45)}"/></radialGradient>
<linearGradient id="lipGrad" x1="0" y1="${mouthY - 6}" x2="0" y2="${mouthY + 9}" gradientUnits="userSpaceOnUse">
  <stop offset="0" stop-color="${darken(lips, 0.12)}"/><stop offset="0.45" stop-color="${darken(lips, 0.05)}"/><stop offset="0.6" stop-color="${lips}"/><stop offset="1" stop-color="${lighten(lips, 0.08)}"/></linearGradient>
<clipPath id="faceClip"><path d="${face}"/></clipPath>
<clipPath id="eyeClip"><path d="${eyeShape(CX + eyeDx, eyeY, ew)}"/></clipPath>
<filter id="soft1" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="1"/></filter>
<filter id="soft2" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="2"/></filter>
<filter id="soft4" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="4"/></filter>
<filter id="soft7" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="7"/></filter>
${cloth.defs}`;

  // --- neck -----------------------------------------------------------------
  const neck = `M${CX - neckW} ${jawY - 20}C${CX - neckW + 1} 292 ${CX - neckW - 1} 312 ${CX - neckW - 10} 400L${CX + neckW + 10} 400C${CX + neckW + 1} 312 ${CX + neckW - 1} 292 ${CX + neckW} ${jawY - 20}Z`;
  let neckSvg =
    `<path d="${neck}" fill="url(#neckGrad)"/>` +
    `<clipPath id="neckClip"><path d="${neck}"/></clipPath>` +
    `<g clip-path="url(#neckClip)"><path d="${face}" transform="translate(0 9)" fill="${shade(0.45)}" opacity="0.55" filter="url(#soft4)"/></g>`;
  if (age >= 60) {
    neckSvg += `<g clip-path="url(#neckClip)">${strand(`M${CX - 18} ${chin + 20}Q${CX} ${chin + 26} ${CX + 18} ${chin + 20}`, shade(0.4), 1.2, 0.35)}${strand(`M${CX - 22} ${chin + 32}Q${CX} ${chin + 38} ${CX + 22} ${chin + 32}`, shade(0.4), 1.1, 0.3)}${strand(`M${CX - 10} ${chin + 6}L${CX - 12} ${chin + 28}M${CX + 10} ${chin + 6}L${CX + 12} ${chin + 28}`, shade(0.35), 1.1, 0.25)}</g>`;
  }

  // --- ears -----------------------------------------------------------------
  const ex = CX + hw;
  let ear =
    `<path d="M${ex - 5} ${browY + 8}C${ex + 5} ${browY - 5} ${ex + 15} ${browY + 6} ${ex + 13} ${browY + 24}C${ex + 12} ${noseY - 18} ${ex + 8} ${noseY + 1} ${ex - 2} ${noseY - 3}Z" fill="${shade(0.08)}"/>` +
    strand(
      `M${ex + 1} ${browY + 5}C${ex + 11} ${browY + 2} ${ex + 12} ${browY + 24} ${ex + 7} ${browY + 34}C${ex + 4} ${browY + 40} ${ex + 5} ${browY + 46} ${ex + 7} ${browY + 52}`,
      shade(0.35),
      1.8,
      0.55,
    ) +
    `<ellipse cx="${ex + 3}" cy="${browY + 30}" rx="3" ry="7" fill="${shade(0.3)}" opacity="0.35" filter="url(#soft1)"/>`;
  if (accessories.includes('studs')) ear += `<circle cx="${ex + 5}" cy="${noseY - 4}" r="2.6" fill="#e8c46a" stroke="#a8842e" stroke-width="0.8"/>`;
  if (accessories.includes('pearls'))
    ear += `<circle cx="${ex + 5}" cy="${noseY - 3}" r="3.4" fill="#f6f2ea" stroke="#c9c0b0" stroke-width="0.8"/><circle cx="${ex + 4}" cy="${noseY - 4.2}" r="1" fill="#fff"/>`;
  if (accessories.includes('hoops')) ear += `<ellipse cx="${ex + 6}" cy="${noseY + 8}" rx="7" ry="10" fill="none" stroke="#d9b04c" stroke-width="2"/>`;

  // --- face details (clipped) ----------------------------------------------
  let details = '';
  // soft contour shadows: temples, cheek hollows, jaw
  details += both(
    `<path d="M${CX + hw - 2} ${eyeY + 10}C${CX + hw - 14} ${eyeY + 40} ${CX + jw - 4} ${jawY} ${CX + chw + 6} ${chin - 4}" stroke="${shade(0.35)}" stroke-width="12" fill="none" opacity="${fem ? 0.18 : 0.25}" filter="url(#soft7)"/>`,
  );
  // nose bridge shading
  details += both(
    `<path d="M${CX + 12} ${browY + 10}C${CX + 10} ${eyeY + 16} ${CX + 11} ${noseY - 24} ${CX + 14} ${noseY - 10}" stroke="${shade(0.4)}" stroke-width="4" fill="none" opacity="0.22" filter="url(#soft2)"/>`,
  );
  // soft highlights (stronger on darker skin, where they read as natural sheen)
  const sheen = n(0.04 + (1 - skinLum) * 0.12);
  details +=
    `<ellipse cx="${CX - 6}" cy="${hairY + 28}" rx="30" ry="13" fill="#ffffff" opacity="${sheen}" filter="url(#soft7)"/>` +
    both(`<ellipse cx="${CX + 40}" cy="${eyeY + 24}" rx="13" ry="6" fill="#ffffff" opacity="${n(sheen * 0.3)}" filter="url(#soft4)"/>`);
  // eye sockets
  details += both(`<ellipse cx="${CX + eyeDx}" cy="${eyeY - 4}" rx="${ew + 7}" ry="11" fill="${shade(0.3)}" opacity="0.2" filter="url(#soft4)"/>`);
  if (p.blush !== false) {
    const blushCol = skinLum > 0.55 ? mix(skin, '#e0676a', 0.55) : mix(skin, '#8a2c2c', 0.35);
    details += both(`<ellipse cx="${CX + 44}" cy="${noseY - 10}" rx="16" ry="10" fill="${blushCol}" opacity="${fem ? 0.22 : 0.12}" filter="url(#soft7)"/>`);
  }
  // age lines
  const lineA = (o) => (age >= 60 ? o : age >= 45 ? o * 0.6 : age >= 38 ? o * 0.22 : 0);
  if (lineA(1) > 0) {
    details += both(
      strand(`M${CX + 18} ${noseY - 6}C${CX + 27} ${noseY + 6} ${CX + 29} ${mouthY - 6} ${CX + mw + 8} ${mouthY + 8}`, shade(0.45), 1.5, lineA(0.45)),
    );
  }
  if (age >= 45) {
    details += [0, 1, 2]
      .slice(0, age >= 60 ? 3 : 1)
      .map((i) =>
        strand(`M${CX - 30 + i * 3} ${hairY + 16 + i * 9}Q${CX} ${hairY + 12 + i * 9} ${CX + 30 - i * 3} ${hairY + 16 + i * 9}`, shade(0.4), 1.2, lineA(0.35)),
      )
      .join('');
    details += both(
      strand(`M${CX + eyeDx + ew + 5} ${eyeY - 3}l7 -3`, shade(0.45), 1.1, lineA(0.5)) +
        strand(`M${CX + eyeDx + ew + 5} ${eyeY + 2}l7 2`, shade(0.45), 1.1, lineA(0.5)) +
        (age >= 60 ? strand(`M${CX + eyeDx + ew + 3} ${eyeY + 6}l6 5`, shade(0.45), 1.1, 0.4) : ''),
    );
  }
  if (age >= 60) {
    details += both(
      strand(`M${CX + eyeDx - 9} ${eyeY + 11}Q${CX + eyeDx} ${eyeY + 16} ${CX + eyeDx + 10} ${eyeY + 10}`, shade(0.45), 1.2, 0.45) +
        strand(`M${CX + mw + 4} ${mouthY + 8}Q${CX + mw + 8} ${mouthY + 20} ${CX + mw + 8} ${chin - 12}`, shade(0.45), 1.2, 0.35) +
        strand(`M${CX + 8} ${browY + 2}L${CX + 6} ${browY + 12}`, shade(0.4), 1, 0.35),
    );
  }
  if (p.freckles) {
    const r = rng(3);
    const gauss = () => (r() + r() + r() - 1.5) / 1.5;
    for (let i = 0; i < 110; i++) {
      const x = CX + gauss() * 80;
      const y = eyeY + 25 + gauss() * 16 + Math.abs(x - CX) * 0.06;
      if (Math.abs(x - CX) < 8 && y > noseY - 10) continue;
      details += `<circle cx="${n(x)}" cy="${n(y)}" r="${n(0.55 + r() * 0.75)}" fill="${mix(skin, '#a4582c', 0.6)}" opacity="${n(0.3 + r() * 0.35)}"/>`;
    }
  }
  // hair shadow on the forehead
  if (hairSvg.shadow) {
    details += `<path d="${hairSvg.shadow}" transform="translate(0 5)" fill="${shade(0.5)}" opacity="0.35" filter="url(#soft4)"/>`;
  }

  // --- eyes & brows -----------------------------------------------------------
  const ey = eyeY;
  const ecx = CX + eyeDx;
  const eyeR =
    // white, with a soft shadow cast by the upper lid
    `<path d="${eyeShape(ecx, ey, ew)}" fill="#f6f2ec"/>` +
    `<g clip-path="url(#eyeClip)">` +
    `<circle cx="${ecx}" cy="${ey + 0.5}" r="6.6" fill="url(#irisGrad)"/>` +
    `<circle cx="${ecx}" cy="${ey + 0.5}" r="2.9" fill="#16100d"/>` +
    `<path d="M${ecx - ew - 2} ${ey - 10}L${ecx + ew + 2} ${ey - 10}L${ecx + ew + 2} ${ey - 4}Q${ecx} ${ey - 1} ${ecx - ew - 2} ${ey - 4}Z" fill="${shade(0.5)}" opacity="0.3" filter="url(#soft1)"/>` +
    `</g>` +
    // upper lash line & lid crease
    `<path d="M${ecx - ew} ${ey + 1}C${ecx - ew * 0.5} ${ey - 8.8} ${ecx + ew * 0.45} ${ey - 9.3} ${ecx + ew} ${ey - 1}${fem ? `l3.2 -2.2` : ''}" fill="none" stroke="${lashCol}" stroke-width="${fem ? 2.4 : 2}" stroke-linecap="round" stroke-linejoin="round"/>` +
    strand(
      `M${ecx - ew + 2} ${ey - 6}C${ecx - ew * 0.4} ${ey - (age >= 60 ? 12 : 14)} ${ecx + ew * 0.5} ${ey - (age >= 60 ? 12 : 14)} ${ecx + ew + 1} ${ey - (age >= 60 ? 3 : 5)}`,
      shade(0.45),
      1.2,
      age >= 60 ? 0.6 : 0.45,
    ) +
    strand(`M${ecx - ew + 3} ${ey + 3}C${ecx - ew * 0.3} ${ey + 6.5} ${ecx + ew * 0.4} ${ey + 6.2} ${ecx + ew - 1} ${ey + 0.5}`, shade(0.5), 1, 0.35);
  const bx0 = CX + 14;
  const bx1 = CX + 50;
  const bt = fem ? 3.6 : 5.4;
  const by = browY;
  const brow = `<path d="M${bx0} ${by + 3}C${bx0 + 9} ${by - 3} ${bx0 + 22} ${by - (fem ? 7 : 5)} ${bx1} ${by + (fem ? 1 : 0)}C${bx0 + 22} ${by - (fem ? 7 : 5) + bt * 0.8} ${bx0 + 9} ${by - 3 + bt} ${bx0 - 0.5} ${by + 3 + bt}Q${bx0 - 2} ${by + 4 + bt / 2} ${bx0} ${by + 3}Z" fill="${browCol}"/>`;
  const highlights = [ecx - 2.2, 2 * CX - ecx - 2.2].map((x) => `<circle cx="${x}" cy="${ey - 2}" r="1.7" fill="#ffffff" opacity="0.95"/>`).join('');

  // --- nose ---------------------------------------------------------------
  const ns = p.noseW ?? 1; // nose width factor
  const nose =
    `<ellipse cx="${CX}" cy="${noseY + 6}" rx="${11 * ns}" ry="3.5" fill="${shade(0.5)}" opacity="0.2" filter="url(#soft2)"/>` +
    both(
      strand(`M${CX + 8 * ns} ${noseY + 1.5}C${CX + 14 * ns} ${noseY + 2} ${CX + 16 * ns} ${noseY - 3} ${CX + 14 * ns} ${noseY - 9}`, shade(0.5), 1.6, 0.6) +
        `<ellipse cx="${CX + 6 * ns}" cy="${noseY + 0.5}" rx="${3.3 * ns}" ry="1.6" fill="${shade(0.6)}" opacity="0.55" transform="rotate(12 ${CX + 6 * ns} ${noseY + 0.5})"/>`,
    ) +
    strand(`M${CX - 5} ${noseY + 2}Q${CX} ${noseY + 4.5} ${CX + 5} ${noseY + 2}`, shade(0.45), 1.2, 0.4) +
    `<ellipse cx="${CX - 1}" cy="${noseY - 8}" rx="4.5" ry="6" fill="#ffffff" opacity="0.16" filter="url(#soft2)"/>`;

  // --- mouth ----------------------------------------------------------------
  const ls = p.lipScale ?? 1;
  const up = (age >= 60 ? 4 : fem ? 6 : 4.6) * ls; // upper lip height
  const lo = (age >= 60 ? 5.5 : fem ? 8.5 : 7) * ls; // lower lip height
  const mouth =
    `<ellipse cx="${CX}" cy="${mouthY + lo + 5}" rx="10" ry="3" fill="${shade(0.5)}" opacity="0.2" filter="url(#soft2)"/>` +
    `<path d="M${CX - mw} ${mouthY}C${CX - mw * 0.6} ${mouthY - up * 0.6} ${CX - 6} ${mouthY - up - 1.5} ${CX} ${mouthY - up + 0.5}C${CX + 6} ${mouthY - up - 1.5} ${CX + mw * 0.6} ${mouthY - up * 0.6} ${CX + mw} ${mouthY}` +
    `C${CX + mw * 0.6} ${mouthY + lo * 1.2} ${CX - mw * 0.6} ${mouthY + lo * 1.2} ${CX - mw} ${mouthY}Z" fill="url(#lipGrad)"/>` +
    `<path d="M${CX - mw} ${mouthY}C${CX - mw * 0.5} ${mouthY + 1.4} ${CX + mw * 0.5} ${mouthY + 1.4} ${CX + mw} ${mouthY}" fill="none" stroke="${darken(lips, 0.45)}" stroke-width="1.3" stroke-linecap="round"/>` +
    `<ellipse cx="${CX + 2}" cy="${mouthY + lo * 0.55}" rx="${mw * 0.35}" ry="1.4" fill="#ffffff" opacity="0.22" filter="url(#soft1)"/>`;

  // --- facial hair ------------------------------------------------------------
  let facial = '';
  /** Short downward hair strokes clipped to `shape`, for beard/moustache texture. */
  const hairTexture = (id, shape, box, count, colors, seed) => {
    const rr = rng(seed);
    let s = '';
    for (let i = 0; i < count; i++) {
      const x = box[0] + rr() * (box[2] - box[0]);
      const y = box[1] + rr() * (box[3] - box[1]);
      const dx = ((x - CX) / hw) * 2.2;
      s += `<path d="M${n(x)} ${n(y)}l${n(dx)} ${n(3 + rr() * 2)}" stroke="${colors[i % colors.length]}"/>`;
    }
    return `<clipPath id="${id}"><path d="${shape}"/></clipPath><g clip-path="url(#${id})" stroke-width="1" stroke-linecap="round" fill="none" opacity="0.45">${s}</g>`;
  };
  if (p.facialHair === 'beard') {
    const beard = symPath(
      [CX, mouthY + 12],
      [
        [
          [CX + 7, mouthY + 12],
          [CX + mw - 1, mouthY + 9],
          [CX + mw + 4, mouthY + 2],
        ],
        [
          [CX + mw + 12, mouthY - 4],
          [CX + hw - 16, noseY + 2],
          [CX + hw - 8, g.sideburnY - 1],
        ],
        [
          [CX + hw - 5, g.sideburnY - 1],
          [CX + hw - 2, g.sideburnY - 1],
          [CX + hw + 1, g.sideburnY - 1],
        ],
        [
          [CX + hw + 1, eyeY + 46],
          [CX + jw + 7, jawY - 12],
          [CX + jw + 2, jawY + 2],
        ],
        [
          [CX + jw - 4, jawY + 22],
          [CX + chw + 12, chin + 3],
          [CX + chw, chin + 4],
        ],
        [
          [CX + chw * 0.6, chin + 5],
          [CX + chw * 0.3, chin + 5],
          [CX, chin + 5],
        ],
      ],
    );
    facial +=
      `<path d="${beard}" fill="${hc.base}" opacity="0.5" filter="url(#soft2)"/>` +
      `<path d="${beard}" fill="${hc.base}" opacity="0.9"/>` +
      hairTexture('beardTex', beard, [CX - hw, eyeY + 10, CX + hw, chin + 8], 420, [hc.dark, hc.light, hc.deep], 5);
  }
  if (p.facialHair === 'beard' || p.facialHair === 'moustache') {
    const thick = p.facialHair === 'moustache';
    const t0 = noseY + (thick ? 5 : 6);
    const mo = symPath(
      [CX, t0],
      [
        [
          [CX + 7, t0 - 1.5],
          [CX + mw - 2, t0],
          [CX + mw + (thick ? 5 : 3), mouthY - 1],
        ],
        [
          [CX + mw + (thick ? 7 : 4), mouthY + 2],
          [CX + mw + (thick ? 5 : 3), mouthY + 5],
          [CX + mw + 2, mouthY + 3],
        ],
        [
          [CX + mw - 4, mouthY - 3],
          [CX + 7, mouthY - 4.5],
          [CX, mouthY - 3],
        ],
      ],
    );
    const moCol = thick ? p.hair : hc.base;
    facial +=
      `<path d="${mo}" fill="${darken(moCol, 0.3)}" opacity="0.5" filter="url(#soft1)"/>` +
      `<path d="${mo}" fill="${moCol}"/>` +
      hairTexture('moTex', mo, [CX - mw - 8, t0 - 2, CX + mw + 8, mouthY + 4], 150, [lighten(moCol, thick ? 0.3 : 0.25), darken(moCol, 0.3)], 9);
  }

  // --- glasses ----------------------------------------------------------------
  let glasses = '';
  if (accessories.includes('glasses')) {
    const fc = '#2b2b31';
    const gx = ecx - 22;
    const gy = ey - 13;
    const lens = `<rect x="${gx}" y="${gy}" width="44" height="30" rx="9"`;
    glasses =
      both(
        `<path d="M${gx + 44} ${gy + 8}L${CX + hw + 1} ${gy + 9}" stroke="${fc}" stroke-width="3" stroke-linecap="round"/>` +
          `${lens} fill="#dfeaf5" fill-opacity="0.12" stroke="${fc}" stroke-width="3.2"/>` +
          `<path d="M${gx + 8} ${gy + 24}L${gx + 20} ${gy + 4}M${gx + 14} ${gy + 26}L${gx + 24} ${gy + 10}" stroke="#ffffff" stroke-width="2" opacity="0.3" stroke-linecap="round"/>` +
          `<rect x="${gx}" y="${gy + 31}" width="44" height="4" rx="2" fill="${shade(0.5)}" opacity="0.18" filter="url(#soft1)"/>`,
      ) + `<path d="M${CX - 8} ${gy + 9}Q${CX} ${gy + 3} ${CX + 8} ${gy + 9}" stroke="${fc}" stroke-width="3" fill="none"/>`;
  }

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<defs>${defs}</defs>
<rect width="${W}" height="${H}" fill="url(#bg)"/>
${hairSvg.back}
${cloth.behind}
${neckSvg}
${cloth.svg}
${both(ear)}
<path d="${face}" fill="url(#faceGrad)"/>
<g clip-path="url(#faceClip)">${details}</g>
${both(eyeR + brow)}${highlights}
${nose}
${mouth}
${facial}
${hairSvg.front}
${glasses}
</svg>`;
}

/** Almond eye outline centred at (x, y), half width w (right eye; mirrored for left). */
function eyeShape(x, y, w) {
  return `M${x - w} ${y + 1}C${x - w * 0.5} ${y - 8.5} ${x + w * 0.45} ${y - 9} ${x + w} ${y - 1}C${x + w * 0.4} ${y + 6} ${x - w * 0.5} ${y + 6.5} ${x - w} ${y + 1}Z`;
}

// ---------------------------------------------------------------------------
// Personas (fictional)
// ---------------------------------------------------------------------------

const PERSONAS = [
  {
    id: 'ingrid-haugen',
    sex: 'f',
    age: 39,
    skin: '#f6dccb',
    hair: '#e2c27e',
    hairStyle: 'long',
    eyes: '#4b84c4',
    lips: '#d38c84',
    clothing: { type: 'vneck', color: '#2f6b77' },
  },
  {
    id: 'lars-eriksson',
    sex: 'm',
    age: 47,
    skin: '#efcbb0',
    hair: '#9b7553',
    hairStyle: 'short',
    hairOpts: { part: -26, recess: 7, drop: 2, fringe: { locks: 5, depth: 1.5 } },
    eyes: '#6a8ea8',
    lips: '#c98d80',
    facialHair: 'beard',
    geom: { hw: 79, jw: 64 },
    noseW: 1.1,
    clothing: { type: 'blazer', color: '#414a5c', shirt: '#dbe6f1' },
  },
  {
    id: 'amira-nilsen',
    sex: 'f',
    age: 29,
    skin: '#a86c49',
    hair: '#2b1b15',
    hairStyle: 'bun',
    eyes: '#3f2517',
    lips: '#8f4b42',
    brows: '#24160f',
    geom: { hw: 72, jw: 50 },
    noseW: 1.12,
    lipScale: 1.2,
    accessories: ['hoops'],
    clothing: { type: 'crew', color: '#c86a3e' },
  },
  {
    id: 'jonas-weber',
    sex: 'm',
    age: 35,
    skin: '#f0cfb6',
    hair: '#3b2b23',
    hairStyle: 'short',
    hairOpts: { volume: 9, drop: 8, fringe: { locks: 10, depth: 5 }, seed: 2 },
    eyes: '#6e4c31',
    lips: '#c98b7f',
    accessories: ['glasses'],
    geom: { jw: 60, chw: 21 },
    clothing: { type: 'collar', color: '#5f82ad', shirt: '#6f91bb' },
  },
  {
    id: 'sofia-costa',
    sex: 'f',
    age: 33,
    skin: '#d8a883',
    hair: '#36211a',
    hairStyle: 'wavy',
    eyes: '#5c3b21',
    lips: '#b86a62',
    geom: { hw: 74, jw: 54 },
    lipScale: 1.1,
    clothing: { type: 'vneck', color: '#8c2f4a' },
  },
  {
    id: 'mikkel-strand',
    sex: 'm',
    age: 24,
    skin: '#f8dfcf',
    hair: '#c45a22',
    hairStyle: 'short',
    hairOpts: { volume: 16, side: 6, tufts: true, drop: 8, fringe: { locks: 7, depth: 13 }, seed: 4 },
    eyes: '#5d8c5a',
    lips: '#d0928a',
    brows: '#a9501f',
    freckles: true,
    geom: { hw: 75, jw: 58, chw: 20 },
    noseW: 0.95,
    clothing: { type: 'crew', color: '#3f6d50' },
  },
  {
    id: 'eva-lindqvist',
    sex: 'f',
    age: 68,
    skin: '#f0d3c1',
    hair: '#c8c8cc',
    hairStyle: 'pixie',
    eyes: '#6d8fb0',
    lips: '#c98a86',
    brows: '#9d9894',
    geom: { jw: 54, chw: 18 },
    accessories: ['pearls'],
    clothing: { type: 'turtleneck', color: '#7a5e91' },
  },
  {
    id: 'nora-berg',
    sex: 'f',
    age: 31,
    skin: '#f3d5c2',
    hair: '#7a4b2a',
    hairStyle: 'wavy',
    eyes: '#4f7a5a',
    lips: '#c98680',
    geom: { hw: 73, jw: 52 },
    clothing: { type: 'turtleneck', color: '#35506e' },
  },
  {
    id: 'alex-moreau',
    sex: 'f',
    age: 26,
    skin: '#e9c2a4',
    hair: '#1f1a17',
    hairStyle: 'pixie',
    eyes: '#4a3322',
    lips: '#b97d72',
    brows: '#1c1714',
    geom: { hw: 74, jw: 56, chw: 20 },
    accessories: ['glasses'],
    clothing: { type: 'crew', color: '#4e7f6e' },
  },
  {
    id: 'sam-keller',
    sex: 'm',
    age: 50,
    skin: '#eccab2',
    hair: '#8d8a86',
    hairStyle: 'short',
    hairOpts: { part: 22, recess: 10, drop: 3, fringe: { locks: 4, depth: 1 } },
    eyes: '#5f7f95',
    lips: '#c08a7e',
    geom: { hw: 77, jw: 60 },
    clothing: { type: 'blazer', color: '#2e3b4e', shirt: '#f1ede4' },
  },
  {
    id: 'tobias-hansen',
    sex: 'm',
    age: 41,
    skin: '#6f4631',
    hair: '#1c1410',
    hairStyle: 'shaved',
    hairOpts: { stubble: 0.16 },
    eyes: '#2f1c12',
    lips: '#6a3a30',
    brows: '#1a120e',
    facialHair: 'moustache',
    geom: { hw: 80, jw: 66, chw: 26 },
    noseW: 1.25,
    lipScale: 1.15,
    clothing: { type: 'collar', color: '#d39440', shirt: '#d39440' },
  },
];

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

async function main() {
  const args = process.argv.slice(2);
  const sheetIdx = args.indexOf('--sheet');
  const sheetPath = sheetIdx >= 0 ? args[sheetIdx + 1] : null;

  await mkdir(OUT_DIR, { recursive: true });
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: W, height: H }, deviceScaleFactor: 1 });
    for (const persona of PERSONAS) {
      const svg = drawPortrait(persona);
      await page.setContent(`<!doctype html><html><body style="margin:0;background:#fff">${svg}</body></html>`);
      const jpg = await page.screenshot({ type: 'jpeg', quality: JPEG_QUALITY, clip: { x: 0, y: 0, width: W, height: H } });
      const file = path.join(OUT_DIR, `${persona.id}.jpg`);
      await writeFile(file, jpg);
      console.log(`${path.relative(ROOT, file)}  ${jpg.length} bytes`);
    }
    if (sheetPath) {
      const cells = await Promise.all(
        PERSONAS.map(async (p) => {
          const b64 = (await readFile(path.join(OUT_DIR, `${p.id}.jpg`))).toString('base64');
          return `<figure style="margin:0;text-align:center;font:12px sans-serif"><img src="data:image/jpeg;base64,${b64}" width="${W}" height="${H}"><figcaption>${p.id}</figcaption></figure>`;
        }),
      );
      const sheet = await browser.newPage({ viewport: { width: 4 * W + 50, height: 2 * H + 80 } });
      await sheet.setContent(`<!doctype html><body style="margin:10px;display:grid;grid-template-columns:repeat(4,${W}px);gap:10px">${cells.join('')}</body>`);
      await sheet.screenshot({ path: sheetPath, fullPage: true });
      console.log(`contact sheet: ${sheetPath}`);
    }
  } finally {
    await browser.close();
  }
}

await main();
