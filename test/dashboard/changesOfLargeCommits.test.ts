// The Changes timeline on a rendered branch whose commits are too large to walk: a fleet's first render names its
// clusters without counting their files, a commit past the render's bound on a source tree names the clusters it
// changed, and every other commit is counted file by file as before.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { CommitChangesCache, FIRST_RENDER_WALK, readChanges } from '../../src/dashboard/readChanges.ts';
import { DEFAULT_SOURCE_LIMITS } from '../../src/outputs/sourceLimits.ts';
import { readFleet } from '../../src/views/readFleet.ts';
import { makeTempRepo, type TempRepo } from '../commits/helpers/tempRepo.ts';

const RENDERED = 'refs/heads/flotilla/rendered';
let repo: TempRepo;

/** A git fast-import commit on `ref` setting `files` (path → text), on top of `from` when given. */
function commitStream(ref: string, mark: number, message: string, files: [string, string][], from?: number): string {
  const lines = [`commit ${ref}`, `mark :${mark}`, 'committer Flotilla <flotilla@example.com> 1700000000 +0000'];
  lines.push(`data ${Buffer.byteLength(message)}`, message);
  if (from !== undefined) lines.push(`from :${from}`);
  for (const [path, text] of files) lines.push(`M 100644 inline ${path}`, `data ${Buffer.byteLength(text)}`, text);
  return `${lines.join('\n')}\n`;
}

const manifest = (name: string, replicas: number) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ns\ndata:\n  n: "${replicas}"\n`;

test.before(() => {
  repo = makeTempRepo({ bare: true });
  // More files than a first render's entry walks, across two clusters; then one file changed; then 150 on each.
  const half = FIRST_RENDER_WALK / 2 + 1;
  const first: [string, string][] = [];
  for (const cluster of ['a', 'b'])
    for (let i = 0; i < half; i++) first.push([`clusters/${cluster}/ns/cm-${i}.yaml`, manifest(`cm-${i}`, 1)]);
  const many: [string, string][] = [];
  for (const cluster of ['a', 'b'])
    for (let i = 1; i <= 150; i++) many.push([`clusters/${cluster}/ns/cm-${i}.yaml`, manifest(`cm-${i}`, 3)]);
  const stream = [
    commitStream('refs/heads/main', 1, 'source', [['README.md', 'fleet\n']]),
    commitStream(RENDERED, 2, 'first render', first),
    commitStream(RENDERED, 3, 'one file', [['clusters/a/ns/cm-0.yaml', manifest('cm-0', 2)]], 2),
    commitStream(RENDERED, 4, '150 files on each cluster', many, 3),
  ].join('');
  repo.git(['fast-import', '--quiet'], { input: stream });
});
test.after(() => repo?.cleanup());

test('a first render too large to walk names its clusters uncounted; a later small commit is counted as before', async () => {
  const fleet = await readFleet(await openRepo(repo.path), {
    rev: 'refs/heads/main',
    renderedRef: RENDERED,
    statusRef: 'refs/heads/flotilla/status',
  });
  const view = await readChanges(fleet, 10);
  assert.equal(
    view.commits.map((c) => c.subject),
    ['150 files on each cluster', 'one file', 'first render'],
  );
  const [many, one, first] = view.commits;
  const uncounted = { added: [], changed: [], removed: [], counts: { added: 0, changed: 0, removed: 0 } };
  assert.equal(first!.clusters, {
    a: { ...uncounted, notCounted: 'first-render' },
    b: { ...uncounted, notCounted: 'first-render' },
  });
  assert.equal(one!.clusters, {
    a: { added: [], changed: ['ns/cm-0.yaml'], removed: [], counts: { added: 0, changed: 1, removed: 0 } },
  });
  assert.equal(many!.clusters.a!.counts, { added: 0, changed: 150, removed: 0 });
  assert.equal(many!.clusters.b!.counts, { added: 0, changed: 150, removed: 0 });
});

test('a commit changing more than the render walks of a source tree names the clusters it changed, uncounted', async () => {
  const fleet = await readFleet(await openRepo(repo.path), {
    rev: 'refs/heads/main',
    renderedRef: RENDERED,
    statusRef: 'refs/heads/flotilla/status',
  });
  // --max-source-files 1500: 30,000 entries walked at most. Each cluster's folder holds 10,001 files, read on both
  // sides of a change: the newest commit, in both folders, walks some 40,000; the one before, in one, some 20,000.
  const view = await readChanges(fleet, 2, new CommitChangesCache(), { ...DEFAULT_SOURCE_LIMITS, maxFiles: 1500 });
  const [many, one] = view.commits;
  const uncounted = { added: [], changed: [], removed: [], counts: { added: 0, changed: 0, removed: 0 } };
  assert.equal(many!.clusters, {
    a: { ...uncounted, notCounted: 'too-many' },
    b: { ...uncounted, notCounted: 'too-many' },
  });
  assert.equal(one!.clusters.a!.counts, { added: 0, changed: 1, removed: 0 });
  assert.ok(view.more);
});

test.run();
