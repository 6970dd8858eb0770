// Die Prämien-Seite auf Deutsch.

export default {
  title: 'Prämien',
  intro:
    'Zusätzliche Belohnungen für das, was Sie in einem Zeitraum tun: ein Ziel erreichen oder einen Nachweis Ihrer Arbeit zur Prüfung einreichen.',
  none: 'Derzeit ist keine Prämie für Sie offen.',
  reward: 'Belohnung: {{amount}}',
  period: 'Vom {{from}} bis {{to}}',
  target: {
    sales: '{{target}} Verkäufe erreichen',
    leads: '{{target}} Anmeldungen erreichen',
    revenue: '{{target}} Umsatz erreichen',
  },
  progress: 'Ihr Fortschritt',
  progressText: '{{value}} von {{target}}',
  awarded: 'Erreicht: Die Belohnung ist in Ihren Provisionen.',
  left_one: 'Sie können noch einmal einreichen.',
  left_other: 'Sie können noch {{count}}-mal einreichen.',
  noneLeft: 'Sie haben alle Einreichungen gesendet, die diese Prämie annimmt.',
  urls: 'Links, einer pro Zeile',
  urlsHint: 'Höchstens {{count}}, beginnend mit https://',
  urlRequired: 'Mindestens ein Link ist erforderlich.',
  text: 'Was Sie getan haben',
  textHint: 'Höchstens {{count}} Zeichen',
  submit: 'Einreichen',
  sent: 'Gesendet: Das Unternehmen wird es prüfen.',
  yours: 'Ihre Einreichungen',
  state: {
    pending: 'Wartet auf Prüfung',
    approved: 'Angenommen',
    rejected: 'Abgelehnt: {{reason}}',
  },
};
