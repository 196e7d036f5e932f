// A plan drafted over the last render (what the sync after the merge does) against the plan of both commits rendered
// whole: the same answer for every kind of change, where only the draft reads just what the change reaches.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readPlan } from '../../src/plans/readPlan.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { RENDERED_BRANCH } from '../../src/branches/rendered/branch.ts';
import type { Plan } from '../../src/plans/types.ts';
import { commitAll, makeTempRepo, writeWorkTree, type TempRepo } from '../commits/helpers/tempRepo.ts';
import { DEPLOYMENT, POLICY } from './helpers/nginxRepo.ts';

const OUTPUT_REF = `refs/heads/${RENDERED_BRANCH}`;

function cluster(name: string, labels: Record<string, string>): string {
  const lines = Object.entries(labels).map(([k, v]) => `    ${k}: ${v}\n`);
  return `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n  labels:\n${lines.join('')}spec:\n  syncMode: Push\n`;
}

const SHOP = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: shop-config
  namespace: shop
data:
  mode: live
---
apiVersion: v1
kind: Service
metadata:
  name: shop
  namespace: shop
spec:
  selector:
    app: shop
  ports:
    - port: 80
`;

const SHOP_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: shop
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
      namespace: shop
    - apiVersion: v1
      kind: Service
      namespace: shop
  placement:
    clusterAffinity:
      labelSelector:
        matchLabels:
          shop: 'yes'
`;

const PROTECTED = `# kept until its label goes
apiVersion: v1
kind: ConfigMap
metadata:
  name: ledger
  namespace: shop
  labels:
    resourcetemplate.karmada.io/deletion-protected: Always
data:
  entries: '0'
`;

const IMAGE_OVERRIDE = `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: nginx-image
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: nginx
  overrideRules:
    - targetCluster:
        clusterNames:
          - member1
      overriders:
        imageOverrider:
          - component: Tag
            operator: replace
            value: '1.25'
`;

/** main: nginx on member1 and member2, the shop on the clusters labelled for it, rendered once. */
async function renderedFleet(extra: Record<string, string> = {}): Promise<{ repo: TempRepo; base: string }> {
  const repo = makeTempRepo();
  writeWorkTree(repo, {
    ...extra,
    'templates/deployment.yaml': DEPLOYMENT,
    'templates/shop.yaml': SHOP,
    'templates/protected.yaml': PROTECTED,
    'policies/propagationpolicy.yaml': POLICY,
    'policies/shop.yaml': SHOP_POLICY,
    'clusters/member1.yaml': cluster('member1', { shop: "'yes'" }),
    'clusters/member2.yaml': cluster('member2', { shop: "'yes'" }),
    'clusters/member3.yaml': cluster('member3', { shop: "'no'" }),
  });
  const base = commitAll(repo, 'Fleet');
  await renderRevision(await openRepo(repo.path), base, { outputRef: OUTPUT_REF });
  return { repo, base };
}

/** Both plans of the commit `change` makes on top of the rendered main; the draft's must have been drafted. */
async function bothPlans(
  change: (repo: TempRepo) => void,
  { extra = {}, drafts = true }: { extra?: Record<string, string>; drafts?: boolean } = {},
): Promise<{ drafted: Plan; whole: Plan }> {
  const { repo, base } = await renderedFleet(extra);
  try {
    change(repo);
    const head = repo.git(['rev-parse', 'HEAD']).trim();
    const git = await openRepo(repo.path);
    const phases: string[] = [];
    const drafted = await readPlan(git, { base, head, fromRender: true, onPhase: (p) => phases.push(p) });
    assert.is(
      phases.includes(`rendering the head (${head}) over the base's results`),
      !drafts,
      `drafted over the render: ${phases.join('; ')}`,
    );
    const whole = await readPlan(git, { base, head });
    return { drafted, whole };
  } finally {
    repo.cleanup();
  }
}

/** Each change, and whether the draft stands for it (a Namespace removed renders both commits). */
const CHANGES: [string, (repo: TempRepo) => void, boolean?][] = [
  [
    'a template edited',
    (r) => {
      writeWorkTree(r, { 'templates/deployment.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: 5') });
      commitAll(r, 'Scale nginx');
    },
  ],
  [
    'a policy reweighted',
    (r) => {
      writeWorkTree(r, { 'policies/propagationpolicy.yaml': POLICY.replace(/weight: 1\n/, 'weight: 3\n') });
      commitAll(r, 'Weights 3:1');
    },
  ],
  [
    'an OverridePolicy added, and one that overrides nothing',
    (r) => {
      writeWorkTree(r, {
        'policies/override.yaml': IMAGE_OVERRIDE,
        'policies/idle-override.yaml': IMAGE_OVERRIDE.replace('nginx-image', 'idle').replace(
          'name: nginx',
          'name: gone',
        ),
      });
      commitAll(r, 'Pin nginx on member1');
    },
  ],
  [
    'a cluster relabelled out of a selector',
    (r) => {
      writeWorkTree(r, { 'clusters/member2.yaml': cluster('member2', { shop: "'no'" }) });
      commitAll(r, 'member2 leaves the shop');
    },
  ],
  [
    'a cluster relabelled into a selector',
    (r) => {
      writeWorkTree(r, { 'clusters/member3.yaml': cluster('member3', { shop: "'yes'" }) });
      commitAll(r, 'member3 joins the shop');
    },
  ],
  [
    'a Namespace and its objects deleted, one of them protected',
    (r) => {
      r.git(['rm', '-q', 'templates/shop.yaml']);
      commitAll(r, 'Retire the shop');
    },
    false,
  ],
  [
    'most of what two clusters hold deleted (held by the prune guard)',
    (r) => {
      writeWorkTree(r, { 'templates/shop.yaml': SHOP.slice(0, SHOP.indexOf('---')) });
      r.git(['rm', '-q', 'templates/deployment.yaml']);
      commitAll(r, 'Retire nginx and the shop, keep the namespace');
    },
  ],
  [
    'a deletion-protected template deleted',
    (r) => {
      r.git(['rm', '-q', 'templates/protected.yaml']);
      commitAll(r, 'Drop the ledger');
    },
  ],
  [
    'every template deleted, allowed by the trailer',
    (r) => {
      r.git(['rm', '-q', 'templates/shop.yaml', 'templates/deployment.yaml', 'templates/protected.yaml']);
      r.git(['commit', '-q', '-m', 'Retire all\n\nFlotilla-Allow-Prune: retiring the demo']);
    },
    false,
  ],
  [
    'a policy that selects nothing and a Cluster name no registration has',
    (r) => {
      writeWorkTree(r, {
        'policies/typo.yaml': POLICY.replace('nginx-propagation', 'typo')
          .replace('name: nginx', 'name: ngnix')
          .replace('- member2\n', '- member9\n'),
      });
      commitAll(r, 'Typo');
    },
  ],
  [
    'a template that does not validate',
    (r) => {
      writeWorkTree(r, {
        'templates/deployment.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: two'),
      });
      commitAll(r, 'Break nginx');
    },
  ],
];

for (const [name, change, drafts = true] of CHANGES) {
  test(`a plan drafted over the last render equals the whole-commit plan: ${name}`, async () => {
    const { drafted, whole } = await bothPlans(change, { drafts });
    assert.equal(drafted, whole);
    if (name.includes('held by the prune guard')) assert.ok(drafted.prune.held.length > 0, 'something is held');
  });
}

const KUSTOMIZED = {
  'apps/web/kustomization.yaml':
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n  - config.yaml\n',
  'apps/web/deployment.yaml': DEPLOYMENT.replace(/nginx/g, 'web'),
  'apps/web/config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-config\ndata:\n  level: info\n',
  'policies/web.yaml': POLICY.replace(/nginx/g, 'web').replace(
    '      name: web\n',
    '      name: web\n    - apiVersion: v1\n      kind: ConfigMap\n      name: web-config\n',
  ),
};

test('a plan drafted over the last render equals the whole-commit plan: an object of a Kustomize unit edited', async () => {
  const { drafted, whole } = await bothPlans(
    (r) => {
      writeWorkTree(r, { 'apps/web/config.yaml': KUSTOMIZED['apps/web/config.yaml'].replace('info', 'debug') });
      commitAll(r, 'web logs at debug');
    },
    { extra: KUSTOMIZED },
  );
  assert.equal(drafted, whole);
  assert.ok(drafted.sources?.some((s) => s.source.startsWith('Kustomize folder apps/web')));
});

test('a change that removes an object of a unit renders both commits, which name the unit it came from', async () => {
  const { drafted, whole } = await bothPlans(
    (r) => {
      writeWorkTree(r, {
        'apps/web/kustomization.yaml': KUSTOMIZED['apps/web/kustomization.yaml'].replace('  - config.yaml\n', ''),
      });
      commitAll(r, 'web without its ConfigMap');
    },
    { extra: KUSTOMIZED, drafts: false },
  );
  assert.equal(drafted, whole);
  assert.ok(drafted.clusters.member1?.removed.some((o) => o.ref === 'v1/ConfigMap/default/web-config'));
});

test('a plan whose base is not the last render renders both commits', async () => {
  const { repo } = await renderedFleet();
  try {
    writeWorkTree(repo, { 'templates/deployment.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: 4') });
    const middle = commitAll(repo, 'Scale nginx to 4');
    writeWorkTree(repo, { 'templates/deployment.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: 6') });
    const head = commitAll(repo, 'Scale nginx to 6');
    const git = await openRepo(repo.path);
    const phases: string[] = [];
    const plan = await readPlan(git, { base: middle, head, fromRender: true, onPhase: (p) => phases.push(p) });
    assert.equal(phases[0], `rendering the base (${middle})`);
    assert.equal(plan, await readPlan(git, { base: middle, head }));
    assert.equal(
      plan.replicas.map((m) => [m.cluster, m.from, m.to]),
      [
        ['member1', 2, 3],
        ['member2', 2, 3],
      ],
    );
  } finally {
    repo.cleanup();
  }
});

test.run();
