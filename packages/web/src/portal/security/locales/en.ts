// The portal's two-step sign-in (Settings → Security, docs/security.md): the shape every
// language follows. A catalogue of its own, fetched with its pages, not in the portal's entry.

export default {
  panel: {
    title: 'Security',
    on: "Two-step sign-in is on: after your password, signing in asks for your authenticator app's code or your passkey.",
    off: 'Two-step sign-in is off: your password alone signs you in.',
    manage: 'Two-step sign-in',
  },
  page: {
    title: 'Two-step sign-in',
    back: 'Back to Settings',
    intro:
      "After your password, signing in asks for a six-digit code from an authenticator app on your phone, so that a stolen password is not enough. Changing how you are paid asks for a code again after ten minutes. A passkey (this device's fingerprint, face or PIN, or a security key) also works, and signs you in without a password.",
  },
  enrol: {
    add: 'Add an authenticator app',
    scan: 'Scan this QR code with your authenticator app, or type the key into it, then enter the six-digit code the app shows.',
    qr: 'QR code of the key, for your authenticator app',
    key: 'Key:',
    code: 'Code from the app',
    confirm: 'Confirm the app',
    cancel: 'Cancel',
  },
  factor: {
    kinds: {
      totp: 'Authenticator app',
      webauthn: 'Passkey',
    },
    added: 'added {{date}}',
    lastUsed: 'last used {{date}}',
    left_one: '{{count}} recovery code left',
    left_other: '{{count}} recovery codes left',
    renew: 'New recovery codes',
    remove: 'Remove',
  },
  codes: {
    title: 'Your recovery codes',
    text: 'Shown only now. Each works once, in place of a code from the app, if you lose your phone: keep them apart from it.',
    copy: 'Copy the codes',
    download: 'Download the codes',
  },
  renew: {
    title: 'New recovery codes',
    text: 'Ten new codes replace your recovery codes: the old ones stop working.',
    make: 'Make new codes',
  },
  remove: {
    title: 'Remove the authenticator app',
    text: 'Signing in then asks for your password alone.',
    password: 'Password',
    done: 'The authenticator app is removed: your password alone signs you in now.',
  },
  proof: 'A code from the app, or a recovery code',
  proofPasskey: '(leave it empty to use your passkey)',
};
