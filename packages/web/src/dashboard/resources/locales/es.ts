// Las palabras de la página de recursos de marca en español (la forma la da en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Recursos de marca',
  intro:
    'Logotipos, imágenes, documentos y textos para tus socios: los descargan en el portal y en el portal integrado, en este orden. Los archivos se comprueban por su contenido; PNG, JPEG, WebP, GIF, SVG (sin scripts), PDF y ZIP, hasta 10 MB.',
  types: {
    png: 'Imagen PNG',
    jpeg: 'Imagen JPEG',
    webp: 'Imagen WebP',
    gif: 'Imagen GIF',
    svg: 'Imagen SVG',
    pdf: 'Documento PDF',
    zip: 'Archivo ZIP',
  },
  file: 'Archivo',
  upload: 'Subir un archivo',
  titleLabel: 'Título',
  uploaded: 'Subido.',
  uploadButton: 'Subir',
  addCopy: 'Añadir texto',
  copyText: 'Texto que copian los socios',
  added: 'Añadido.',
  what: 'Qué',
  addedAt: 'Añadido',
  actions: 'Acciones',
  download: 'Descargar',
  copy: 'Copiar',
  up: 'Subir',
  down: 'Bajar',
  delete: 'Eliminar',
  yours: 'Tus recursos',
  none: 'Aún no hay recursos',
  noneText: 'Sube un logotipo o añade un texto arriba.',
  deleteTitle: '¿Eliminar {{title}}?',
  deleteText: 'Los socios ya no pueden descargarlo. Si es tu logotipo, tus páginas muestran solo el nombre de tu programa.',
  branding: 'Imagen de marca',
  brandingText:
    'Lo que muestran el portal, tu página pública y el portal integrado en lugar de Tally: tu logotipo y tu color. Los correos a los socios salen con el nombre de tu programa.',
  logo: 'Logotipo',
  noLogo: 'Ninguno: el nombre del programa',
  accent: 'Color de acento',
  accentHint:
    'Como #rrggbb. Colorea enlaces y botones sobre blanco, así que necesita un contraste de al menos 4,5:1 (WCAG AA); uno más claro se rechaza.',
  host: 'Nombre de host propio',
  hostHint: 'Lo sirve el proxy inverso de tu operador: su página de inicio abre tu página pública. Consulta la guía de autoalojamiento.',
  saveBranding: 'Guardar imagen de marca',
};

export default es;
