import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PARSER_ROOT, parserSourcesDigest, relativeImports } from '../../src/outputs/parserSources.ts';

const dirs: string[] = [];
test.after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A source tree of the given `path → text` files. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flotilla-parser-sources-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const base = {
  [PARSER_ROOT]: "import { parse } from '../documents/parse.ts';\nexport const f = parse;\n",
  'documents/parse.ts':
    "import type { Problem } from '../errors/problem.ts';\nexport const parse = (p?: Problem) => p;\n",
  'errors/problem.ts': 'export interface Problem { code: string }\n',
  'commands/cli.ts': "import { f } from '../outputs/karmadaFiles.ts';\nf();\n",
};

test('relative imports: static, type-only, side-effect and dynamic; packages are not sources', () => {
  const text = [
    "import { a } from './a.ts';",
    "import type { B } from '../b/b.ts';",
    "export { c } from './c.ts';",
    "import './side.ts';",
    "const d = await import('./d.ts');",
    "import { parse } from 'yaml';",
    "import path from 'node:path';",
  ].join('\n');
  assert.equal(relativeImports(text), ['./a.ts', '../b/b.ts', './c.ts', './side.ts', './d.ts']);
});

test('the parsing code digest changes with any module the parser imports, even through a type-only import', () => {
  const before = parserSourcesDigest(tree(base));
  assert.is(parserSourcesDigest(tree(base)), before, 'the same code, another checkout: the same digest');
  assert.is.not(
    parserSourcesDigest(tree({ ...base, 'errors/problem.ts': 'export interface Problem { code: number }\n' })),
    before,
  );
  assert.is.not(
    parserSourcesDigest(tree({ ...base, 'documents/parse.ts': base['documents/parse.ts'] + '// edited\n' })),
    before,
  );
});

test('the parsing code digest ignores modules the parser does not import', () => {
  const before = parserSourcesDigest(tree(base));
  assert.is(parserSourcesDigest(tree({ ...base, 'commands/cli.ts': base['commands/cli.ts'] + 'f();\n' })), before);
  assert.is(parserSourcesDigest(tree({ ...base, 'members/serve.ts': 'export {};\n' })), before);
});

test('a module moved to another folder is followed through the new import, and the move changes the digest', () => {
  const moved = {
    [PARSER_ROOT]: "import { parse } from '../parsing/parse.ts';\nexport const f = parse;\n",
    'parsing/parse.ts': base['documents/parse.ts'],
    'errors/problem.ts': base['errors/problem.ts'],
  };
  const digest = parserSourcesDigest(tree(moved));
  assert.is.not(digest, parserSourcesDigest(tree(base)));
  assert.is.not(
    parserSourcesDigest(tree({ ...moved, 'errors/problem.ts': 'export type Problem = string;\n' })),
    digest,
  );
});

test('a module path in a comment that names no file is no source; a missing root is an error, never a digest of nothing', () => {
  const commented = {
    ...base,
    'documents/parse.ts': `// was: import { old } from './old.ts';\n${base['documents/parse.ts']}`,
  };
  assert.is.not(
    parserSourcesDigest(tree(commented)),
    parserSourcesDigest(tree(base)),
    'the comment is part of the text',
  );
  const { [PARSER_ROOT]: _, ...withoutRoot } = base;
  assert.throws(() => parserSourcesDigest(tree(withoutRoot)), /ENOENT/);
});

test.run();
