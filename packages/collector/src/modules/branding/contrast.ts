// WCAG 2.x contrast (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio): the accent is text on
// the pages' light surfaces and the surface behind their buttons' white text, so it must reach
// AA's 4.5:1 for normal text against each of them.

/** The light theme's surfaces the accent meets (packages/web/src/dashboard/style.css: --panel, --bg, --accent-ink). */
export const SURFACES = ['#ffffff', '#f6f7f9'] as const;
export const AA_NORMAL_TEXT = 4.5;

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** The ratio of two #rrggbb colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The accent's lowest ratio against the surfaces it sits on, rounded down to two decimals (so 4.499 is not shown as 4.5). */
export const worstContrast = (accent: string): number => Math.floor(Math.min(...SURFACES.map((s) => contrastRatio(accent, s))) * 100) / 100;
