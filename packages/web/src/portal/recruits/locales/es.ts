// La página de reclutados en español.

export default {
  title: 'Reclutados',
  link: 'Tu enlace de reclutamiento',
  linkText: 'Los socios que se postulan con este enlace pasan a ser tus reclutados, y ganas una parte de sus comisiones.',
  noLink: 'Este programa no premia reclutar socios o aún no tiene página pública: no hay enlace de reclutamiento.',
  copy: 'Copiar enlace',
  recruitedBy: 'Te reclutó {{name}}.',
  earned: 'Tus ganancias de segundo nivel',
  nothing: 'Nada todavía',
  yours: 'Tus reclutados',
  name: 'Socio',
  joined: 'Se unió',
  theirShare: 'Ganaste',
  none: 'Aún no tienes reclutados',
  noneText: 'Comparte tu enlace de reclutamiento con personas que también podrían promocionar este programa.',
};
