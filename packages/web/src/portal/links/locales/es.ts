// La página Enlaces del portal, en español (la forma es la de en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  links: {
    title: 'Enlaces',
    intro: 'Enlaces a cualquier página del sitio de {{program}}, cada uno con su propia clave. Cada enlace se le acredita a usted.',
    yours: 'Sus enlaces',
    none: 'Aún no hay enlaces: cree uno abajo.',
    key: 'Clave',
    page: 'Página',
    status: 'Estado',
    clicks: 'Clics',
    referrals: 'Referidos',
    conversions: 'De pago',
    share: 'Compartir',
    copy: 'Copiar el enlace {{key}}',
    svg: 'Código QR {{key}} (SVG)',
    png: 'Código QR {{key}} (PNG)',
    make: 'Crear un enlace',
    destination: 'Página a la que enlazar',
    destinationHint: 'Una dirección en {{site}}',
    chosenKey: 'Clave (opcional)',
    keyRules: 'De {{min}} a {{max}} caracteres; si se deja vacía, se inventa una',
    keyMadeUp: 'El programa inventa la clave',
    approval: 'Una clave que usted elige espera la aprobación de la empresa.',
    submit: 'Crear enlace',
    state: { pending_approval: 'Esperando aprobación', active: 'Activo', disabled: 'Desactivado' },
  },
};

export default es;
