// Die Seite der Geworbenen auf Deutsch.

export default {
  title: 'Geworbene',
  link: 'Ihr Anwerbelink',
  linkText: 'Partner, die sich über diesen Link bewerben, werden Ihre Geworbenen, und Sie erhalten einen Anteil an ihren Provisionen.',
  noLink: 'Dieses Programm belohnt das Anwerben von Partnern nicht oder hat noch keine öffentliche Seite: Es gibt keinen Anwerbelink.',
  copy: 'Link kopieren',
  recruitedBy: 'Sie wurden von {{name}} geworben.',
  earned: 'Ihre Einnahmen aus der zweiten Stufe',
  nothing: 'Noch nichts',
  yours: 'Ihre Geworbenen',
  name: 'Partner',
  joined: 'Beigetreten',
  theirShare: 'Ihr Verdienst',
  none: 'Noch keine Geworbenen',
  noneText: 'Teilen Sie Ihren Anwerbelink mit Menschen, die dieses Programm ebenfalls bewerben könnten.',
};
