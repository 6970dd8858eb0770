// A link's QR code, as SVG and PNG, made by the `qrcode` package (decision 0389). The same
// text always makes the same image, so a few are kept in memory and browsers may keep them.

/** Loaded at the first code, not at start (about 10 MB; issue 47). */
const qrcode = async () => (await import('qrcode')).default;

const KEPT = 500;
const made = new Map<string, Buffer | string>();

async function cached<T extends Buffer | string>(key: string, make: () => Promise<T>): Promise<T> {
  const hit = made.get(key);
  if (hit !== undefined) return hit as T;
  const value = await make();
  if (made.size >= KEPT) made.delete(made.keys().next().value as string);
  made.set(key, value);
  return value;
}

const OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;

export const qrSvg = (text: string): Promise<string> =>
  cached(`svg ${text}`, async () => (await qrcode()).toString(text, { ...OPTIONS, type: 'svg' }));

/** 512 pixels square: sharp on a printed page. */
export const qrPng = (text: string): Promise<Buffer> =>
  cached(`png ${text}`, async () => (await qrcode()).toBuffer(text, { ...OPTIONS, type: 'png', width: 512 }));
