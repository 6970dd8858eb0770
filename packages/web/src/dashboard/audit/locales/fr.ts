// Les mots du journal d’audit en français (la forme est celle d’en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Journal d’audit',
  intro:
    'Chaque modification faite par votre équipe, vos partenaires ou un jeton d’API, avec ce qu’elle a changé, pendant le temps que ce serveur la conserve.',
  kinds: { user: 'Membre de l’équipe', partner: 'Partenaire', token: 'Jeton d’API', cli: 'Ligne de commande', system: 'Tally' },
  erased: 'effacé',
  noChange: 'aucun champ modifié',
  fields_one: '{{n}} champ',
  fields_many: '{{n}} de champs',
  fields_other: '{{n}} champs',
  diff: { caption: 'Avant et après', field: 'Champ', before: 'Avant', after: 'Après' },
  columns: { when: 'Quand', who: 'Qui', action: 'Action', target: 'Cible', from: 'Depuis', changes: 'Modifications' },
  filters: { who: 'Qui', anyone: 'Tout le monde', action: 'Action', record: 'Identifiant', from: 'Du', to: 'Au', go: 'Filtrer' },
  download: 'Télécharger le CSV',
  empty: {
    filtered: 'Aucune modification ne correspond à ces filtres',
    all: 'Afficher toutes les modifications',
    none: 'Aucune modification enregistrée pour l’instant',
    noneText:
      'Quand quelqu’un ajoute un partenaire, modifie un réglage ou approuve une série de versements, ici ou par l’API, la modification apparaît ici, avec qui l’a faite et ce qu’elle a changé.',
  },
};

export default fr;
