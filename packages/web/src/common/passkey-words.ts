// The passkey buttons' words, in the page's language (<html lang>, which each app sets):
// only lazily loaded parts show them, so they stay out of the shared catalogue that every
// app's entry carries (the embed's has no room, and never shows a passkey).

const WORDS = {
  en: { use: 'Use a passkey', signIn: 'Sign in with a passkey', add: 'Add a passkey' },
  de: { use: 'Passkey verwenden', signIn: 'Mit einem Passkey anmelden', add: 'Passkey hinzufügen' },
  fr: { use: 'Utiliser une clé d’accès', signIn: 'Se connecter avec une clé d’accès', add: 'Ajouter une clé d’accès' },
  es: { use: 'Usar una llave de acceso', signIn: 'Iniciar sesión con una llave de acceso', add: 'Añadir una llave de acceso' },
} as const;

export type PasskeyWord = keyof (typeof WORDS)['en'];

export const passkeyWord = (word: PasskeyWord): string => {
  const lang = document.documentElement.lang.slice(0, 2) as keyof typeof WORDS;
  return (WORDS[lang] ?? WORDS.en)[word];
};
