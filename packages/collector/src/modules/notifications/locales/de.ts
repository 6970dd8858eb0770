// Die Wörter der E-Mails auf Deutsch.

import type { Catalogue } from '../catalogue.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  common: {
    open_portal: 'Zum Partnerportal',
    open_dashboard: 'Zum Dashboard',
    why_partner: 'Sie erhalten diese E-Mail als Partner von {{program}}.',
    why_owner: 'Sie erhalten diese E-Mail als Inhaber von {{program}} bei Tally.',
    unsubscribe: 'Diese E-Mails abbestellen ({{kind}})',
  },
  kinds: {
    application_received: 'Bewerbung eingegangen',
    application_approved: 'Bewerbung angenommen',
    application_declined: 'Bewerbung abgelehnt',
    first_referral: 'erste Empfehlung',
    commission_digest: 'tägliche Provisionen',
    payout_sent: 'Auszahlung gesendet',
    clawback: 'Rückbuchungen',
    code_created: 'neue Codes',
    message_waiting: 'Nachrichten des Teams',
    new_recruit: 'neue Geworbene',
    link_approved: 'freigegebene Links',
    link_waiting: 'Links, die auf Freigabe warten',
    new_application: 'neue Bewerbungen',
    webhook_failing: 'Webhook-Endpunkt schlägt fehl',
    billing_failing: 'Abrechnungsanbindung schlägt fehl',
    review_waiting: 'zur Prüfung zurückgehalten',
    weekly_summary: 'Wochenübersicht',
    payout_run_waiting: 'Auszahlungslauf wartet auf Freigabe',
    partner_message: 'Nachrichten von Partnern',
    bounty_awarded: 'erreichte Prämien',
    submission_approved: 'angenommene Einreichungen',
    submission_rejected: 'abgelehnte Einreichungen',
    new_submission: 'neue Prämien-Einreichungen',
    lead_stage: 'Änderungen an Leads',
    new_lead: 'neue Leads',
  },
  application_received: {
    subject: '{{program}} hat Ihre Bewerbung erhalten',
    body: 'Hallo {{name}}, vielen Dank für Ihre Bewerbung beim Partnerprogramm von {{program}}. Wir melden uns, sobald sie geprüft wurde.',
  },
  application_approved: {
    subject: 'Willkommen im Partnerprogramm von {{program}}',
    body: 'Hallo {{name}}, Ihre Bewerbung bei {{program}} wurde angenommen. Ihr Empfehlungslink lautet {{link}}: Teilen Sie ihn, und jeder Kunde, den er bringt, bringt Ihnen eine Provision.',
  },
  application_declined: {
    subject: 'Ihre Bewerbung bei {{program}}',
    body: 'Hallo {{name}}, Ihre Bewerbung beim Partnerprogramm von {{program}} wurde abgelehnt.',
    reason: 'Der angegebene Grund: {{reason}}',
  },
  first_referral: {
    subject: 'Ihre erste Empfehlung für {{program}}',
    body: 'Glückwunsch, {{name}}: Jemand, den Sie empfohlen haben, hat sich gerade bei {{program}} angemeldet. Ihr Link funktioniert!',
  },
  commission_digest: {
    subject_one: 'Sie haben heute {{total}} mit {{program}} verdient',
    subject_other: 'Sie haben heute {{total}} mit {{program}} verdient ({{count}} Provisionen)',
    body_one: 'Hallo {{name}}, am {{day}} haben Sie eine Provision mit {{program}} verdient: {{total}}.',
    body_other: 'Hallo {{name}}, am {{day}} haben Sie {{count}} Provisionen mit {{program}} verdient, insgesamt {{total}}.',
  },
  payout_sent: {
    subject: '{{program}} hat Ihnen {{amount}} gesendet',
    body: 'Hallo {{name}}, {{program}} hat Ihnen {{amount}} für {{count}} Provisionen an Ihre PayPal-Adresse ausgezahlt.',
  },
  clawback: {
    subject: 'Eine Provision von {{program}} wurde zurückgebucht',
    body: 'Hallo {{name}}, eine Zahlung wurde erstattet, daher wurden {{amount}}, die Sie mit {{program}} verdient hatten, von Ihrem Guthaben abgezogen.',
  },
  code_created: {
    subject: 'Ihr neuer Code für {{program}}: {{code}}',
    body: 'Hallo {{name}}, Sie haben einen neuen Aktionscode für {{program}}: {{code}}. Ein Kunde, der ihn an der Kasse eingibt, zählt als Ihrer, auch ohne Ihren Link.',
  },
  message_waiting: {
    subject: '{{program}} hat Ihnen eine Nachricht geschickt',
    body: 'Hallo {{name}}, das Team von {{program}} hat Ihnen geschrieben:',
    answer: 'Lesen und beantworten Sie sie in Ihrem Portal.',
  },
  partner_message: {
    subject: '{{name}} hat {{program}} eine Nachricht geschickt',
    body: '{{name}} ({{email}}) schreibt:',
  },
  lead_stage: {
    subject: 'Ihr Lead {{lead}} bei {{program}}',
    qualified: 'Hallo {{name}}, {{program}} hat Ihren Lead {{lead}} qualifiziert und verfolgt ihn weiter.',
    won: 'Hallo {{name}}, {{program}} hat Ihren Lead {{lead}} gewonnen: Er ist jetzt Ihre Empfehlung, und seine Zahlungen bringen Ihnen Provisionen.',
    lost: 'Hallo {{name}}, {{program}} hat Ihren Lead {{lead}} als verloren abgeschlossen.',
    reason: 'Der angegebene Grund: {{reason}}',
  },
  new_lead: {
    subject: '{{partner}} hat einen Lead an {{program}} übermittelt',
    body: '{{partner}} hat {{name}} ({{email}}, Firma: {{company}}) als Lead von {{program}} übermittelt. Qualifizieren Sie ihn und markieren Sie ihn dann als gewonnen oder verloren.',
  },
  new_recruit: {
    subject: '{{recruit}} ist {{program}} über Ihren Link beigetreten',
    body: 'Hallo {{name}}, {{recruit}} hat sich über Ihren Anwerbelink beim Partnerprogramm von {{program}} beworben. Ab jetzt erhalten Sie einen Anteil an den Provisionen: siehe Geworbene in Ihrem Portal.',
  },
  link_approved: {
    subject: 'Ihr Link {{key}} für {{program}} ist freigegeben',
    body: 'Hallo {{name}}, {{program}} hat Ihren Link mit dem Schlüssel {{key}} freigegeben: Jeder Besuch darüber zählt jetzt als Ihrer.',
  },
  link_waiting: {
    subject: '{{name}} hat den Link-Schlüssel {{key}} für {{program}} gewählt',
    body: '{{name}} ({{email}}) hat einen Link mit dem Schlüssel {{key}} erstellt, der auf Ihrer Seite des Partners auf Freigabe wartet.',
  },
  new_application: {
    subject: '{{name}} hat sich bei {{program}} beworben',
    body: '{{name}} ({{email}}) hat sich als Partner von {{program}} beworben.',
    note: 'Die Nachricht dazu: {{note}}',
  },
  webhook_failing: {
    subject: 'Ein Webhook-Endpunkt von {{program}} schlägt fehl',
    body: 'Zustellungen an {{url}} schlagen seit {{since}} fehl.',
    disabled: 'Tally hat den Endpunkt deaktiviert: {{reason}}. Schalten Sie ihn wieder ein, sobald er antwortet.',
  },
  billing_failing: {
    subject: '{{program}}: Abrechnungsereignisse konnten nicht verarbeitet werden',
    body_one: 'Ein Ereignis von {{platform}} konnte am letzten Tag nicht verarbeitet werden: {{reason}}.',
    body_other: '{{count}} Ereignisse von {{platform}} konnten am letzten Tag nicht verarbeitet werden; das letzte: {{reason}}.',
  },
  review_waiting: {
    subject: '{{program}}: Geld zur Prüfung zurückgehalten',
    body_one: 'Eine Empfehlung oder Provision von {{program}} ist zur Prüfung zurückgehalten und wartet auf Ihre Entscheidung.',
    body_other: '{{count}} Empfehlungen und Provisionen von {{program}} sind zur Prüfung zurückgehalten und warten auf Ihre Entscheidung.',
  },
  payout_run_waiting: {
    subject: '{{program}}: ein geplanter Auszahlungslauf wartet auf Ihre Freigabe',
    body_one:
      'Der Zeitplan hat einen Auszahlungslauf von {{program}} für den Zeitraum ab {{period}} erstellt: eine Auszahlung an einen Partner, {{total}}. Er wird erst ausgezahlt, wenn ein Inhaber ihn freigibt und sendet.',
    body_other:
      'Der Zeitplan hat einen Auszahlungslauf von {{program}} für den Zeitraum ab {{period}} erstellt: {{count}} Auszahlungen an Partner, insgesamt {{total}}. Er wird erst ausgezahlt, wenn ein Inhaber ihn freigibt und sendet.',
  },
  weekly_summary: {
    subject: '{{program}}: Ihre Woche vom {{from}} bis {{to}}',
    intro: 'Die Woche von {{program}} vom {{from}} bis {{to}}, verglichen mit der Vorwoche:',
    line: '{{label}}: {{value}} (Vorwoche: {{before}})',
    clicks: 'Klicks',
    referrals: 'Empfehlungen',
    customers: 'Zahlende Kunden',
    revenue: 'Umsatz',
    commissions: 'Provisionen',
  },
  bounty_awarded: {
    subject: 'Sie haben die Prämie {{bounty}} von {{program}} erreicht',
    body: 'Glückwunsch {{name}}: Sie haben das Ziel der Prämie {{bounty}} erreicht, und {{program}} hat Ihren Provisionen {{amount}} hinzugefügt.',
  },
  submission_approved: {
    subject: '{{program}} hat Ihre Einreichung zu {{bounty}} angenommen',
    body: 'Hallo {{name}}, {{program}} hat Ihre Einreichung zur Prämie {{bounty}} angenommen: {{amount}} wurden Ihren Provisionen hinzugefügt.',
  },
  submission_rejected: {
    subject: 'Ihre Einreichung zu {{bounty}} bei {{program}}',
    body: 'Hallo {{name}}, {{program}} hat Ihre Einreichung zur Prämie {{bounty}} nicht angenommen. Der angegebene Grund: {{reason}}',
  },
  new_submission: {
    subject: '{{program}}: eine Prämien-Einreichung zu prüfen',
    body: 'Ein Partner von {{program}} hat einen Nachweis für eine Prämie eingereicht; er wartet auf Ihre Freigabe.',
  },
  invitation: {
    subject: 'Ihr Partnerportal bei {{program}}',
    body: '{{program}} lädt Sie in sein Partnerportal ein: Dort finden Sie Ihren Empfehlungslink und was Sie verdient haben.',
    button: 'Passwort wählen',
    why: 'Sie erhalten diese E-Mail, weil {{program}} diese Adresse in sein Partnerportal eingeladen hat. Der Link gilt einmal, 24 Stunden lang.',
  },
  payout_confirmation: {
    subject: 'Bestätigen Sie Ihre PayPal-Adresse für {{program}}',
    body: 'Bestätigen Sie, dass {{program}} Sie an diese PayPal-Adresse auszahlen darf: {{email}}.',
    button: 'Adresse bestätigen',
    why: 'Sie erhalten diese E-Mail, weil ein Partner von {{program}} diese Adresse für seine Auszahlungen gewählt hat. Der Link gilt 24 Stunden; wenn Sie es nicht waren, ignorieren Sie diese Nachricht.',
  },
  security: {
    subject: 'Sicherheitshinweis: {{what}}',
    body: 'Soeben geschah auf Ihrem Konto ({{email}}): {{what}}.',
    if_not_you:
      'Wenn Sie es nicht waren, ändern Sie sofort Ihr Passwort und prüfen Sie Ihre Anmeldemethoden; sagen Sie dann dem Programm Bescheid.',
    button: 'Anmeldemethoden prüfen',
    why: 'Sie erhalten diese E-Mail, wann immer sich die Sicherheit Ihres Kontos ändert oder auf Ihr Wort Geld bewegt wird; sie lässt sich nicht abbestellen.',
    events: {
      totp_enabled: 'eine Authenticator-App wurde als zweiter Faktor hinzugefügt',
      passkey_added: 'ein Passkey wurde hinzugefügt',
      factor_disabled: 'ein zweiter Faktor wurde entfernt',
      recovery_code_used: 'ein Wiederherstellungscode wurde benutzt',
      recovery_codes_renewed: 'neue Wiederherstellungscodes wurden erstellt; die alten gelten nicht mehr',
      payout_method_changed: 'die Auszahlungsmethode wurde geändert',
      payout_run_approved: 'ein Auszahlungslauf wurde freigegeben',
      secret_token_created: 'ein geheimer API-Token wurde erstellt',
      team_changed: 'das Team des Programms oder seine Anmelderegeln wurden geändert',
    },
  },
  reset: {
    portal: 'Partnerportal',
    partner_subject: 'Neues Passwort für das Partnerportal',
    owner_subject: 'Neues Passwort für das Dashboard',
    partner_body: 'Jemand hat ein neues Passwort für Ihr Partnerkonto angefordert. Wenn Sie es waren, wählen Sie es über den Link unten.',
    owner_body: 'Jemand hat ein neues Passwort für Ihr Tally-Konto angefordert. Wenn Sie es waren, wählen Sie es über den Link unten.',
    button: 'Neues Passwort wählen',
    why: 'Der Link gilt einmal, 24 Stunden lang. Wenn Sie es nicht waren, ignorieren Sie diese Nachricht: Ihr Passwort bleibt, wie es ist.',
  },
  team_invitation: {
    subject: 'Bestätigen Sie Ihre Einladung zu {{program}}',
    body: 'Sie sind eingeladen, {{program}} bei Tally zu betreuen. Diese Adresse ist auch zu einem anderen Programm hier eingeladen, daher wird ihr Passwort nur über einen an sie gesendeten Link gewählt: diesen.',
    button: 'Passwort wählen und annehmen',
    why: 'Sie erhalten diese E-Mail, weil die Einladung dieser Adresse zu {{program}} benutzt wurde. Der Link gilt einmal, bis die Einladung abläuft; wenn Sie keine erwartet haben, ignorieren Sie diese Nachricht.',
  },
};

export default de;
