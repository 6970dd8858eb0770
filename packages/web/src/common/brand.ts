// A program's accent colour (docs/branding.md) on the portal, its public page and the embed.
// Set through the CSSOM, which the apps' CSP allows where a style attribute is not; only on
// the light theme, the surfaces the collector checked its contrast against. Kept small: it
// is in the portal's entry, at its budget.

import { useEffect } from 'preact/hooks';

export const useAccent = (accent: string | null | undefined): void =>
  useEffect(() => {
    const root = document.documentElement.style;
    if (accent && !matchMedia('(prefers-color-scheme: dark)').matches) root.setProperty('--accent', accent);
    else root.removeProperty('--accent');
  }, [accent]);
