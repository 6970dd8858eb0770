// La page des filleuls en français.

export default {
  title: 'Filleuls',
  link: 'Votre lien de parrainage',
  linkText: 'Les partenaires qui postulent par ce lien deviennent vos filleuls, et vous touchez une part de leurs commissions.',
  noLink:
    "Ce programme ne récompense pas le parrainage de partenaires, ou n'a pas encore de page publique : il n'y a pas de lien de parrainage.",
  copy: 'Copier le lien',
  recruitedBy: 'Vous avez été parrainé par {{name}}.',
  earned: 'Vos gains de second niveau',
  nothing: 'Rien pour le moment',
  yours: 'Vos filleuls',
  name: 'Partenaire',
  joined: 'Arrivé le',
  theirShare: 'Vous avez gagné',
  none: 'Pas encore de filleuls',
  noneText: 'Partagez votre lien de parrainage avec des personnes qui pourraient aussi promouvoir ce programme.',
};
