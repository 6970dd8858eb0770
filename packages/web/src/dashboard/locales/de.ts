// Die Wörter des Dashboards auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  app: {
    title: 'Tally Dashboard',
  },
  nav: {
    overview: 'Übersicht',
    partners: 'Partner',
    messages: 'Nachrichten',
    groups: 'Gruppen',
    bounties: 'Prämien',
    referrals: 'Empfehlungen',
    leads: 'Leads',
    commissions: 'Provisionen',
    review: 'Prüfung',
    payments: 'Zahlungen',
    clicks: 'Klicks',
    payouts: 'Auszahlungen',
    billingEvents: 'Abrechnungsereignisse',
    resources: 'Materialien',
    settings: 'Einstellungen',
    auditLog: 'Änderungsprotokoll',
    yourEmails: 'Ihre E-Mails',
  },
  shell: {
    skip: 'Zum Inhalt springen',
    program: 'Programm',
    unread: 'ungelesen',
    language: 'Sprache',
    browserLanguage: 'Sprache Ihres Browsers',
    menu: 'Menü',
    signOut: 'Abmelden',
    navigation: 'Dashboard',
    viewer: 'Sie sind Betrachter dieses Programms: Sie sehen alles und ändern nichts. Ein Inhaber kann Ihnen eine andere Rolle geben.',
    dismiss: 'Ausblenden',
    opening: 'Das Dashboard wird geöffnet',
  },
  notFound: {
    title: 'Nicht gefunden',
    text: 'Diese Seite gibt es nicht.',
    back: 'Zurück zur Übersicht',
  },
  referralState: {
    converted: 'angemeldet',
    paid: 'zahlend',
    churned: 'gekündigt',
    rejected: 'abgelehnt',
  },
  commissionState: {
    pending: 'ausstehend',
    paid: 'ausgezahlt',
    rejected: 'abgelehnt',
  },
  partnershipState: {
    pending: 'ausstehend',
    accepted: 'angenommen',
    declined: 'abgelehnt',
  },
  overview: {
    title: 'Übersicht',
    new: 'neu',
    against: 'gegenüber dem Zeitraum davor',
    clicks: 'Klicks',
    referrals: 'Empfehlungen',
    customers: 'Zahlende Kunden',
    perClick: 'pro Klick',
    perReferral: 'pro Empfehlung',
    referralsPerClick: 'Empfehlungen pro Klick',
    revenue: 'Umsatz',
    commissions: 'Provisionen',
    owed: 'Derzeit geschuldet',
    funnel: 'Trichter',
    applications_one: '{{count}} Bewerbung wartet auf Ihre Entscheidung',
    applications_other: '{{count}} Bewerbungen warten auf Ihre Entscheidung',
    applicationsMore: 'Über {{count}} Bewerbungen warten auf Ihre Entscheidung',
    applied: '{{name}} hat sich beworben: Annehmen oder ablehnen auf der Seite des Partners',
    seeEvery: '{{link}}; Bewerbungen sind als ausstehend markiert.',
    everyPartner: 'Alle Partner ansehen',
    noPartners: 'Noch keine Partner',
    noPartnersText: 'Partner teilen Links zu Ihrer Website; jeder Besuch und jede Anmeldung, die sie bringen, wird hier gezählt.',
    addFirst: '{{link}} und teilen Sie dann den Empfehlungslink.',
    addFirstLink: 'Legen Sie Ihren ersten Partner an',
    newReferral: 'Neue Empfehlung, jetzt {{state}}',
    commission: 'Provision von {{amount}}, {{state}}',
    noClicks: 'Keine Klicks oder Conversions in diesem Zeitraum',
    noClicksText: 'Besuche werden gezählt, sobald das Snippet auf Ihrer Website ist und jemand dem Link eines Partners folgt.',
    getSnippet: '{{link}} und rufen Sie nach der Anmeldung {{call}} auf.',
    getSnippetLink: 'Holen Sie sich das Snippet',
    topPartners: 'Top-Partner',
    recent: 'Letzte Aktivitäten',
    nothingYet: 'Noch nichts.',
  },
  rules: {
    title: 'Provisionsregeln',
    follow: '; leer: die des Programms, {{what}}',
    hold: 'Haltefrist in Tagen',
    holdHint: '(Erstattungen innerhalb der Frist brauchen nie eine Rückforderung{{follow}})',
    recurring: 'Wiederkehrend, höchstens Monate',
    recurringHint: '(0: jede Zahlung bringt Provision, für immer{{follow}})',
    minimum: 'Mindestauszahlung',
    minimumHint: '(eine Währung pro Zeile, etwa USD 50.00; keine: jeder Betrag wird ausgezahlt)',
    minimumHintInherit: '(eine Währung pro Zeile, etwa USD 50.00; keine: jeder Betrag wird ausgezahlt; leer: die des Programms)',
  },
  discounts: {
    once: '{{off}} Rabatt auf die erste Zahlung',
    months_one: '{{off}} Rabatt für {{count}} Monat',
    months_other: '{{off}} Rabatt für {{count}} Monate',
    forever: '{{off}} Rabatt auf jede Zahlung',
    madeBy: {
      owner: 'ein Inhaber',
      partner: 'der Partner, im Portal',
      auto: 'Tally, bei der Annahme',
    },
  },
  webhooks: {
    enabled: 'aktiv',
    disabled: 'deaktiviert: {{reason}}',
    failingSince: 'schlägt fehl seit {{date}}',
    sendTest: 'Testereignis senden',
    sendTestTo: 'Ein Testereignis an {{url}} senden?',
    sendTestHere: 'Ein Testereignis an diesen Endpunkt senden?',
    send: 'Senden',
    testText: 'Ein webhook.test-Ereignis wird jetzt zugestellt, signiert wie jedes andere, und bei seinen Zustellungen aufbewahrt.',
  },
  signals: {
    no_click: {
      title: 'Kein Besuch vor der Conversion',
      description: 'Die Klick-ID des Besuchers wurde vor der Conversion nie bei einem Besuch über den Link eines Partners gesehen.',
    },
    address_burst: {
      title: 'Viele Personen von einer Adresse',
      description: 'Mehr als 5 verschiedene Personen haben innerhalb einer Stunde von einer Client-Adresse aus konvertiert.',
    },
    browser_burst: {
      title: 'Viele Personen aus einem Browser',
      description: 'Mehr als 2 verschiedene Personen haben innerhalb eines Tages mit der Klick-ID eines Browsers konvertiert.',
    },
    click_rate: {
      title: 'Klicks in einem Tempo, das kein Mensch schafft',
      description:
        'Die konvertierende Adresse hat innerhalb einer Stunde 100 neue Klicks auf die Links des Programms gemacht. Standardmäßig aus: Über die geteilte Adresse eines Mobilfunkanbieters laufen die Klicks vieler Menschen.',
    },
    partner_address: {
      title: 'Die eigene Adresse eines Partners',
      description:
        'Die E-Mail-Adresse des Kunden ist die eigene oder die Auszahlungsadresse eines Partners, in diesem oder einem anderen Programm.',
    },
    disposable_email: {
      title: 'Eine Wegwerf-E-Mail-Domain',
      description: 'Die E-Mail-Adresse des Kunden liegt bei einer Wegwerf-Domain (mailinator.com und Ähnliche).',
    },
    paid_ads: {
      title: 'Bezahlte Anzeigen auf die Marke',
      description:
        'Der Besuch trug die Klick-ID einer bezahlten Anzeige (gclid, fbclid, msclkid, ttclid…): Schalten Sie dies ein, wenn Partner nicht auf Ihre Marke werben dürfen. Standardmäßig aus.',
    },
    shared_payout: {
      title: 'Eine Auszahlungsadresse mehrerer Partner',
      description: 'Die Auszahlungsadresse des gutgeschriebenen Partners gehört auch einem anderen Partner.',
    },
    email_match: {
      title: 'Nur per E-Mail zugeordnet',
      description:
        'Die Zahlung einer Abrechnungsplattform wurde der Empfehlung nur über die E-Mail-Adresse des Kunden zugeordnet, ohne Besuch davor.',
    },
    quick_payment: {
      title: 'Sekunden nach dem Besuch bezahlt',
      description:
        'Die erste Zahlung einer Empfehlung kam innerhalb von 10 Sekunden nach ihrem Besuch, schneller, als sich ein Mensch anmeldet und bezahlt. Standardmäßig aus: Die Zahlungszeit einer Abrechnungsplattform folgt deren eigener Uhr.',
    },
  },
};

export default de;
