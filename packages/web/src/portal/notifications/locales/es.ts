// La elección de correos del portal en español (en.ts da la forma).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Correos',
  intro:
    'Los correos que te envían los programas a los que te has unido, en todos a la vez. Cada correo incluye además un enlace que desactiva ese tipo de mensaje.',
  legend: 'Envíame un correo cuando',
  save: 'Guardar mis correos',
  unsaved: 'Aún sin guardar.',
  kinds: {
    application_received: { title: 'Llegue tu solicitud', text: 'Un programa ha recibido tu solicitud.' },
    application_approved: { title: 'Te acepten', text: 'Un programa te ha aceptado; el correo incluye tu enlace de referido.' },
    application_declined: { title: 'Te rechacen', text: 'Un programa ha rechazado tu solicitud, con su motivo si lo ha dado.' },
    first_referral: {
      title: 'Se registre tu primer referido',
      text: 'La primera persona que recomendaste a un programa se ha registrado.',
    },
    commission_digest: {
      title: 'Ganes comisiones',
      text: 'Como mucho un correo al día, con las comisiones del día y su total.',
    },
    payout_sent: { title: 'Te paguen', text: 'Un programa te ha enviado un pago; el correo indica el importe.' },
    clawback: { title: 'Se anule una comisión', text: 'Una comisión pagada se ha anulado, por ejemplo tras un reembolso.' },
    code_created: { title: 'Recibas un código promocional', text: 'Un programa ha creado un código promocional para ti.' },
    message_waiting: {
      title: 'El equipo te escriba',
      text: 'El equipo de un programa te ha enviado un mensaje que no has leído en diez minutos; un correo por tanda.',
    },
    bounty_awarded: {
      title: 'Consigas una bonificación',
      text: 'Has alcanzado el objetivo de una bonificación por rendimiento; el correo indica el importe.',
    },
    submission_approved: {
      title: 'Se apruebe tu envío a una bonificación',
      text: 'Un programa ha aprobado lo que enviaste para una bonificación.',
    },
    submission_rejected: {
      title: 'Se rechace tu envío a una bonificación',
      text: 'Un programa ha rechazado lo que enviaste para una bonificación, con su motivo.',
    },
    lead_stage: { title: 'Un lead tuyo avance', text: 'Un programa ha calificado, ganado o perdido un lead que enviaste.' },
    new_recruit: {
      title: 'Un socio se una con tu enlace de reclutamiento',
      text: 'Alguien se postuló con tu enlace, y ganas una parte de sus comisiones.',
    },
    link_approved: { title: 'Se apruebe tu enlace', text: 'Un programa ha aprobado una clave de enlace que elegiste.' },
  },
};

export default es;
