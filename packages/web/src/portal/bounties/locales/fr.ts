// La page des primes en français.

export default {
  title: 'Primes',
  intro:
    'Des récompenses en plus pour ce que vous faites sur une période : atteindre un objectif, ou soumettre une preuve de votre travail.',
  none: 'Aucune prime n’est ouverte pour vous en ce moment.',
  reward: 'Récompense : {{amount}}',
  period: 'Du {{from}} au {{to}}',
  target: {
    sales: 'Atteindre {{target}} ventes',
    leads: 'Atteindre {{target}} inscriptions',
    revenue: 'Atteindre {{target}} de chiffre d’affaires',
  },
  progress: 'Votre progression',
  progressText: '{{value}} sur {{target}}',
  awarded: 'Atteint : la récompense est dans vos commissions.',
  left_one: 'Vous pouvez soumettre encore une fois.',
  left_many: 'Vous pouvez soumettre encore {{count}} fois.',
  left_other: 'Vous pouvez soumettre encore {{count}} fois.',
  noneLeft: 'Vous avez envoyé toutes les soumissions que cette prime accepte.',
  urls: 'Liens, un par ligne',
  urlsHint: '{{count}} au plus, commençant par https://',
  urlRequired: 'Au moins un lien est requis.',
  text: 'Ce que vous avez fait',
  textHint: '{{count}} caractères au plus',
  submit: 'Soumettre',
  sent: 'Envoyé : l’entreprise va l’examiner.',
  yours: 'Vos soumissions',
  state: {
    pending: 'En attente d’examen',
    approved: 'Acceptée',
    rejected: 'Refusée : {{reason}}',
  },
};
