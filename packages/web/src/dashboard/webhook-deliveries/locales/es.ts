// Las palabras de la página de envíos de webhooks en español (la forma la da en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Envíos de webhooks',
  time: 'Hora',
  status: 'Estado HTTP',
  duration: 'Duración',
  error: 'Error',
  answer: 'Respuesta (primeros bytes)',
  deliveryOf: 'Envío de {{event}}',
  close: 'Cerrar',
  state: 'Estado',
  states: { pending: 'pendiente', succeeded: 'correcto', failed: 'fallido' },
  nextAttemptAt: '(próximo intento el {{date}})',
  event: 'Evento',
  created: 'Creado',
  attempts: 'Intentos',
  notTried: 'Aún sin intentar: se envía en un segundo o dos.',
  resend: 'Reenviar',
  lastAnswer: 'Última respuesta',
  nextAttempt: 'Próximo intento',
  actions: 'Acciones',
  openLabel: 'Abrir el envío de {{event}}, {{date}}',
  open: 'Abrir',
  events: 'Eventos',
  allEvents: 'todos los eventos',
  enableInSettings: 'Actívalo en los ajustes',
  secret: 'Secreto',
  settings: 'Ajustes',
  webhooks: 'Webhooks',
  refresh: 'Actualizar',
  testSent: 'Un evento de prueba va en camino: aparece abajo.',
  resent: 'Reenviado como un envío nuevo: está abierto aquí.',
  any: 'Cualquiera',
  noneIn: { pending: 'Ningún envío pendiente', succeeded: 'Ningún envío correcto', failed: 'Ningún envío fallido' },
  none: 'Aún no hay envíos',
  noneText:
    'Cada evento que quiere este endpoint se le envía aquí, y se guarda cada intento. Envía un evento de prueba para ver llegar uno.',
};

export default es;
