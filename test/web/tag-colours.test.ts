/**
 * The colours of how a deal closed (the report's scatter of deals) must tell every two exits
 * apart: take profit and trailing stop were once two shades of green. Held to a CIEDE2000
 * distance (ΔE00: about 1 is the least a person notices; 20 is two clearly different colours).
 */
import { describe, expect, it } from 'vitest';
import { SpecialTagSchema } from '../../src/model/response.js';
import { TAG_COLOURS } from '../../web/report/format.js';

type Lab = readonly [number, number, number];

/** sRGB `#rrggbb` to CIELAB (D65 white). */
function lab(hex: string): Lab {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const [x, y, z] = [
    (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047,
    0.2126729 * r + 0.7151522 * g + 0.072175 * b,
    (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883,
  ].map((t) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116)) as [number, number, number];
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

/** CIEDE2000 (Sharma, Wu and Dalal 2005, equations 2-22). */
function deltaE00([L1, a1, b1]: Lab, [L2, a2, b2]: Lab): number {
  const rad = Math.PI / 180;
  const meanC = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const G = 0.5 * (1 - Math.sqrt(meanC ** 7 / (meanC ** 7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + G) * a1, (1 + G) * a2];
  const [C1, C2] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const hue = (a: number, b: number): number => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const [h1, h2] = [hue(a1p, b1), hue(a2p, b2)];
  let dh = C1 * C2 === 0 ? 0 : h2 - h1;
  if (dh > 180) dh -= 360;
  else if (dh < -180) dh += 360;
  const dH = 2 * Math.sqrt(C1 * C2) * Math.sin((dh / 2) * rad);
  const L = (L1 + L2) / 2;
  const C = (C1 + C2) / 2;
  let h = h1 + h2;
  if (C1 * C2 !== 0) h = Math.abs(h1 - h2) <= 180 ? h / 2 : h < 360 ? (h + 360) / 2 : (h - 360) / 2;
  const T =
    1 -
    0.17 * Math.cos((h - 30) * rad) +
    0.24 * Math.cos(2 * h * rad) +
    0.32 * Math.cos((3 * h + 6) * rad) -
    0.2 * Math.cos((4 * h - 63) * rad);
  const dTheta = 30 * Math.exp(-(((h - 275) / 25) ** 2));
  const RC = 2 * Math.sqrt(C ** 7 / (C ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (L - 50) ** 2) / Math.sqrt(20 + (L - 50) ** 2);
  const SC = 1 + 0.045 * C;
  const SH = 1 + 0.015 * C * T;
  const RT = -Math.sin(2 * dTheta * rad) * RC;
  const [l, c, hh] = [(L2 - L1) / SL, (C2 - C1) / SC, dH / SH];
  return Math.sqrt(l * l + c * c + hh * hh + RT * c * hh);
}

const distance = (a: string, b: string): number => deltaE00(lab(a), lab(b));

describe('the colours of how a deal closed', () => {
  it('name every special tag, and no tag at all', () => {
    const tags = SpecialTagSchema.unwrap().options;
    expect(Object.keys(TAG_COLOURS).sort()).toEqual([...tags, 'none'].sort());
  });

  it('are measured as published: sRGB red in CIELAB, and two pairs of Sharma et al.’s test data', () => {
    // sRGB red is L 53.24, a 80.09, b 67.20.
    expect(lab('#ff0000').map((v) => Math.round(v * 100) / 100)).toEqual([53.24, 80.09, 67.2]);
    expect(deltaE00([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(deltaE00([50, 2.5, 0], [73, 25, -18])).toBeCloseTo(27.1492, 4);
  });

  it('differ by 20 or more in every pair, take profit and trailing stop included', () => {
    const entries = Object.entries(TAG_COLOURS);
    for (const [i, [a, ca]] of entries.entries()) {
      for (const [b, cb] of entries.slice(i + 1))
        expect(distance(ca, cb), `${a} ${ca} against ${b} ${cb}`).toBeGreaterThanOrEqual(20);
    }
    // The two greens they were: 12.6 apart.
    expect(distance('#27ae60', '#16a085')).toBeLessThan(20);
  });
});
