// Las palabras de los correos en español.

import type { Catalogue } from '../catalogue.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  common: {
    open_portal: 'Abrir tu portal de socio',
    open_dashboard: 'Abrir el panel',
    why_partner: 'Recibes este correo como socio de {{program}}.',
    why_owner: 'Recibes este correo como responsable de {{program}} en Tally.',
    unsubscribe: 'Dejar de recibir estos correos ({{kind}})',
  },
  kinds: {
    application_received: 'solicitud recibida',
    application_approved: 'solicitud aprobada',
    application_declined: 'solicitud rechazada',
    first_referral: 'primer referido',
    commission_digest: 'comisiones del día',
    payout_sent: 'pago enviado',
    clawback: 'comisiones retiradas',
    code_created: 'códigos nuevos',
    message_waiting: 'mensajes del equipo',
    new_recruit: 'nuevos reclutados',
    link_approved: 'enlaces aprobados',
    link_waiting: 'enlaces esperando aprobación',
    new_application: 'solicitudes nuevas',
    webhook_failing: 'webhook con fallos',
    billing_failing: 'facturación con fallos',
    review_waiting: 'retenido para revisión',
    weekly_summary: 'resumen semanal',
    payout_run_waiting: 'pago programado pendiente de aprobación',
    partner_message: 'mensajes de socios',
    bounty_awarded: 'bonificaciones obtenidas',
    submission_approved: 'envíos aprobados',
    submission_rejected: 'envíos rechazados',
    new_submission: 'nuevos envíos de bonificaciones',
    lead_stage: 'etapas de los leads',
    new_lead: 'leads nuevos',
  },
  application_received: {
    subject: '{{program}} ha recibido tu solicitud',
    body: 'Hola {{name}}, gracias por solicitar unirte al programa de socios de {{program}}. Te escribiremos en cuanto la hayamos revisado.',
  },
  application_approved: {
    subject: 'Bienvenido al programa de socios de {{program}}',
    body: 'Hola {{name}}, tu solicitud a {{program}} ha sido aprobada. Tu enlace de referido es {{link}}: compártelo, y cada cliente que traiga te dará una comisión.',
  },
  application_declined: {
    subject: 'Tu solicitud a {{program}}',
    body: 'Hola {{name}}, tu solicitud al programa de socios de {{program}} ha sido rechazada.',
    reason: 'El motivo indicado: {{reason}}',
  },
  first_referral: {
    subject: 'Tu primer referido para {{program}}',
    body: '¡Enhorabuena, {{name}}! Alguien a quien recomendaste acaba de registrarse en {{program}}. ¡Tu enlace funciona!',
  },
  commission_digest: {
    subject_one: 'Hoy has ganado {{total}} con {{program}}',
    subject_other: 'Hoy has ganado {{total}} con {{program}} ({{count}} comisiones)',
    subject_many: 'Hoy has ganado {{total}} con {{program}} ({{count}} de comisiones)',
    body_one: 'Hola {{name}}, el {{day}} ganaste una comisión con {{program}}: {{total}}.',
    body_other: 'Hola {{name}}, el {{day}} ganaste {{count}} comisiones con {{program}}, {{total}} en total.',
    body_many: 'Hola {{name}}, el {{day}} ganaste {{count}} de comisiones con {{program}}, {{total}} en total.',
  },
  payout_sent: {
    subject: '{{program}} te ha enviado {{amount}}',
    body: 'Hola {{name}}, {{program}} te ha pagado {{amount}} por {{count}} comisiones en tu dirección de PayPal.',
  },
  clawback: {
    subject: 'Se ha retirado una comisión de {{program}}',
    body: 'Hola {{name}}, se reembolsó un pago, así que {{amount}} ganados con {{program}} se han descontado de tu saldo.',
  },
  code_created: {
    subject: 'Tu nuevo código para {{program}}: {{code}}',
    body: 'Hola {{name}}, tienes un nuevo código promocional para {{program}}: {{code}}. Un cliente que lo introduzca al pagar cuenta como tuyo, incluso sin tu enlace.',
  },
  message_waiting: {
    subject: '{{program}} te ha enviado un mensaje',
    body: 'Hola {{name}}, el equipo de {{program}} te ha escrito:',
    answer: 'Léelo y responde en tu portal.',
  },
  partner_message: {
    subject: '{{name}} ha enviado un mensaje a {{program}}',
    body: '{{name}} ({{email}}) ha escrito:',
  },
  lead_stage: {
    subject: 'Tu lead {{lead}} en {{program}}',
    qualified: 'Hola {{name}}, {{program}} ha calificado tu lead {{lead}} y le está dando seguimiento.',
    won: 'Hola {{name}}, {{program}} ha ganado tu lead {{lead}}: ahora es tu referido, y sus pagos te generan comisiones.',
    lost: 'Hola {{name}}, {{program}} ha cerrado tu lead {{lead}} como perdido.',
    reason: 'El motivo indicado: {{reason}}',
  },
  new_lead: {
    subject: '{{partner}} ha enviado un lead a {{program}}',
    body: '{{partner}} ha enviado a {{name}} ({{email}}, empresa: {{company}}) como lead de {{program}}. Califícalo y márcalo después como ganado o perdido.',
  },
  new_recruit: {
    subject: '{{recruit}} se unió a {{program}} con tu enlace',
    body: 'Hola {{name}}, {{recruit}} se postuló al programa de socios de {{program}} con tu enlace de reclutamiento. Desde ahora ganas una parte de sus comisiones: consulta Reclutados en tu portal.',
  },
  link_approved: {
    subject: 'Tu enlace {{key}} para {{program}} está aprobado',
    body: 'Hola {{name}}, {{program}} ha aprobado tu enlace con la clave {{key}}: cada visita a través de él cuenta ahora como tuya.',
  },
  link_waiting: {
    subject: '{{name}} ha elegido la clave de enlace {{key}} para {{program}}',
    body: '{{name}} ({{email}}) ha creado un enlace con la clave {{key}}, que espera tu aprobación en su página.',
  },
  new_application: {
    subject: '{{name}} ha solicitado unirse a {{program}}',
    body: '{{name}} ({{email}}) ha solicitado ser socio de {{program}}.',
    note: 'Su mensaje: {{note}}',
  },
  webhook_failing: {
    subject: 'Un webhook de {{program}} está fallando',
    body: 'Los envíos a {{url}} fallan desde el {{since}}.',
    disabled: 'Tally ha desactivado el endpoint: {{reason}}. Vuelve a activarlo cuando responda.',
  },
  billing_failing: {
    subject: '{{program}}: no se pudieron aplicar eventos de facturación',
    body_one: 'Un evento de {{platform}} no se pudo aplicar en el último día: {{reason}}.',
    body_other: '{{count}} eventos de {{platform}} no se pudieron aplicar en el último día; el último: {{reason}}.',
    body_many: '{{count}} de eventos de {{platform}} no se pudieron aplicar en el último día; el último: {{reason}}.',
  },
  review_waiting: {
    subject: '{{program}}: dinero retenido para revisión',
    body_one: 'Un referido o una comisión de {{program}} está retenido para revisión y espera tu decisión.',
    body_other: '{{count}} referidos y comisiones de {{program}} están retenidos para revisión y esperan tu decisión.',
    body_many: '{{count}} de referidos y comisiones de {{program}} están retenidos para revisión y esperan tu decisión.',
  },
  payout_run_waiting: {
    subject: '{{program}}: una tanda de pagos programada espera tu aprobación',
    body_one:
      'La programación preparó una tanda de pagos de {{program}} para el periodo que empieza el {{period}}: un pago a un afiliado, {{total}}. Solo se paga cuando un propietario la aprueba y la envía.',
    body_other:
      'La programación preparó una tanda de pagos de {{program}} para el periodo que empieza el {{period}}: {{count}} pagos a afiliados, {{total}} en total. Solo se paga cuando un propietario la aprueba y la envía.',
    body_many:
      'La programación preparó una tanda de pagos de {{program}} para el periodo que empieza el {{period}}: {{count}} de pagos a afiliados, {{total}} en total. Solo se paga cuando un propietario la aprueba y la envía.',
  },
  weekly_summary: {
    subject: '{{program}}: tu semana del {{from}} al {{to}}',
    intro: 'La semana de {{program}} del {{from}} al {{to}}, frente a la semana anterior:',
    line: '{{label}}: {{value}} (semana anterior: {{before}})',
    clicks: 'Clics',
    referrals: 'Referidos',
    customers: 'Clientes de pago',
    revenue: 'Ingresos',
    commissions: 'Comisiones',
  },
  bounty_awarded: {
    subject: 'Has conseguido la bonificación {{bounty}} de {{program}}',
    body: 'Enhorabuena, {{name}}: has alcanzado el objetivo de la bonificación {{bounty}} y {{program}} ha añadido {{amount}} a tus comisiones.',
  },
  submission_approved: {
    subject: '{{program}} ha aprobado tu envío para {{bounty}}',
    body: 'Hola {{name}}, {{program}} ha aprobado lo que enviaste para la bonificación {{bounty}}: se han añadido {{amount}} a tus comisiones.',
  },
  submission_rejected: {
    subject: 'Tu envío para {{bounty}} de {{program}}',
    body: 'Hola {{name}}, {{program}} no ha aceptado lo que enviaste para la bonificación {{bounty}}. El motivo indicado: {{reason}}',
  },
  new_submission: {
    subject: '{{program}}: un envío de bonificación por revisar',
    body: 'Un socio de {{program}} ha enviado una prueba para una bonificación; espera tu aprobación.',
  },
  invitation: {
    subject: 'Tu portal de socio en {{program}}',
    body: '{{program}} te invita a su portal de socios, donde encuentras tu enlace de referido y lo que has ganado.',
    button: 'Elegir mi contraseña',
    why: 'Recibes este correo porque {{program}} invitó a esta dirección a su portal de socios. El enlace funciona una vez, durante 24 horas.',
  },
  payout_confirmation: {
    subject: 'Confirma tu dirección de PayPal para {{program}}',
    body: 'Confirma que {{program}} puede pagarte en esta dirección de PayPal: {{email}}.',
    button: 'Confirmar esta dirección',
    why: 'Recibes este correo porque un socio de {{program}} eligió esta dirección para sus pagos. El enlace funciona durante 24 horas; si no fuiste tú, ignora este mensaje.',
  },
  security: {
    subject: 'Aviso de seguridad: {{what}}',
    body: 'Esto acaba de ocurrir en su cuenta ({{email}}): {{what}}.',
    if_not_you: 'Si no fue usted, cambie su contraseña de inmediato y revise sus métodos de inicio de sesión; después avise al programa.',
    button: 'Revisar mis métodos de inicio de sesión',
    why: 'Recibe este correo cada vez que cambia la seguridad de su cuenta o se mueve dinero en su nombre; no se puede desactivar.',
    events: {
      totp_enabled: 'se añadió una aplicación de autenticación como segundo factor',
      passkey_added: 'se añadió una llave de acceso',
      factor_disabled: 'se quitó un segundo factor',
      recovery_code_used: 'se usó un código de recuperación',
      recovery_codes_renewed: 'se crearon nuevos códigos de recuperación; los anteriores ya no sirven',
      payout_method_changed: 'se cambió el método de pago',
      payout_run_approved: 'se aprobó una tanda de pagos',
      secret_token_created: 'se creó un token secreto de la API',
      team_changed: 'se cambió el equipo del programa o sus reglas de inicio de sesión',
    },
  },
  reset: {
    portal: 'Portal de socios',
    partner_subject: 'Elige una nueva contraseña para el portal de socios',
    owner_subject: 'Elige una nueva contraseña para el panel',
    partner_body: 'Alguien pidió una nueva contraseña para tu cuenta de socio. Si fuiste tú, elígela con el enlace de abajo.',
    owner_body: 'Alguien pidió una nueva contraseña para tu cuenta de Tally. Si fuiste tú, elígela con el enlace de abajo.',
    button: 'Elegir una nueva contraseña',
    why: 'El enlace funciona una vez, durante 24 horas. Si no fuiste tú, ignora este mensaje: tu contraseña no cambia.',
  },
  team_invitation: {
    subject: 'Confirma tu invitación a {{program}}',
    body: 'Te han invitado a gestionar {{program}} en Tally. Esta dirección también está invitada a otro programa aquí, así que su contraseña solo se elige con un enlace enviado a ella: este.',
    button: 'Elegir mi contraseña y aceptar',
    why: 'Recibes este correo porque se usó la invitación de esta dirección a {{program}}. El enlace funciona una vez, hasta que caduque la invitación; si no esperabas ninguna, ignora este mensaje.',
  },
};

export default es;
