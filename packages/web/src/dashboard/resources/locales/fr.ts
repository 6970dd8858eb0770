// Les mots de la page des ressources de marque en français (la forme est celle de en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Ressources de marque',
  intro:
    'Logos, images, documents et textes pour vos partenaires : ils les téléchargent dans le portail et le portail intégré, dans cet ordre. Les fichiers sont vérifiés d’après leur contenu ; PNG, JPEG, WebP, GIF, SVG (sans scripts), PDF et ZIP, jusqu’à 10 Mo.',
  types: {
    png: 'Image PNG',
    jpeg: 'Image JPEG',
    webp: 'Image WebP',
    gif: 'Image GIF',
    svg: 'Image SVG',
    pdf: 'Document PDF',
    zip: 'Archive ZIP',
  },
  file: 'Fichier',
  upload: 'Envoyer un fichier',
  titleLabel: 'Titre',
  uploaded: 'Envoyé.',
  uploadButton: 'Envoyer',
  addCopy: 'Ajouter un texte',
  copyText: 'Texte que les partenaires copient',
  added: 'Ajouté.',
  what: 'Quoi',
  addedAt: 'Ajouté',
  actions: 'Actions',
  download: 'Télécharger',
  copy: 'Copier',
  up: 'Monter',
  down: 'Descendre',
  delete: 'Supprimer',
  yours: 'Vos ressources',
  none: 'Pas encore de ressources',
  noneText: 'Envoyez un logo ou ajoutez un texte ci-dessus.',
  deleteTitle: 'Supprimer {{title}} ?',
  deleteText:
    'Les partenaires ne peuvent plus le télécharger. Si c’est votre logo, vos pages n’affichent plus que le nom de votre programme.',
  branding: 'Image de marque',
  brandingText:
    'Ce que le portail, votre page publique et le portail intégré affichent à la place de Tally : votre logo et votre couleur. Les e-mails aux partenaires partent au nom de votre programme.',
  logo: 'Logo',
  noLogo: 'Aucun : le nom du programme',
  accent: 'Couleur d’accent',
  accentHint:
    'Au format #rrggbb. Elle colore les liens et les boutons sur fond blanc, elle doit donc offrir un contraste d’au moins 4,5:1 (WCAG AA) ; une couleur plus claire est refusée.',
  host: 'Nom d’hôte propre',
  hostHint:
    'Servi par le proxy inverse de votre opérateur : sa page d’accueil ouvre votre page publique. Voir le guide d’auto-hébergement.',
  saveBranding: 'Enregistrer l’image de marque',
};

export default fr;
