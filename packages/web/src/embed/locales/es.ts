// Las palabras del portal integrado en español (en.ts da la forma).

import type { Catalogue } from '../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Tu enlace de referido y tus ganancias',
  opening: 'Abriendo',
  expired: {
    title: 'Este enlace ha caducado',
    text: 'Vuelve a cargar la página que lo muestra para ver de nuevo tu enlace de referido y tus ganancias.',
  },
  link: {
    title: 'Tu enlace de referido',
    copy: 'Copiar enlace',
    anyPage: 'Añadir ?red={{key}} a cualquier página del sitio también cuenta.',
    pending: 'Tu colaboración con {{program}} espera su aprobación: tu enlace aparecerá aquí en cuanto la acepten.',
    declined: '{{program}} rechazó la colaboración: no hay enlace que compartir.',
  },
  codes: {
    title: 'Tus códigos promocionales',
    copy: 'Copiar {{code}}',
    share: 'Quien escriba {{code}} al pagar cuenta para ti, sin hacer clic en ningún enlace.',
  },
  resources: {
    title: 'Recursos de marca',
    copy: 'Copiar texto',
    download: 'Descargar ({{size}})',
  },
  figures: {
    title: 'Tus cifras',
    clicks: 'Clics',
    referrals: 'Referidos',
    customers: 'Clientes de pago',
    earned: 'Ganado',
  },
  money: {
    title: 'Tus ganancias',
    pending: 'Pendiente ({{currency}})',
    next: 'Próximo pago ({{currency}})',
    paid: 'Pagado ({{currency}})',
    none: 'Aún no has ganado nada: tus ganancias aparecerán aquí desde tu primera comisión.',
  },
  payout: {
    next: 'Se paga con el próximo pago.',
    nothing: 'Todavía no hay nada pagable.',
    below_minimum: '{{payable}} son pagables; los pagos empiezan a partir de {{minimum}}.',
    clawbacks_exceed_earnings: 'Los reembolsos descontaron tanto como lo ganado: las nuevas ganancias lo compensan primero.',
    no_paypal_email: '{{payable}} son pagables: elige abajo cómo cobrar.',
    no_tax_form: '{{payable}} son pagables en cuanto entregues un formulario fiscal válido (W-9 o W-8).',
    not_accepted: '{{payable}} serán pagables cuando la colaboración vuelva a estar aceptada.',
    later: 'Más será pagable el {{date}}.',
  },
  stripe: {
    returnTitle: 'De vuelta de Stripe',
    returnText: 'Puedes cerrar esta ventana y volver a la página de la que vienes: muestra lo que Stripe dice de tu cuenta.',
    refreshTitle: 'Este enlace de Stripe ha caducado',
    refreshText: 'Cierra esta ventana, vuelve a la página de la que vienes y pulsa de nuevo «Continuar a Stripe».',
  },
  messages: {
    title: 'Mensajes con {{program}}',
    mine: 'Tú',
    empty: 'Aún no hay mensajes. Escribe al equipo abajo.',
    reply: 'Tu mensaje',
    send: 'Enviar',
  },
  settings: {
    title: 'Ajustes',
    language: 'Idioma',
    automatic: 'Automático',
    save: 'Guardar',
  },
};

export default es;
