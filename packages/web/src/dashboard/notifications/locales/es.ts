// Las palabras de las preferencias de correo en español (la forma la da en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Notificaciones por correo',
  text: 'Los correos que Tally te envía, {{email}}, para cada programa que posees o administras. Cada mensaje incluye también un enlace que desactiva su tipo. Los socios eligen los suyos en el portal.',
  viewer: 'Los lectores no reciben ninguno de estos correos; cambia a un programa que poseas o administres para modificarlos.',
  legend: 'Escríbeme cuando',
  unsaved: 'Aún sin guardar.',
  save: 'Guardar',
  kinds: {
    link_waiting: {
      title: 'un socio elige una clave de enlace',
      text: 'Una clave que eligió un socio espera tu aprobación en la página del socio.',
    },
    new_application: {
      title: 'un socio envía una solicitud',
      text: 'Alguien envió una solicitud en tu página pública y espera que lo aceptes.',
    },
    webhook_failing: {
      title: 'un endpoint de webhook falla',
      text: 'Los envíos a uno de tus endpoints llevan una hora fallando, o Tally lo desactivó.',
    },
    billing_failing: {
      title: 'fallan eventos de facturación',
      text: 'No se pudieron aplicar eventos de tu plataforma de facturación. Como mucho un correo al día.',
    },
    review_waiting: {
      title: 'se retiene dinero para revisión',
      text: 'Se retuvieron referidos o comisiones que esperan tu decisión. Como mucho un correo al día.',
    },
    payout_run_waiting: {
      title: 'una liquidación programada espera',
      text: 'El calendario de liquidaciones creó una que espera la aprobación de un propietario. Como mucho un correo por liquidación.',
    },
    partner_message: {
      title: 'un socio te escribe',
      text: 'Un socio envió un mensaje que el equipo lleva diez minutos sin leer. Un correo por cada tanda de mensajes.',
    },
    new_submission: {
      title: 'un socio participa en una bonificación',
      text: 'Un socio envió una prueba para una bonificación por envío; espera tu aprobación.',
    },
    new_lead: {
      title: 'un socio envía un lead',
      text: 'Un socio envió a alguien que podría hacerse cliente, para que lo califiques, lo ganes o lo pierdas.',
    },
    weekly_summary: {
      title: 'llega el resumen semanal',
      text: 'Cada lunes: los clics, referidos, clientes, ingresos y comisiones de la semana pasada frente a la anterior.',
    },
  },
};

export default es;
