// Las palabras del panel en español (la forma la da en.ts).

import type { Catalogue } from '../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  app: {
    title: 'Panel de Tally',
  },
  nav: {
    overview: 'Resumen',
    partners: 'Socios',
    messages: 'Mensajes',
    groups: 'Grupos',
    bounties: 'Bonificaciones',
    referrals: 'Referidos',
    leads: 'Leads',
    commissions: 'Comisiones',
    review: 'Revisión',
    payments: 'Pagos',
    clicks: 'Clics',
    payouts: 'Liquidaciones',
    billingEvents: 'Eventos de facturación',
    resources: 'Recursos',
    settings: 'Ajustes',
    auditLog: 'Registro de auditoría',
    yourEmails: 'Tus correos',
  },
  shell: {
    skip: 'Ir al contenido',
    program: 'Programa',
    unread: 'sin leer',
    language: 'Idioma',
    browserLanguage: 'El idioma de tu navegador',
    menu: 'Menú',
    signOut: 'Cerrar sesión',
    navigation: 'Panel',
    viewer: 'Eres lector de este programa: lo ves todo y no cambias nada. Un propietario puede darte otro rol.',
    dismiss: 'Cerrar',
    opening: 'Abriendo el panel',
  },
  notFound: {
    title: 'No encontrado',
    text: 'Esta página no existe.',
    back: 'Volver al resumen',
  },
  referralState: {
    converted: 'registrado',
    paid: 'de pago',
    churned: 'baja',
    rejected: 'rechazado',
  },
  commissionState: {
    pending: 'pendiente',
    paid: 'pagada',
    rejected: 'rechazada',
  },
  partnershipState: {
    pending: 'pendiente',
    accepted: 'aceptada',
    declined: 'rechazada',
  },
  overview: {
    title: 'Resumen',
    new: 'nuevo',
    against: 'frente al periodo anterior',
    clicks: 'Clics',
    referrals: 'Referidos',
    customers: 'Clientes de pago',
    perClick: 'por clic',
    perReferral: 'por referido',
    referralsPerClick: 'Referidos por clic',
    revenue: 'Ingresos',
    commissions: 'Comisiones',
    owed: 'Adeudado ahora',
    funnel: 'Embudo',
    applications_one: '{{count}} solicitud por decidir',
    applications_many: '{{count}} de solicitudes por decidir',
    applications_other: '{{count}} solicitudes por decidir',
    applicationsMore: 'Más de {{count}} solicitudes por decidir',
    applied: '{{name}} ha enviado una solicitud: acéptala o recházala en su página',
    seeEvery: '{{link}}; las solicitudes aparecen como pendientes.',
    everyPartner: 'Ver todos los socios',
    noPartners: 'Aún no hay socios',
    noPartnersText: 'Los socios comparten enlaces a tu sitio; cada visita y cada registro que traen se cuenta aquí.',
    addFirst: '{{link}} y comparte luego su enlace de referido.',
    addFirstLink: 'Añade tu primer socio',
    newReferral: 'Nuevo referido, ahora {{state}}',
    commission: 'Comisión de {{amount}}, {{state}}',
    noClicks: 'Ningún clic ni conversión en este periodo',
    noClicksText: 'Las visitas se cuentan en cuanto el snippet está en tu sitio y alguien sigue el enlace de un socio.',
    getSnippet: '{{link}} y llama a {{call}} tras el registro.',
    getSnippetLink: 'Consigue el snippet',
    topPartners: 'Mejores socios',
    recent: 'Actividad reciente',
    nothingYet: 'Nada todavía.',
  },
  rules: {
    title: 'Reglas de comisión',
    follow: '; vacío: la del programa, {{what}}',
    hold: 'Periodo de retención, en días',
    holdHint: '(los reembolsos dentro de él nunca necesitan un reintegro{{follow}})',
    recurring: 'Límite recurrente, en meses',
    recurringHint: '(0: cada pago genera comisión, para siempre{{follow}})',
    minimum: 'Liquidación mínima',
    minimumHint: '(una divisa por línea, por ejemplo USD 50.00; ninguna: se paga cualquier importe)',
    minimumHintInherit: '(una divisa por línea, por ejemplo USD 50.00; ninguna: se paga cualquier importe; vacío: la del programa)',
  },
  discounts: {
    once: '{{off}} de descuento en el primer pago',
    months_one: '{{off}} de descuento durante {{count}} mes',
    months_many: '{{off}} de descuento durante {{count}} de meses',
    months_other: '{{off}} de descuento durante {{count}} meses',
    forever: '{{off}} de descuento en cada pago',
    madeBy: {
      owner: 'un propietario',
      partner: 'el socio, en el portal',
      auto: 'Tally, al aceptarlo',
    },
  },
  webhooks: {
    enabled: 'activado',
    disabled: 'desactivado: {{reason}}',
    failingSince: 'fallando desde el {{date}}',
    sendTest: 'Enviar evento de prueba',
    sendTestTo: '¿Enviar un evento de prueba a {{url}}?',
    sendTestHere: '¿Enviar un evento de prueba a este endpoint?',
    send: 'Enviar',
    testText: 'Se le entrega ahora un evento webhook.test, firmado como todos, y se guarda entre sus envíos.',
  },
  signals: {
    no_click: {
      title: 'Ninguna visita antes de la conversión',
      description: 'El id de clic del visitante nunca se vio en una visita por el enlace de un socio antes de convertir.',
    },
    address_burst: {
      title: 'Muchas personas desde una dirección',
      description: 'Más de 5 personas distintas convirtieron desde una misma dirección de cliente en menos de una hora.',
    },
    browser_burst: {
      title: 'Muchas personas desde un navegador',
      description: 'Más de 2 personas distintas convirtieron con el id de clic de un mismo navegador en menos de un día.',
    },
    click_rate: {
      title: 'Clics a un ritmo que ninguna persona alcanza',
      description:
        'La dirección que convierte hizo 100 clics nuevos en los enlaces del programa en menos de una hora. Desactivado por defecto: la dirección compartida de un operador móvil lleva los clics de muchas personas.',
    },
    partner_address: {
      title: 'La propia dirección de un socio',
      description: 'El correo del cliente es la dirección propia o de pago de un socio, en este programa o en cualquier otro.',
    },
    disposable_email: {
      title: 'Un dominio de correo desechable',
      description: 'El correo del cliente está en un dominio desechable (mailinator.com y similares).',
    },
    paid_ads: {
      title: 'Anuncios de pago sobre la marca',
      description:
        'La visita llevaba el id de clic de un anuncio de pago (gclid, fbclid, msclkid, ttclid…): actívalo si los socios no pueden anunciarse con tu marca. Desactivado por defecto.',
    },
    shared_payout: {
      title: 'Una dirección de pago compartida por varios socios',
      description: 'La dirección de pago del socio acreditado es también la de otro socio.',
    },
    email_match: {
      title: 'Asociado solo por el correo',
      description: 'El pago de una plataforma de facturación se asoció al referido solo por el correo del cliente, sin visita antes.',
    },
    quick_payment: {
      title: 'Pagado segundos después de la visita',
      description:
        'El primer pago de un referido llegó menos de 10 segundos después de su visita, más rápido de lo que una persona se registra y paga. Desactivado por defecto: la hora de pago de una plataforma de facturación sigue su propio reloj.',
    },
  },
};

export default es;
