// A program's accent colour (docs/branding.md) on the portal, its public page and the embed.
// Set through the CSSOM, which the apps' CSP allows where a style attribute is not; only on
// the light theme, the surfaces the collector checked its contrast against.

import { useEffect } from 'preact/hooks';

export function useAccent(accent: string | null | undefined): void {
  useEffect(() => {
    const root = document.documentElement.style;
    if (!accent || matchMedia('(prefers-color-scheme: dark)').matches) return;
    root.setProperty('--accent', accent);
    // The same colour at about 12 %, as the stylesheet's own fill is.
    root.setProperty('--accent-fill', `${accent}1f`);
    return () => {
      root.removeProperty('--accent');
      root.removeProperty('--accent-fill');
    };
  }, [accent]);
}
