// Passkeys in the browser (docs/security.md): @simplewebauthn/browser turns the collector's
// options into navigator.credentials calls and their answers into JSON. It is fetched with
// the first passkey a person uses, so no app's entry carries it.

type Options = Record<string, unknown>;

const browser = () => import('@simplewebauthn/browser');

/** Whether this browser can use passkeys at all: the buttons are shown only then. */
export const passkeysWork = (): boolean => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** Makes a passkey for the collector's registration options; resolves to the browser's answer. */
export async function createPasskey(options: Options): Promise<Record<string, unknown>> {
  const { startRegistration } = await browser();
  return (await startRegistration({ optionsJSON: options as never })) as unknown as Record<string, unknown>;
}

/** Proves a passkey for the collector's request options; resolves to the browser's answer. */
export async function provePasskey(options: Options): Promise<Record<string, unknown>> {
  const { startAuthentication } = await browser();
  return (await startAuthentication({ optionsJSON: options as never })) as unknown as Record<string, unknown>;
}

/** A ceremony from its start (options and token) to the collector's answer to `finish`. */
export async function withPasskey<T>(
  start: () => Promise<{ meta: { token: string; options: Options } }>,
  finish: (token: string, response: Record<string, unknown>) => Promise<T>,
  create = false,
): Promise<T> {
  const { meta } = await start();
  const response = await (create ? createPasskey(meta.options) : provePasskey(meta.options));
  return finish(meta.token, response);
}
