import type { CSSProperties } from "react";

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The colour when it is exactly #rrggbb, else null: the one check every use of brandColor goes through. */
export function validBrandColor(value: string | null | undefined): string | null {
  return value && HEX.test(value) ? value : null;
}

/**
 * The school's accent colour (school.yaml `brandColor`) as the storefront's --accent, with a text
 * colour on it that stays readable (WCAG relative luminance). Anything but #rrggbb is ignored,
 * so a value written to the database by other means cannot inject CSS.
 */
export function brandStyle(value: string | null | undefined): CSSProperties | undefined {
  const brandColor = validBrandColor(value);
  if (!brandColor) return undefined;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(brandColor.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return { "--accent": brandColor, "--accent-fg": luminance > 0.179 ? "#000000" : "#ffffff" } as CSSProperties;
}
