// La página de leads del socio en español (en.ts da la forma).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Leads',
  intro:
    'Presenta a alguien que podría ser cliente. La empresa le da seguimiento; cuando lo gana, es tu referido y sus pagos te generan comisiones.',
  notAccepted: 'Podrás enviar leads cuando el programa te haya aceptado.',
  form: 'Enviar un lead',
  name: 'Nombre',
  email: 'Correo electrónico',
  company: 'Empresa',
  notes: 'Notas',
  optional: '(opcional)',
  submit: 'Enviar lead',
  submitted: 'Lead enviado: {{name}}.',
  duplicate: {
    lead_email: 'Esta persona ya se envió como lead.',
    lead_domain: 'Alguien de esta empresa ya se envió como lead.',
    referral_email: 'Esta persona ya es un referido del programa.',
  },
  yours: 'Tus leads',
  none: 'Aún no hay leads',
  noneText: 'Las personas que envíes aparecen aquí, con su avance.',
  date: 'Enviado',
  person: 'Persona',
  stage: 'Etapa',
  stages: {
    new: 'Nuevo',
    qualified: 'Calificado',
    won: 'Ganado',
    lost: 'Perdido',
  },
  lostBecause: 'Perdido: {{reason}}',
};

export default es;
