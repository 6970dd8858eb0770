// La página de mensajes del portal en español.

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Mensajes',
  intro: 'Tus mensajes con el equipo de {{program}}. Reciben un correo cuando escribes.',
  mine: 'Tú',
  empty: 'Aún no hay mensajes. Escribe al equipo abajo.',
  reply: 'Tu mensaje',
  send: 'Enviar',
};

export default es;
