// Las palabras del registro de auditoría en español (la forma la da en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  title: 'Registro de auditoría',
  intro:
    'Cada cambio hecho por tu equipo, tus socios o un token de la API, con lo que cambió, durante el tiempo que este servidor lo conserva.',
  kinds: { user: 'Miembro del equipo', partner: 'Socio', token: 'Token de la API', cli: 'Línea de comandos', system: 'Tally' },
  erased: 'borrado',
  noChange: 'ningún campo cambió',
  fields_one: '{{n}} campo',
  fields_many: '{{n}} de campos',
  fields_other: '{{n}} campos',
  diff: { caption: 'Antes y después', field: 'Campo', before: 'Antes', after: 'Después' },
  columns: { when: 'Cuándo', who: 'Quién', action: 'Acción', target: 'Destino', from: 'Desde', changes: 'Cambios' },
  filters: { who: 'Quién', anyone: 'Cualquiera', action: 'Acción', record: 'ID del registro', from: 'Desde', to: 'Hasta', go: 'Filtrar' },
  download: 'Descargar CSV',
  empty: {
    filtered: 'Ningún cambio coincide con estos filtros',
    all: 'Mostrar todos los cambios',
    none: 'Aún no hay cambios registrados',
    noneText:
      'Cuando alguien añade un socio, cambia un ajuste o aprueba una ronda de liquidación, aquí o a través de la API, el cambio aparece aquí con quién lo hizo y qué cambió.',
  },
};

export default es;
