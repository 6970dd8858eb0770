// Die Prämien einer Gruppe auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  what: {
    lead: '{{amount}} je Anmeldung',
    click: '{{amount}} je eindeutigem Besucher',
    clickCapped: '{{amount}} je eindeutigem Besucher, höchstens {{cap}} am Tag',
    percentage: '{{percent}} % {{payments}}',
    sale: '{{amount}} je Verkauf',
    flatMonths_one: '{{amount}} je Zahlung, {{count}} Monat lang',
    flatMonths_other: '{{amount}} je Zahlung, {{count}} Monate lang',
    flatLifetime: '{{amount}} je Zahlung, solange der Kunde bleibt',
    ownRate: '{{percent}} % jeder Zahlung (Ihr eigener Satz)',
  },
  payments: {
    once: 'der ersten Zahlung',
    months_one: 'jeder Zahlung, {{count}} Monat lang',
    months_other: 'jeder Zahlung, {{count}} Monate lang',
    lifetime: 'jeder Zahlung, solange der Kunde bleibt',
  },
  when: '{{what}}, wenn {{conditions}}',
  and: 'und',
  or: 'oder',
  firstPayment: 'es die erste Zahlung ist',
  renewal: 'es eine Verlängerung ist',
  subject: {
    product_id: 'das Produkt',
    price_id: 'der Preis',
    amount: 'der Betrag',
    currency: 'die Währung',
    months_since_first_payment: 'die Zahl der Monate seit der ersten Zahlung',
    customer_country: 'das Land des Kunden',
    metadata: 'der Metadaten-Schlüssel {{key}}',
    partner_customers: 'die Zahl der zahlenden Kunden des Partners {{over}}',
    partner_revenue: 'der Umsatz des Partners {{over}}',
  },
  over: {
    toDate: 'bisher',
    lastDays_one: 'am letzten Tag',
    lastDays_other: 'in den letzten {{count}} Tagen',
  },
  op: {
    eq: '{{subject}} {{values}} ist',
    neq: '{{subject}} nicht {{values}} ist',
    not_in: '{{subject}} keins von {{values}} ist',
    gt: '{{subject}} über {{values}} liegt',
    gte: '{{subject}} mindestens {{values}} beträgt',
    lt: '{{subject}} unter {{values}} liegt',
    lte: '{{subject}} höchstens {{values}} beträgt',
  },
};

export default de;
