// Secrets kept at rest (partners' taxpayer ids): AES-256-GCM with keys from the
// configuration. Each ciphertext names the key that made it by an id derived from the key
// itself, so a new key can encrypt while older ones still decrypt (rotation: docs/payouts.md).

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface Sealed {
  /** base64 of the 12-byte nonce, the ciphertext and the 16-byte tag. */
  ciphertext: string;
  keyId: string;
}

export interface Keyring {
  /** The id of the key new secrets are sealed with. */
  readonly currentId: string;
  seal(plaintext: string, context: string): Sealed;
  /** Throws when the key is not in the ring or the ciphertext or its context was altered. */
  open(sealed: Sealed, context: string): string;
}

/** The key's 32 bytes, or an error in words for the configuration's message. */
export function parseKey(base64: string): Buffer | string {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32 || key.toString('base64') !== base64.trim()) return 'must be 32 bytes in base64 (openssl rand -base64 32)';
  return key;
}

/** A short public name for a key: it reveals nothing of the key, and no two keys share it in practice. */
const idOf = (key: Buffer): string => createHash('sha256').update('tally keyring\0').update(key).digest('hex').slice(0, 16);

/** The ring of `current` (base64) and the older keys that only decrypt. */
export function keyring(current: string, older: readonly string[] = []): Keyring {
  const keys = new Map<string, Buffer>();
  const parsed = [current, ...older].map((k) => {
    const key = parseKey(k);
    if (typeof key === 'string') throw new Error(`a key ${key}`);
    keys.set(idOf(key), key);
    return key;
  });
  const currentId = idOf(parsed[0]!);
  return {
    currentId,
    seal(plaintext, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keys.get(currentId)!, nonce);
      // The context (the record's id) is authenticated: a ciphertext copied onto another record does not open.
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return { ciphertext: Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64'), keyId: currentId };
    },
    open(sealed, context) {
      const key = keys.get(sealed.keyId);
      if (!key) throw new Error(`no configured key has id ${sealed.keyId}`);
      const raw = Buffer.from(sealed.ciphertext, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}
