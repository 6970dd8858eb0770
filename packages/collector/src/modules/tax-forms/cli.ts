// tally tax-forms reseal: after a new TAX_FORM_KEY (the old one in TAX_FORM_OLD_KEYS),
// re-encrypts every form's TIN with the new key, so the old one can be dropped.

import { out, UsageError, withDb, type Command } from '../../cli/common.js';
import { resealTaxForms } from './service.js';

export const taxFormCommands: Record<string, Command> = {
  'tax-forms reseal': {
    usage:
      'tally tax-forms reseal\n\n' +
      "Re-encrypts every tax form's taxpayer id with TAX_FORM_KEY, opening each with the key that sealed it\n" +
      '(TAX_FORM_KEY or one of TAX_FORM_OLD_KEYS). Once it says 0 are left, the old keys can be removed.',
    options: {},
    async run(_values, _positionals, config) {
      const keys = config.taxFormKeys;
      if (!keys) throw new UsageError('TAX_FORM_KEY is not set: there is no key to re-encrypt with');
      const count = await withDb(config, (db) => resealTaxForms(db, keys));
      out(`Re-encrypted ${count} tax form(s) with key ${keys.currentId}; none is left under an older key.`);
    },
  },
};
