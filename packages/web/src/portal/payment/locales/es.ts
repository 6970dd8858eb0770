// La página de confirmación de la dirección de PayPal, en español (la forma la da en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  confirm: {
    title: 'Confirma tu dirección de PayPal',
    intro: 'Pulsa el botón para confirmar que los pagos van a esta dirección de PayPal.',
    button: 'Confirmar dirección de PayPal',
    confirmed: 'Tu dirección de PayPal está confirmada: los pagos pueden ir a ella.',
    gone: 'Este enlace ha caducado o ya se usó. Vuelve a indicar tu dirección de PayPal en el portal para recibir uno nuevo.',
    toPortal: 'Abrir el portal',
  },
};

export default es;
