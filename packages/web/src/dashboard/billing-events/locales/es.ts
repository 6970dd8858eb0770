// Las palabras de la página de eventos de facturación en español (la forma la da en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Eventos de facturación',
  waitingFor: 'esperando {{what}}',
  records: { title: 'Registros', referral: 'referido', payment: 'pago', commission: 'comisión' },
  again: 'Procesar de nuevo',
  againLabel: 'Procesar de nuevo: {{name}}',
  againTitle: '¿Procesar {{name}} de nuevo?',
  againText: 'Tally lo trata ahora como si acabara de llegar: puede acreditar, vincular, reembolsar, retener o liberar lo que nombra.',
  outcomes: {
    credited: 'acreditado',
    linked: 'vinculado',
    refunded: 'reembolsado',
    held: 'retenido',
    released: 'liberado',
    churned: 'baja',
    ignored: 'ignorado',
    failed: 'fallido',
  },
  received: 'Recibido',
  platform: 'Plataforma',
  type: 'Tipo',
  outcome: 'Resultado',
  test: 'prueba',
  event: 'Evento',
  actions: 'Acciones',
  all: 'Todas',
  any: 'Cualquiera',
  filter: 'Filtrar',
  noneOfPlatform: 'Ningún evento de {{platform}} coincide con estos filtros',
  noneFiltered: 'Ningún evento de facturación coincide con estos filtros',
  showEvery: 'Ver todos los eventos',
  none: 'Aún no hay eventos de facturación',
  noneText:
    'Conecta Stripe, Paddle o Lemon Squeezy en los {{link}} y envía luego un evento de prueba desde la plataforma: aparece aquí con lo que hizo.',
  settings: 'ajustes',
};

export default es;
