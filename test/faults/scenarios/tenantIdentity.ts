// Tenant rows about identity: a change may not make one object into another (an override rewriting namespace, name
// or kind), may not stop later changes with a name no path can hold, may not take another object's output file, and
// may not borrow another commit's permission to delete. Plus rows for tree entries that are already harmless (a
// gitlink, a `..` entry, odd file names), so they stay that way. Every row counts what escaped as lost.
import { execFileSync } from 'node:child_process';
import { validateText } from '../../helpers/validateText.ts';
import type { Problem } from '../../../src/errors/problem.ts';
import { readPlan } from '../../../src/plans/readPlan.ts';
import type { Expectations, Scenario } from '../helpers/frame.ts';
import { since } from '../helpers/frame.ts';
import { baseFiles, CLUSTERS, configMap, type Fleet, makeFleet, manifestOf } from '../../helpers/fleet.ts';
import { changed, errorsOf, manifests, missing } from '../helpers/compareOutputs.ts';
import { describeLost, withPipeline, type Pipeline } from '../helpers/pipeline.ts';

const located = (problems: readonly Problem[], code: string, file: string) =>
  problems.filter((p) => p.code === code && p.file === file).map((p) => `${p.file}:${p.line}`);
const CM = (name: string, namespace = 'default') => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name });

/** An OverridePolicy in `default` that rewrites a-settings into another object, rule by rule. */
const takeover = `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: takeover
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
      name: a-settings
  overrideRules:
    - overriders:
        plaintext:
          - path: /metadata/name
            operator: replace
            value: cm-1
    - overriders:
        plaintext:
          - path: /metadata/namespace
            operator: replace
            value: kube-system
    - overriders:
        plaintext:
          - path: /kind
            operator: replace
            value: Secret
`;

async function overrideRewritesIdentity(expect: Expectations, p: Pipeline) {
  await p.reconcile();
  const expected = await p.expected();
  const before = CLUSTERS.map((c) => JSON.stringify((p.live(c, CM('cm-1')) as { data?: unknown } | undefined)?.data));
  const settings = configMap('a-settings').replace(
    '  namespace: default\n',
    '  namespace: default\n  annotations:\n    work.karmada.io/conflict-resolution: overwrite\n',
  );
  p.fleet.work.commit(
    { 'templates/a-settings.yaml': settings, 'policies/takeover.yaml': takeover },
    'Team A: a-settings, and an override',
  );
  const v = await validateText(p.fleet.work.dir);
  expect.equal(v.code, 1, 'validate exit code');
  expect.that(
    /policies\/takeover\.yaml:14:\d+ +error +INVALID_VALUE/.test(v.text),
    `validate locates the rename at policies/takeover.yaml:14\n${v.text}`,
  );
  expect.that(
    v.text.includes('policies/takeover.yaml:19:') && v.text.includes('policies/takeover.yaml:24:'),
    'validate locates the namespace and kind rewrites',
  );
  const plan = await readPlan(await p.repo(), { base: 'HEAD~1', head: 'HEAD' });
  expect.equal(
    plan.lookTwice.map((n) => n.ref),
    ['v1/ConfigMap/default/a-settings'],
    'plan asks to look twice at the overwrite',
  );
  await p.reconcile();
  const after = CLUSTERS.map((c) => JSON.stringify((p.live(c, CM('cm-1')) as { data?: unknown } | undefined)?.data));
  expect.equal(after, before, "cm-1 on the members (another object's data)");
  const escaped = CLUSTERS.flatMap((c) =>
    [
      CM('cm-1', 'kube-system'),
      CM('a-settings', 'kube-system'),
      { apiVersion: 'v1', kind: 'Secret', namespace: 'default', name: 'a-settings' },
    ]
      .filter((ref) => p.live(c, ref))
      .map((ref) => `${c}:${ref.kind}/${ref.namespace}/${ref.name}`),
  );
  expect.equal(escaped, [], 'objects the override would have written');
  expect.equal(
    CLUSTERS.filter((c) => p.live(c, CM('a-settings'))),
    [...CLUSTERS],
    'a-settings lands under its own identity',
  );
  const lost = p.lost(expected);
  expect.equal(describeLost(lost), '', 'objects lost');
  return {
    outcome:
      'INVALID_VALUE at policies/takeover.yaml:14/19/24; the policy is not applied; cm-1 untouched, nothing in kube-system; plan: look twice',
    lost: lost.length + escaped.length + (after.join() === before.join() ? 0 : 1),
  };
}

/** `..` and `/` in kind: located errors, the rest renders, and after the revert every later commit renders. */
async function pathInKind(expect: Expectations, fleet: Fleet) {
  await fleet.sync();
  const baseline = manifests(await fleet.output());
  const evil = `${configMap('x').replace('kind: ConfigMap', 'kind: "../../../etc"')}---\n${configMap('w').replace('kind: ConfigMap', 'kind: "a/b"')}---\n${configMap('z').replace('kind: ConfigMap', 'kind: Deployment.apps')}`;
  fleet.work.commit({ 'templates/evil.yaml': evil, 'templates/fresh.yaml': configMap('fresh') }, 'kinds with .. and /');
  const v = await validateText(fleet.work.dir);
  expect.equal(v.code, 1, 'validate exit code (1, not 3)');
  expect.that(!v.text.includes('internal error'), 'no internal error');
  fleet.work.commit({ 'templates/evil.yaml': null }, 'revert');
  fleet.work.commit({ 'templates/later.yaml': configMap('later') }, 'a later change');
  const started = performance.now();
  const sync = await fleet.sync();
  const recovery = since(started);
  const problems = sync.reports.flatMap((r) => r.problems);
  expect.equal(
    located(problems, 'INVALID_VALUE', 'templates/evil.yaml'),
    ['templates/evil.yaml:2', 'templates/evil.yaml:10', 'templates/evil.yaml:18'],
    'located kind errors',
  );
  expect.equal(
    sync.reports.map((r) => r.outputCommit !== null),
    [true, true, true],
    'every commit rendered',
  );
  const after = await fleet.output();
  const outside = [...after.keys()].filter(
    (path) =>
      !/^(clusters\/member[12]\/[a-z0-9-]+\/[a-z0-9.-]+_[a-z0-9.-]+\.yaml|bindings\/[a-z_0-9-]+\/[a-z0-9.-]+\.yaml|\.flotilla\/.*)$/.test(
        path,
      ),
  );
  expect.equal(outside, [], 'output paths outside the layout');
  const newcomers = CLUSTERS.flatMap((c) => [
    manifestOf(c, 'ConfigMap', 'fresh'),
    manifestOf(c, 'ConfigMap', 'later'),
  ]).filter((path) => !after.has(path));
  expect.equal(newcomers, [], 'the rest of the bad commit and the later commit on every cluster');
  const lost = missing(baseline, after);
  return {
    outcome: 'INVALID_VALUE at evil.yaml:2/10/18, validate exit 1 in <1 s; the rest and every later commit rendered',
    lost: lost.length + newcomers.length + outside.length,
    recovery_s: recovery,
  };
}

const ingressPolicy = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: ingresses
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: networking.k8s.io/v1
      kind: Ingress
    - apiVersion: example.com/v1
      kind: Ingress
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
`;
// A backend: kube-apiserver refuses a networking.k8s.io Ingress with neither a default backend nor rules.
const ingress = (apiVersion: string) =>
  `apiVersion: ${apiVersion}\nkind: Ingress\nmetadata:\n  name: web\n  namespace: default\nspec:\n  defaultBackend: {service: {name: web, port: {number: 80}}}\n`;

/** Two templates whose output would share a file: an error at both, neither replaces nor removes the other. */
async function collidingPaths(expect: Expectations, fleet: Fleet) {
  await fleet.sync();
  // Manifests and bindings: the index changes with every commit.
  const baseline = new Map([...(await fleet.output())].filter(([path]) => !path.startsWith('.flotilla/')));
  fleet.work.commit(
    {
      'templates/copy.yaml': ingress('example.com/v1'),
      'templates/kind.yaml': configMap('web').replace('kind: ConfigMap', 'kind: Deployment.apps'),
    },
    'same names, other groups',
  );
  const sync = await fleet.sync();
  const problems = sync.reports.flatMap((r) => r.problems);
  expect.equal(
    located(problems, 'PATH_COLLISION', 'templates/copy.yaml').length +
      located(problems, 'PATH_COLLISION', 'templates/ingress.yaml').length,
    2,
    'PATH_COLLISION at both files',
  );
  expect.equal(
    located(problems, 'INVALID_VALUE', 'templates/kind.yaml'),
    ['templates/kind.yaml:2'],
    'kind Deployment.apps is refused',
  );
  const after = await fleet.output();
  const touched = changed(baseline, after);
  expect.equal(touched, [], 'files of the original objects changed');
  fleet.work.commit({ 'templates/copy.yaml': null, 'templates/kind.yaml': null }, 'drop the copies');
  const started = performance.now();
  const fixed = await fleet.sync();
  const recovery = since(started);
  expect.equal(
    errorsOf(fixed).map((p) => p.code),
    [],
    'errors after the fix',
  );
  const final = await fleet.output();
  const lost = missing(manifests(baseline), final);
  expect.equal(lost, [], 'objects removed with the copies');
  return {
    outcome:
      'PATH_COLLISION at both Ingress files, INVALID_VALUE for kind Deployment.apps; originals unchanged, nothing pruned with the copies',
    lost: lost.length + touched.length,
    recovery_s: recovery,
  };
}

/** A trailer on an earlier commit: the later commit's deletions are held by the applier, as plan and sync say. */
async function earlierAllowPrune(expect: Expectations, p: Pipeline) {
  await p.reconcile();
  const expected = await p.expected();
  p.fleet.work.commit({ 'templates/cm-0.yaml': null }, 'Retire cm-0\n\nFlotilla-Allow-Prune: retiring cm-0');
  const allowing = p.fleet.work.git('rev-parse', 'HEAD');
  p.fleet.work.commit(
    {
      'templates/cm-1.yaml': null,
      'templates/cm-2.yaml': null,
      'templates/cm-3.yaml': null,
      'templates/web.yaml': null,
    },
    'Delete most of the fleet',
  );
  const plan = await readPlan(await p.repo(), { base: allowing, head: 'HEAD' });
  expect.equal(
    plan.prune.held.map((h) => h.cluster),
    [...CLUSTERS],
    'plan of the later commit: held',
  );
  const pass = await p.reconcile();
  expect.equal(
    pass.prune?.held.map((h) => h.cluster),
    [...CLUSTERS],
    'sync: held',
  );
  const gone = expected.filter((e) => e.ref.name !== 'cm-0' && !p.live(e.cluster, e.ref));
  expect.equal(describeLost(gone), '', 'objects deleted by the later commit');
  const cm0 = CLUSTERS.filter((c) => p.live(c, CM('cm-0')));
  expect.equal(cm0, [], 'cm-0, deleted by the commit with the trailer');
  p.fleet.work.git(
    '-c',
    'user.name=Ada',
    '-c',
    'user.email=ada@example.com',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'allow prune',
    '--trailer',
    'Flotilla-Allow-Prune: retiring the fleet',
  );
  const started = performance.now();
  await p.reconcile();
  const released = CLUSTERS.filter((c) => p.live(c, CM('cm-1')));
  expect.equal(released, [], 'a follow-up trailer releases the held deletions');
  return {
    outcome:
      "held on both members (plan, sync and the applier agree); the earlier commit's own deletion went through; a follow-up trailer releases them",
    lost: gone.length,
    recovery_s: since(started),
  };
}

/** Tree entries a push cannot make with `git add` but can with plumbing: a gitlink, a `..` entry, odd file names. */
async function oddTreeEntries(expect: Expectations, fleet: Fleet) {
  await fleet.sync();
  const baseline = manifests(await fleet.output());
  const git = (args: string[], input?: string) =>
    execFileSync('git', args, {
      cwd: fleet.work.dir,
      encoding: 'utf8',
      ...(input !== undefined ? { input } : {}),
    }).trim();
  const blob = (text: string) => git(['hash-object', '-w', '--stdin'], text);
  const inner = git(['mktree', '-z'], `100644 blob ${blob(configMap('dotdot'))}\tescape.yaml\0`);
  const odd = [
    `040000 tree ${inner}\t..`,
    `100644 blob ${blob(configMap('dots'))}\t..yaml`,
    `160000 commit ${'1'.repeat(40)}\tsubmodule`,
    `100644 blob ${blob(configMap('spaced'))}\ta b.yaml`,
    `100644 blob ${blob(configMap('dash'))}\t-rf.yaml`,
    `100644 blob ${blob(configMap('newline'))}\tx\ny.yaml`,
    `100644 blob ${blob(configMap('unicode'))}\tünï.yaml`,
  ];
  const templates = git(['ls-tree', '-z', 'HEAD:templates']).split('\0').filter(Boolean);
  const templatesTree = git(['mktree', '-z'], `${[...templates, ...odd].join('\0')}\0`);
  const root = git(['ls-tree', '-z', 'HEAD'])
    .split('\0')
    .filter(Boolean)
    .map((e) => (e.endsWith('\ttemplates') ? `040000 tree ${templatesTree}\ttemplates` : e));
  const tree = git(['mktree', '-z'], `${root.join('\0')}\0`);
  const commit = git([
    '-c',
    'user.name=Ada',
    '-c',
    'user.email=ada@example.com',
    'commit-tree',
    tree,
    '-p',
    'HEAD',
    '-m',
    'odd tree entries',
  ]);
  git(['update-ref', 'refs/heads/main', commit]);
  const v = await validateText(fleet.work.dir);
  expect.that(v.code !== 3 && !v.text.includes('internal error'), `validate ends without an internal error\n${v.text}`);
  const started = performance.now();
  const sync = await fleet.sync();
  const after = await fleet.output();
  const outside = [...after.keys()].filter(
    (path) =>
      path.split('/').some((s) => s === '..' || s === '.' || s === '') ||
      path.includes('\n') ||
      path.includes('escape'),
  );
  expect.equal(outside, [], 'output paths made from odd names');
  expect.equal(sync.reports.length, 1, 'the commit was rendered');
  // Files with odd but harmless names are config like any other; entries named `..` (and what is under them) and
  // the gitlink are never read.
  const rendered = (name: string) => CLUSTERS.every((c) => after.has(manifestOf(c, 'ConfigMap', name)));
  expect.equal(
    ['spaced', 'dash', 'newline', 'unicode'].filter((name) => !rendered(name)),
    [],
    'odd file names not rendered',
  );
  expect.equal(
    ['dotdot', 'dots'].filter((name) => CLUSTERS.some((c) => after.has(manifestOf(c, 'ConfigMap', name)))),
    [],
    'objects read through a .. entry',
  );
  const lost = missing(baseline, after);
  expect.equal(lost, [], 'objects lost');
  return {
    outcome: `rendered; odd names rendered as any file, .. entries and the gitlink not read; ${after.size} output paths, none outside the layout; validate exit ${v.code}`,
    lost: lost.length + outside.length,
    recovery_s: since(started),
  };
}

const withFleet = async <T>(fn: (fleet: Fleet) => Promise<T>, files = baseFiles()) => {
  const fleet = await makeFleet({ files });
  try {
    return await fn(fleet);
  } finally {
    await fleet.cleanup();
  }
};

export const tenantIdentityScenarios: readonly Scenario[] = [
  {
    group: 'tenant',
    name: 'override rewrites identity',
    speed: 'fast',
    injected:
      "an OverridePolicy rewriting a ConfigMap's name to another team's object, its namespace to kube-system and its kind, with conflict-resolution overwrite",
    run: (expect) => withPipeline((p) => overrideRewritesIdentity(expect, p)),
  },
  {
    group: 'tenant',
    name: 'path in kind',
    speed: 'fast',
    injected:
      'kinds "../../../etc", "a/b" and Deployment.apps pushed beside a good ConfigMap, then reverted, then another commit',
    run: (expect) => withFleet((fleet) => pathInKind(expect, fleet)),
  },
  {
    group: 'tenant',
    name: 'colliding output paths',
    speed: 'fast',
    injected:
      'a custom Ingress web in example.com/v1 beside the networking.k8s.io/v1 one, and kind Deployment.apps in v1 named web; then both removed',
    run: (expect) =>
      withFleet((fleet) => collidingPaths(expect, fleet), {
        ...baseFiles(),
        'policies/ingresses.yaml': ingressPolicy,
        'templates/ingress.yaml': ingress('networking.k8s.io/v1'),
      }),
  },
  {
    group: 'tenant',
    name: 'allow-prune on an earlier commit',
    speed: 'fast',
    injected:
      'a commit with Flotilla-Allow-Prune, then one deleting most of the fleet, in one pass; then a follow-up trailer',
    run: (expect) => withPipeline((p) => earlierAllowPrune(expect, p)),
  },
  {
    group: 'tenant',
    name: 'odd tree entries',
    speed: 'fast',
    injected:
      'a commit made with git plumbing: a gitlink, a tree named .., a file ..yaml, names with a space, a newline, a leading dash, non-ASCII',
    run: (expect) => withFleet((fleet) => oddTreeEntries(expect, fleet)),
  },
];
