/** `#rrggbb`, lower or upper case. */
export const BRAND_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** WCAG relative luminance of an `#rrggbb` colour. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Contrast of the colour against the page's white cards (WCAG: 3:1 for graphics such as the route line). */
export function contrastOnWhite(hex: string): number {
  return 1.05 / (luminance(hex) + 0.05);
}

export const MIN_BRAND_CONTRAST = 3;
