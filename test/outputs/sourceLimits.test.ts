import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { karmadaFilesAt } from '../../src/outputs/karmadaFiles.ts';
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from '../../src/outputs/sourceLimits.ts';
import { commitAll, makeTempRepo, writeWorkTree } from '../commits/helpers/tempRepo.ts';

const cm = (name: string, pad = 0) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  pad: "${'x'.repeat(pad)}"\n`;

/** Five template files, t1..t5 in path order; t3 holds three objects, t5 is large. */
async function readWith(limits: Partial<SourceLimits>) {
  const temp = makeTempRepo();
  try {
    const files: Record<string, string> = {
      'templates/t1.yaml': cm('a'),
      'templates/t2.yaml': cm('b'),
      'templates/t3.yaml': [cm('c1'), cm('c2'), cm('c3')].join('---\n'),
      'templates/t4.yaml': cm('d', 1000),
      'templates/t5.yaml': cm('e', 1000),
    };
    writeWorkTree(temp, files);
    commitAll(temp);
    const oids = new Map(Object.keys(files).map((p) => [p, temp.git(['rev-parse', `HEAD:${p}`]).trim()]));
    const read = await karmadaFilesAt(await openRepo(temp.path), oids, undefined, {
      ...DEFAULT_SOURCE_LIMITS,
      ...limits,
    });
    return new Map(
      [...read].map(([path, f]) => {
        const o = f.objects();
        return [
          path.replace('templates/', ''),
          {
            templates: o.templates.length,
            unreadable: o.unreadable,
            problems: o.problems.map((p) => `${p.code}@${p.line}: ${p.message}`),
          },
        ];
      }),
    );
  } finally {
    temp.cleanup();
  }
}

test('every file is read within the default limits', async () => {
  const read = await readWith({});
  assert.equal(
    [...read.values()].map((f) => [f.templates, f.unreadable, f.problems.length]),
    [
      [1, false, 0],
      [1, false, 0],
      [3, false, 0],
      [1, false, 0],
      [1, false, 0],
    ],
  );
});

test('past the file limit the rest is not read: COMMIT_TOO_LARGE at the first file left out, all of them unreadable', async () => {
  const read = await readWith({ maxFiles: 3 });
  assert.equal(
    [...read.values()].map((f) => f.templates),
    [1, 1, 3, 0, 0],
  );
  assert.equal([read.get('t4.yaml')?.unreadable, read.get('t5.yaml')?.unreadable], [true, true]);
  assert.match(
    read.get('t4.yaml')?.problems[0] ?? '',
    /^COMMIT_TOO_LARGE@1: this commit has 5 files to read, over the 3 one read takes: this file and the 1 after it/,
  );
  assert.equal(read.get('t5.yaml')?.problems, [], 'one problem, not one per file left out');
});

test('past the object limit the file that crosses it and the rest are not used', async () => {
  const read = await readWith({ maxObjects: 4 });
  assert.equal(
    [...read.values()].map((f) => f.templates),
    [1, 1, 0, 0, 0],
  );
  assert.match(read.get('t3.yaml')?.problems[0] ?? '', /over 4 objects/);
  assert.is(read.get('t4.yaml')?.unreadable, true);
});

test('past the byte limit the files left are not even read from the object store', async () => {
  const read = await readWith({ maxBytes: 500 });
  assert.equal(
    [...read.values()].map((f) => f.templates),
    [1, 1, 3, 1, 0],
  );
  assert.match(
    read.get('t5.yaml')?.problems[0] ?? '',
    /the files before this one hold 0.0 MiB, all one read takes: this file and the 0 after it/,
  );
});

test('the files past the file limit are the same whether or not the policies were parsed before', async () => {
  const temp = makeTempRepo();
  try {
    const policy = (name: string) =>
      `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: ${name}}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n  placement: {}\n`;
    const files: Record<string, string> = {
      'policies/p1.yaml': policy('p1'),
      'policies/p2.yaml': policy('p2'),
      'templates/t1.yaml': cm('a'),
      'templates/t2.yaml': cm('b'),
      'templates/t3.yaml': cm('c'),
    };
    writeWorkTree(temp, files);
    commitAll(temp);
    const oids = new Map(Object.keys(files).map((p) => [p, temp.git(['rev-parse', `HEAD:${p}`]).trim()]));
    const refused = async (repo: Awaited<ReturnType<typeof openRepo>>) => {
      const read = await karmadaFilesAt(repo, oids, undefined, { ...DEFAULT_SOURCE_LIMITS, maxFiles: 3 });
      return [...read].filter(([, f]) => f.objects().unreadable).map(([path]) => path);
    };
    const fresh = await refused(await openRepo(temp.path));
    const warm = await openRepo(temp.path);
    await karmadaFilesAt(warm, oids); // the policies are kept, as a sync keeps them
    assert.equal(fresh, ['templates/t2.yaml', 'templates/t3.yaml']);
    assert.equal(await refused(warm), fresh);
  } finally {
    temp.cleanup();
  }
});

test.run();
