// The client's types refuse wrong calls (test/client/misuse.ts): compiled, the file has no
// error, so each `@ts-expect-error` met an error on its line; TypeScript reports one that did not.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const MISUSE = fileURLToPath(new URL('./misuse.ts', import.meta.url));
const CONFIG = fileURLToPath(new URL('../../packages/client/tsconfig.json', import.meta.url));

/** The diagnostics of the misuse file compiled with the client's options. */
function diagnostics(): readonly ts.Diagnostic[] {
  const config = ts.getParsedCommandLineOfConfigFile(CONFIG, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('packages/client/tsconfig.json does not parse');
  const program = ts.createProgram([MISUSE], { ...config.options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === MISUSE);
}

it('every wrong use in misuse.ts fails to compile: each @ts-expect-error meets its error (an unused one is TS2578)', () => {
  const marked = readFileSync(MISUSE, 'utf8')
    .split('\n')
    .filter((line) => line.trim().startsWith('// @ts-expect-error'));
  expect(marked.length).toBeGreaterThanOrEqual(12);
  expect(diagnostics().map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)).toEqual([]);
});
