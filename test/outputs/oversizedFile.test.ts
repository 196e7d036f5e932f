import { randomBytes } from 'node:crypto';
import nodeFs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { DEFAULT_PARSE_LIMITS } from '../../src/documents/parseDocuments.ts';
import { readFiles } from '../../src/outputs/karmadaFiles.ts';
import { loadSource } from '../../src/outputs/loadSource.ts';
import { commitAll, makeTempRepo, writeWorkTree } from '../commits/helpers/tempRepo.ts';

test('a source file over the parse limit is FILE_TOO_LARGE at that file, known from its object header, never inflated', async () => {
  const temp = makeTempRepo();
  try {
    // Incompressible, so inflating it would mean reading megabytes of the object store.
    const big = `# ${randomBytes(DEFAULT_PARSE_LIMITS.maxFileBytes).toString('base64')}\n`;
    writeWorkTree(temp, {
      'templates/big.yaml': big,
      'templates/ok.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n',
    });
    commitAll(temp);
    const oid = (p: string) => temp.git(['rev-parse', `HEAD:${p}`]).trim();
    let read = 0;
    const fs = {
      ...nodeFs,
      readFileSync: (...args: unknown[]) => {
        const out = (nodeFs.readFileSync as (...a: unknown[]) => Buffer)(...args);
        read += out.length;
        return out;
      },
      readSync: (...args: unknown[]) => {
        const n = (nodeFs.readSync as (...a: unknown[]) => number)(...args);
        read += n;
        return n;
      },
    } as typeof nodeFs;
    const repo = await openRepo(temp.path, fs);
    const files = await readFiles(
      repo,
      new Map([
        ['templates/big.yaml', oid('templates/big.yaml')],
        ['templates/ok.yaml', oid('templates/ok.yaml')],
      ]),
    );
    const refused = files.get('templates/big.yaml');
    assert.is(refused?.unreadable, true);
    assert.equal(
      refused?.problems.map((p) => [p.file, p.line, p.code]),
      [['templates/big.yaml', 1, 'FILE_TOO_LARGE']],
    );
    assert.match(refused?.problems[0]?.message ?? '', /file is 21\.3 MiB, over the 16\.0 MiB limit/);
    assert.ok(read < 256 * 1024, `read ${read} bytes of loose objects`);
    assert.is(files.get('templates/ok.yaml')?.templates.length, 1);
  } finally {
    temp.cleanup();
  }
});

test('an oversized .flotillaignore is FILE_TOO_LARGE at it, ignores nothing and is not inflated', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, {
      '.flotillaignore': `# ${randomBytes(DEFAULT_PARSE_LIMITS.maxFileBytes).toString('base64')}\n`,
      'templates/ok.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n',
    });
    commitAll(temp);
    const tree = temp.git(['rev-parse', 'HEAD^{tree}']).trim();
    const { model } = await loadSource(await openRepo(temp.path), tree, null);
    assert.equal(
      model.problems.map((p) => [p.file, p.line, p.code]),
      [['.flotillaignore', 1, 'FILE_TOO_LARGE']],
    );
    // Not "list it in .flotillaignore": that cannot help the ignore file itself.
    assert.not.match(model.problems[0]!.fix, '.flotillaignore');
    assert.match(model.problems[0]!.fix, 'glob');
    assert.is(model.templates.size, 1);
  } finally {
    temp.cleanup();
  }
});

test.run();
