// A button that runs a passkey ceremony (common/passkey.ts) and shows what went wrong, the
// browser's own refusal too (a cancelled prompt is a NotAllowedError).

import { useState } from 'preact/hooks';
import { passkeysWork } from './passkey.js';
import { Failure } from './ui.js';

export function PasskeyButton({ label, run, primary }: { label: string; run: () => Promise<unknown>; primary?: boolean }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  if (!passkeysWork()) return null;
  const click = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await run();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="passkey">
      {error !== undefined ? <Failure error={error} /> : null}
      <button type="button" class={primary ? undefined : 'secondary'} disabled={busy} onClick={click}>
        {label}
      </button>
    </div>
  );
}
