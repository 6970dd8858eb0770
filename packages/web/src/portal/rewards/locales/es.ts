// Las recompensas de un grupo en español (en.ts da la forma).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const es: Catalogue<typeof en> = {
  what: {
    lead: '{{amount}} por registro',
    click: '{{amount}} por visitante único',
    clickCapped: '{{amount}} por visitante único, como máximo {{cap}} al día',
    percentage: '{{percent}} % de {{payments}}',
    sale: '{{amount}} por venta',
    flatMonths_one: '{{amount}} por pago durante {{count}} mes',
    flatMonths_many: '{{amount}} por pago durante {{count}} de meses',
    flatMonths_other: '{{amount}} por pago durante {{count}} meses',
    flatLifetime: '{{amount}} por pago, mientras el cliente siga',
    ownRate: '{{percent}} % de cada pago (su propia tarifa)',
  },
  payments: {
    once: 'el primer pago',
    months_one: 'cada pago durante {{count}} mes',
    months_many: 'cada pago durante {{count}} de meses',
    months_other: 'cada pago durante {{count}} meses',
    lifetime: 'cada pago, mientras el cliente siga',
  },
  when: '{{what}}, si {{conditions}}',
  and: 'y',
  or: 'o',
  firstPayment: 'es el primer pago',
  renewal: 'es una renovación',
  subject: {
    product_id: 'el producto',
    price_id: 'el precio',
    amount: 'el importe',
    currency: 'la moneda',
    months_since_first_payment: 'el número de meses desde el primer pago',
    customer_country: 'el país del cliente',
    metadata: 'la clave de metadatos {{key}}',
    partner_customers: 'el número de clientes de pago del socio {{over}}',
    partner_revenue: 'los ingresos del socio {{over}}',
  },
  over: {
    toDate: 'hasta la fecha',
    lastDays_one: 'en el último día',
    lastDays_many: 'en los últimos {{count}} días',
    lastDays_other: 'en los últimos {{count}} días',
  },
  op: {
    eq: '{{subject}} es {{values}}',
    neq: '{{subject}} no es {{values}}',
    not_in: '{{subject}} no es ninguno de {{values}}',
    gt: '{{subject}} supera {{values}}',
    gte: '{{subject}} es al menos {{values}}',
    lt: '{{subject}} es inferior a {{values}}',
    lte: '{{subject}} es como máximo {{values}}',
  },
};

export default es;
