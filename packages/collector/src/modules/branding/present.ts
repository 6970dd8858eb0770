// A program's branding as the API and the pages show it: the logo as the public address of
// its image, which the portal, the public page and the embed load alike.

import type { BrandRow } from './model.js';

export const logoPath = (programId: string, logoId: string | null): string | null =>
  logoId === null ? null : `/v1/public/brands/${encodeURIComponent(programId)}/logo?v=${encodeURIComponent(logoId)}`;

export const renderBrand = (b: BrandRow) => ({
  logo_id: b.logo_id,
  logo_url: logoPath(b.program_id, b.logo_id),
  accent: b.accent,
  host: b.host,
});
