// Passkeys in the browser (docs/security.md): @simplewebauthn/browser turns the collector's
// options into navigator.credentials calls and their answers into JSON. It is fetched with
// the first passkey a person uses, so no app's entry carries it.

import { api } from './api.js';

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

/** Whose session: the dashboard's (an owner's) or the portal's (a partner's). */
export type Realm = 'owner' | 'partner';

/** A passkey's proof of the signed-in person, as a body's `passkey` (step-up, removing a factor, new recovery codes). */
export const sessionProof = (realm: Realm) =>
  withPasskey(
    () => (realm === 'partner' ? api.POST('/v1/portal/auth/passkey/options') : api.POST('/v1/auth/passkey/options')),
    async (token, response) => ({ token, response: response as never }),
  );

/** Makes a passkey on this device and adds it to the signed-in account; the recovery codes when it is the first factor. */
export const addPasskey = (realm: Realm) =>
  withPasskey(
    () => (realm === 'partner' ? api.POST('/v1/portal/auth/factors/passkey/options') : api.POST('/v1/auth/factors/passkey/options')),
    async (token, response) => {
      const body = { token, response: response as never };
      const added =
        realm === 'partner' ? api.POST('/v1/portal/auth/factors/passkey', { body }) : api.POST('/v1/auth/factors/passkey', { body });
      return (await added).meta.recovery_codes;
    },
    true,
  );
