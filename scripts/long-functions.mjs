// Functions longer than a limit (150 lines, first line to last, comments and blank lines
// included) in the collector, the web apps and the client: `npm run lint:size` fails on any.
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';

const LIMIT = Number(process.env.MAX_FUNCTION_LINES ?? 150);
const files = ['packages/collector/src', 'packages/web/src', 'packages/client/src'].flatMap((dir) =>
  readdirSync(dir, { recursive: true })
    .map((f) => `${dir}/${f}`)
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts')),
);
const long = [];
for (const file of files) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > LIMIT) {
        const name = node.name?.getText(source) ?? node.parent?.name?.getText?.(source) ?? '(anonymous)';
        long.push(`${file}:${first + 1} ${name}: ${lines} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
for (const l of long) console.error(l);
if (long.length) {
  console.error(`${long.length} function(s) over ${LIMIT} lines: split them by role (CONTRIBUTING.md).`);
  process.exit(1);
}
console.log(`functions: none over ${LIMIT} lines in ${files.length} files`);
