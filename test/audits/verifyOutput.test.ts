import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { verifyCommand } from '../../src/commands/verifyCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, makeNginxRepo, scaledSample, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { commonOptions } from '../plans/helpers/runCommand.ts';

const OUTPUT = 'refs/heads/flotilla/rendered';
const MEMBER1 = 'clusters/member1/default/deployment.apps_nginx.yaml';

/** main rendered twice: the sample, then scaled (an incremental render keeps older stamps). */
async function renderedRepo(): Promise<TempRepo> {
  const { repo } = makeNginxRepo();
  const git = await openRepo(repo.path);
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
  writeWorkTree(repo, {
    'templates/extra.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  a: b\n',
  });
  commitAll(repo, 'Add a ConfigMap no policy selects');
  const s = scaledSample();
  writeWorkTree(repo, { 'policies/propagationpolicy.yaml': s.policy });
  commitAll(repo, 'Weights 2:1');
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
  return repo;
}

/** A hand edit committed onto the output branch with native git, as an intruder would. */
function handEdit(repo: TempRepo, files: Record<string, string | null>, message = 'quick fix'): void {
  repo.git(['checkout', '-q', 'flotilla/rendered']);
  writeWorkTree(repo, files);
  commitAll(repo, message);
  repo.git(['checkout', '-q', 'main']);
}

test('a branch written only by Flotilla verifies, despite older stamps', async () => {
  const repo = await renderedRepo();
  try {
    const report = await verifyOutput(await openRepo(repo.path), { outputRef: OUTPUT });
    assert.equal([report.differs, report.missing, report.extra], [[], [], []]);
    assert.ok(report.ok);
    assert.is(report.sourceCommit, repo.git(['rev-parse', 'main']).trim());
    const opts = commonOptions(repo.path);
    assert.is(await verifyCommand({ ...opts, verifyRev: undefined }), 0);
    assert.match(opts.stdout(), /OK: \d+ files match the source/);
  } finally {
    repo.cleanup();
  }
});

test('a hand edit to a rendered manifest is caught and named, and the command exits 1', async () => {
  const repo = await renderedRepo();
  try {
    repo.git(['checkout', '-q', 'flotilla/rendered']);
    const edited = fs.readFileSync(path.join(repo.path, MEMBER1), 'utf8').replace('image: nginx', 'image: evil/nginx');
    repo.git(['checkout', '-q', 'main']);
    handEdit(repo, { [MEMBER1]: edited });
    const report = await verifyOutput(await openRepo(repo.path), { outputRef: OUTPUT });
    assert.equal(report.differs, [MEMBER1]);
    assert.is(report.foreignCommits.length, 1);
    assert.is(report.foreignCommits[0]!.subject, 'quick fix');
    const opts = commonOptions(repo.path);
    assert.is(await verifyCommand({ ...opts, verifyRev: undefined }), 1);
    assert.match(opts.stdout(), `differs  ${MEMBER1}`);
    assert.match(opts.stdout(), 'not written by Flotilla');
  } finally {
    repo.cleanup();
  }
});

test('an added file is extra and a deleted one is missing', async () => {
  const repo = await renderedRepo();
  try {
    handEdit(repo, { 'clusters/member3/default/pod_miner.yaml': 'apiVersion: v1\nkind: Pod\n', [MEMBER1]: null });
    const report = await verifyOutput(await openRepo(repo.path), { outputRef: OUTPUT });
    assert.equal(report.extra, ['clusters/member3/default/pod_miner.yaml']);
    assert.equal(report.missing, [MEMBER1]);
  } finally {
    repo.cleanup();
  }
});

test('a submodule committed onto the output branch is passed over, as every tree listing passes it, and a file beside it is extra', async () => {
  const repo = await renderedRepo();
  try {
    repo.git(['checkout', '-q', 'flotilla/rendered']);
    const head = repo.git(['rev-parse', 'HEAD']).trim();
    writeWorkTree(repo, { 'clusters/member3/default/pod_miner.yaml': 'apiVersion: v1\nkind: Pod\n' });
    repo.git(['add', '-A']);
    for (const at of ['vendored', 'clusters/member9', 'clusters/member1/default/vendored'])
      repo.git(['update-index', '--add', '--cacheinfo', `160000,${head},${at}`]);
    repo.git(['commit', '-q', '-m', 'vendor things']);
    assert.match(repo.git(['ls-tree', '-r', 'HEAD']), /^160000 commit .*\tclusters\/member9$/m);
    repo.git(['checkout', '-q', '-f', 'main']);
    const report = await verifyOutput(await openRepo(repo.path), { outputRef: OUTPUT });
    assert.equal(report.extra, ['clusters/member3/default/pod_miner.yaml']);
    assert.equal([report.differs, report.missing], [[], []]);
  } finally {
    repo.cleanup();
  }
});

test('a render given other limits than the defaults records them, and verify replays with them unless told others', async () => {
  const { repo } = makeNginxRepo();
  try {
    const git = await openRepo(repo.path);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
    // A ConfigMap of some 4 KB on member1, rendered with room for 2,000 bytes: held, nginx's files kept.
    writeWorkTree(repo, {
      'templates/big.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  a: ${'x'.repeat(4000)}\n`,
      'policies/big.yaml':
        'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: big\nspec:\n  resourceSelectors:\n    - apiVersion: v1\n      kind: ConfigMap\n      name: big\n  placement:\n    clusterAffinity:\n      clusterNames: [member1]\n',
    });
    commitAll(repo, 'A large ConfigMap on member1');
    const report = await syncRepo(git, {
      sourceRef: 'refs/heads/main',
      outputRef: OUTPUT,
      limits: { maxOutputBytes: 2000 },
    });
    assert.equal(
      report.reports[0]!.problems.map((p) => p.code),
      ['COMMIT_TOO_LARGE'],
    );
    assert.match(
      repo.git(['log', '-1', '--format=%B', 'flotilla/rendered']),
      /^Render-Limits: max-output-bytes=2000$/m,
    );
    const verified = await verifyOutput(git, { outputRef: OUTPUT });
    assert.equal([verified.differs, verified.missing, verified.extra], [[], [], []]);
    assert.ok(verified.ok, 'replayed with the 2,000 bytes the render had: the ConfigMap held there too');
    // Told other limits, verify replays with those: the ConfigMap renders, and its files are not in the output.
    const roomier = await verifyOutput(git, { outputRef: OUTPUT, limits: { maxOutputBytes: 1_000_000 } });
    assert.equal([...roomier.missing].sort(), [
      'bindings/default/big-configmap.yaml',
      'clusters/member1/default/configmap_big.yaml',
    ]);
    assert.not.ok(roomier.ok);
  } finally {
    repo.cleanup();
  }
});

test('an edit only to the source-commit stamp value is not a difference', async () => {
  const repo = await renderedRepo();
  try {
    repo.git(['checkout', '-q', 'flotilla/rendered']);
    const edited = fs
      .readFileSync(path.join(repo.path, MEMBER1), 'utf8')
      .replace(/(flotilla\.io\/source-commit: ).*/, `$1${'0'.repeat(40)}`);
    repo.git(['checkout', '-q', 'main']);
    handEdit(repo, { [MEMBER1]: edited });
    assert.ok((await verifyOutput(await openRepo(repo.path), { outputRef: OUTPUT })).ok);
  } finally {
    repo.cleanup();
  }
});

test('--rev checks an older output commit, named by its source commit or by itself', async () => {
  const repo = await renderedRepo();
  try {
    const first = repo.git(['rev-parse', 'main~2']).trim();
    const git = await openRepo(repo.path);
    const bySource = await verifyOutput(git, { outputRef: OUTPUT, rev: first });
    assert.ok(bySource.ok);
    assert.is(bySource.sourceCommit, first);
    const byOutput = await verifyOutput(git, { outputRef: OUTPUT, rev: bySource.outputCommit });
    assert.is(byOutput.sourceCommit, first);
    const middle = await verifyOutput(git, { outputRef: OUTPUT, rev: repo.git(['rev-parse', 'main~1']).trim() });
    assert.ok(middle.ok);
    const pending = commitAll(repo, 'Not rendered yet');
    const unrendered = await verifyOutput(git, { outputRef: OUTPUT, rev: pending }).catch((e: { code?: string }) => e);
    assert.is((unrendered as { code?: string }).code, 'NOT_RENDERED');
  } finally {
    repo.cleanup();
  }
});

test('--rev of a source commit that carries a Source-Commit line says it is not an output commit, and how to name one', async () => {
  const repo = await renderedRepo();
  try {
    const first = repo.git(['rev-parse', 'main~2']).trim();
    const forged = commitAll(repo, `Looks rendered\n\nSource-Commit: ${first}`);
    const err = await verifyOutput(await openRepo(repo.path), { outputRef: OUTPUT, rev: forged }).then(
      () => undefined,
      (e: Error & { code?: string }) => e,
    );
    assert.is(err?.code, 'NOT_AN_OUTPUT_COMMIT');
    assert.match(err!.message, `${forged.slice(0, 12)}) is not an output commit`);
    assert.match(err!.message, 'fix: name a commit of flotilla/rendered (git log --oneline flotilla/rendered)');
  } finally {
    repo.cleanup();
  }
});

test('a render that held an object defined twice verifies: the replay holds it too', async () => {
  const repo = await renderedRepo();
  try {
    const deployment = fs.readFileSync(path.join(repo.path, 'templates/deployment.yaml'), 'utf8');
    writeWorkTree(repo, { 'templates/deployment-copy.yaml': deployment });
    commitAll(repo, 'The Deployment twice');
    const git = await openRepo(repo.path);
    const { reports } = await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
    assert.ok(reports[0]!.problems.some((p) => p.code === 'DUPLICATE_OBJECT'));
    const report = await verifyOutput(git, { outputRef: OUTPUT });
    assert.ok(report.ok, JSON.stringify(report));
  } finally {
    repo.cleanup();
  }
});

test('a held object keeps its last manifests: one taken away by hand is missing, though their content is not compared', async () => {
  const repo = await renderedRepo();
  try {
    writeWorkTree(repo, { 'templates/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: [broken\n' });
    commitAll(repo, 'The Deployment no longer parses');
    const git = await openRepo(repo.path);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
    const held = await verifyOutput(git, { outputRef: OUTPUT });
    assert.ok(held.ok, JSON.stringify(held));
    assert.ok(held.unchecked.includes(MEMBER1), "what it holds is the render before's, which the replay cannot know");
    handEdit(repo, { [MEMBER1]: null });
    const report = await verifyOutput(await openRepo(repo.path), { outputRef: OUTPUT });
    assert.equal(report.missing, [MEMBER1]);
    assert.not.ok(report.ok);
  } finally {
    repo.cleanup();
  }
});

test.run();
