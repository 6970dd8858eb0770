// Las palabras de la página de leads en español (la forma la da en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Leads',
  intro: 'Personas que enviaron tus socios. Califica las que merecen seguimiento y marca después cada una como ganada o perdida.',
  stagesLabel: 'Etapas',
  all: 'Todos',
  stages: { new: 'Nuevo', qualified: 'Calificado', won: 'Ganado', lost: 'Perdido' },
  stageWords: { new: 'nuevo', qualified: 'calificado', won: 'ganado', lost: 'perdido' },
  moves: {
    qualified: {
      button: 'Calificar',
      title: '¿Calificar este lead?',
      body: 'Vas a hacer seguimiento de esta persona. Se avisa a su socio.',
    },
    won: {
      button: 'Marcar ganado',
      title: '¿Marcar este lead como ganado?',
      body: 'Pasa a ser un referido del socio: sus pagos le generan su comisión, como cualquier referido. Se avisa a su socio.',
    },
    lost: { button: 'Marcar perdido', title: '¿Marcar este lead como perdido?', body: 'Se avisa a su socio, con tu motivo.' },
  },
  reason: 'Motivo',
  reasonHint: '(el socio lo ve)',
  submitted: 'Enviado',
  person: 'Persona',
  company: 'Empresa',
  partner: 'Socio',
  notes: 'Notas',
  stage: 'Etapa',
  referral: 'Referido',
  move: 'Avanzar',
  moved: '{{name}}: {{stage}}.',
  noneIn: { new: 'Ningún lead nuevo', qualified: 'Ningún lead calificado', won: 'Ningún lead ganado', lost: 'Ningún lead perdido' },
  none: 'Aún no hay leads',
  noneText: 'Los socios envían leads desde su portal; también puedes enviar uno para un socio con POST /v1/leads.',
};

export default es;
