// Enrolling an authenticator app, as every app shows it (docs/security.md): the QR code of the
// API's otpauth:// URI with its key to type in instead, and the recovery codes, shown once.
// Only lazily loaded pages use it, and each passes its own words: the entries carry none.

import { CopyButton, saveBlob } from './ui.js';

export interface Enrolment {
  id: string;
  secret: string;
  qrSvg: string;
}

/** An enrolment as the API answers it (`POST …/factors/totp`). */
export const enrolmentOf = (data: { id: string; attributes: { secret: string; qr_svg: string } }): Enrolment => ({
  id: data.id,
  secret: data.attributes.secret,
  qrSvg: data.attributes.qr_svg,
});

/** The QR code (`qr`: its name for a screen reader) and the key beside `keyLabel`. */
export function EnrolmentCode({ enrolment, qr, keyLabel }: { enrolment: Enrolment; qr: string; keyLabel: string }) {
  return (
    <>
      {/* The collector's own SVG of the otpauth:// URI (the qrcode package), no markup of anyone else's. */}
      <div class="qr" role="img" aria-label={qr} dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }} />
      <p>
        {keyLabel} <code class="totp-secret">{enrolment.secret}</code>
      </p>
    </>
  );
}

/** The codes, and (with `save`'s labels) buttons that copy them or download them as a text file. */
export function RecoveryCodeList({ codes, save }: { codes: readonly string[]; save?: { copy: string; download: string } }) {
  const asText = `${codes.join('\n')}\n`;
  return (
    <>
      <ul class="recovery-codes">
        {codes.map((c) => (
          <li>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      {save ? (
        <div class="buttons">
          <CopyButton text={asText} label={save.copy} />
          <button
            type="button"
            class="secondary"
            onClick={() => saveBlob(new Blob([asText], { type: 'text/plain' }), 'recovery-codes.txt')}
          >
            {save.download}
          </button>
        </div>
      ) : null}
    </>
  );
}
