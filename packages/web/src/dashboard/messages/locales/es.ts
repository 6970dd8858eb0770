// Las palabras de las páginas de mensajes en español (la forma la da en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Mensajes',
  none: 'Aún no hay mensajes',
  noneText: 'Escribe a un socio desde su página, o envía un mensaje masivo abajo.',
  unread_one: '{{count}} sin leer',
  unread_many: '{{count}} sin leer',
  unread_other: '{{count}} sin leer',
  broadcast: 'Mensaje masivo',
  to: 'Para',
  everyone: 'Todos los socios aceptados',
  messageIn: {
    en: 'Mensaje en inglés',
    de: 'Mensaje en alemán',
    fr: 'Mensaje en francés',
    es: 'Mensaje en español',
  },
  optional: '(opcional)',
  languageHint: 'Cada socio recibe su idioma; si no, el del programa; si no, el primero que escribiste.',
  sendAt: 'Enviar el (vacío: ahora)',
  send: 'Enviar mensaje masivo',
  sent_one: 'Enviado el {{date}} a {{count}} socio',
  sent_many: 'Enviado el {{date}} a {{count}} de socios',
  sent_other: 'Enviado el {{date}} a {{count}} socios',
  scheduled: 'Programado para el {{date}}',
  partnerPage: 'Página del socio',
  team: 'Equipo',
  partner: 'Socio',
  threadEmpty: 'Aún no hay mensajes.',
  reply: 'Mensaje',
  sendReply: 'Enviar',
};

export default es;
