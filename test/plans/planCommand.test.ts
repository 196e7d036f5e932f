import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planCommand } from '../../src/commands/planCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readPlan } from '../../src/plans/readPlan.ts';
import { groupSchedulingNotes } from '../../src/plans/groupSchedulingNotes.ts';
import { flagProblem } from '../../src/commands/commandFlags.ts';
import { parseYamlValue } from '../../src/yaml/blockYaml.ts';
import { commitAll, makeNginxRepo, scaledSample, writeWorkTree, type TempRepo } from './helpers/nginxRepo.ts';
import { commonOptions } from './helpers/runCommand.ts';

const NGINX = 'apps/v1/Deployment/default/nginx';

function featureRepo(): { repo: TempRepo; base: string; head: string } {
  const { repo, base } = makeNginxRepo();
  const s = scaledSample();
  repo.git(['checkout', '-q', '-b', 'feature']);
  writeWorkTree(repo, { 'templates/deployment.yaml': s.deployment, 'policies/propagationpolicy.yaml': s.policy });
  const head = commitAll(repo, 'Scale nginx to 3, weights 2:1');
  return { repo, base, head };
}

test('plan JSON lists exactly the replica move and the changed manifest, and exits 1', async () => {
  const { repo, base, head } = featureRepo();
  try {
    const opts = commonOptions(repo.path);
    const code = await planCommand({ ...opts, base: 'main', head: 'feature', format: 'json' });
    assert.is(code, 1);
    const body = JSON.parse(opts.stdout());
    assert.equal(Object.keys(body), ['base', 'head', 'errors', 'clusters', 'replicas', 'held', 'summary']);
    assert.is(body.base, base);
    assert.is(body.head, head);
    assert.equal(body.errors, []);
    // 1:1 of 2 becomes 2:1 of 3: member1 gains one replica, member2 keeps its one.
    assert.equal(body.replicas, [{ ref: NGINX, cluster: 'member1', from: 1, to: 2 }]);
    assert.equal(body.clusters, {
      member1: {
        added: [],
        changed: [NGINX],
        removed: [],
        released: [],
        summary: { add: 0, change: 1, remove: 0, release: 0 },
      },
    });
    assert.equal(body.summary, { add: 0, change: 1, remove: 0, release: 0, clusters: 1 });
    assert.equal(body.held, []);
  } finally {
    repo.cleanup();
  }
});

test('plan -o yaml is the JSON contract as YAML, with the same exit code', async () => {
  assert.is(flagProblem('plan', ['base', 'head', 'output'], 'yaml'), undefined);
  const { repo } = featureRepo();
  try {
    const json = commonOptions(repo.path);
    const yaml = commonOptions(repo.path);
    assert.is(await planCommand({ ...json, base: 'main', head: 'feature', format: 'json' }), 1);
    assert.is(await planCommand({ ...yaml, base: 'main', head: 'feature', output: 'yaml' }), 1);
    assert.equal(parseYamlValue(yaml.stdout()), JSON.parse(json.stdout()));
  } finally {
    repo.cleanup();
  }
});

test('the same commit on both sides is no change: exit 0', async () => {
  const { repo } = makeNginxRepo();
  try {
    const opts = commonOptions(repo.path);
    assert.is(await planCommand({ ...opts, base: 'main', head: 'main', format: 'json' }), 0);
    assert.equal(JSON.parse(opts.stdout()).clusters, {});
  } finally {
    repo.cleanup();
  }
});

test('plan Markdown has the summary table, the move, the why and a diff without the stamp', async () => {
  const { repo } = featureRepo();
  try {
    const opts = commonOptions(repo.path);
    await planCommand({ ...opts, base: 'main', head: 'feature', format: 'markdown' });
    const md = opts.stdout();
    assert.match(md, '| Cluster | Added | Changed | Removed |');
    assert.match(md, '| member1 | 0 | 1 | 0 |');
    assert.match(md, '- Deployment default/nginx: member1 1→2');
    assert.match(md, 'static weight 2 of 3');
    assert.match(md, '<details><summary>member1: 1 changed</summary>');
    assert.match(md, '```diff\n--- a/clusters/member1/default/deployment.apps_nginx.yaml');
    assert.match(md, '-  replicas: 1\n+  replicas: 2');
    assert.not.match(md, 'source-commit');
    assert.match(md, '**Prune safety:** nothing held.');
  } finally {
    repo.cleanup();
  }
});

test("a plan shows what members get: the Work's applied-overrides annotations are no change of theirs", async () => {
  const { repo } = makeNginxRepo();
  const op = (rules: string) =>
    `apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata:\n  name: nginx-op\n  namespace: default\nspec:\n  resourceSelectors:\n    - apiVersion: apps/v1\n      kind: Deployment\n  overrideRules:\n${rules}`;
  const tag = (t: string) =>
    `    - overriders:\n        imageOverrider:\n          - component: Tag\n            operator: replace\n            value: "${t}"\n`;
  try {
    writeWorkTree(repo, { 'policies/overridepolicy.yaml': op(tag('1.27')) });
    commitAll(repo, 'Tag 1.27');
    repo.git(['checkout', '-q', '-b', 'feature']);
    // A second rule that changes nothing a member gets: the Work records it, the member object stays as it is.
    writeWorkTree(repo, { 'policies/overridepolicy.yaml': op(`${tag('1.27')}    - overriders: {}\n`) });
    commitAll(repo, 'An empty rule');
    const same = commonOptions(repo.path);
    assert.is(await planCommand({ ...same, base: 'main', head: 'feature', format: 'json' }), 0);
    assert.equal(JSON.parse(same.stdout()).clusters, {});
    writeWorkTree(repo, { 'policies/overridepolicy.yaml': op(tag('1.28')) });
    commitAll(repo, 'Tag 1.28');
    const changed = commonOptions(repo.path);
    await planCommand({ ...changed, base: 'main', head: 'feature', format: 'markdown' });
    assert.match(changed.stdout(), '-        - image: nginx:1.27\n+        - image: nginx:1.28');
    assert.not.match(changed.stdout(), 'applied-overrides');
  } finally {
    repo.cleanup();
  }
});

test('a change an override causes names the policy and rule, with file:line; a policy that overrides nothing says so', async () => {
  const { repo } = makeNginxRepo();
  const op = (name: string, selector: string, rules: string) =>
    `apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n  resourceSelectors:\n    - apiVersion: apps/v1\n      kind: Deployment\n${selector}  overrideRules:\n${rules}`;
  const tag = (t: string) =>
    `    - overriders:\n        imageOverrider:\n          - component: Tag\n            operator: replace\n            value: "${t}"\n`;
  const labels =
    '    - overriders:\n        labelsOverrider:\n          - operator: add\n            value: {tier: web}\n';
  try {
    writeWorkTree(repo, { 'policies/overridepolicy.yaml': op('nginx-op', '', tag('1.27')) });
    commitAll(repo, 'Tag 1.27');
    repo.git(['checkout', '-q', '-b', 'feature']);
    writeWorkTree(repo, {
      'policies/overridepolicy.yaml': op('nginx-op', '', tag('1.28') + labels),
      'policies/typo.yaml': op('typo-op', '      name: ngnix\n', tag('9.9')),
    });
    commitAll(repo, 'Tag 1.28, a label, and a policy selecting a name no template has');
    const text = commonOptions(repo.path);
    assert.is(await planCommand({ ...text, base: 'main', head: 'feature' }), 1);
    const out = text.stdout();
    assert.match(
      out,
      'Deployment default/nginx on member1, member2: OverridePolicy default/nginx-op rule 0 (policies/overridepolicy.yaml:1) changed; OverridePolicy default/nginx-op rule 1 (policies/overridepolicy.yaml:1) now applies',
    );
    assert.match(out, 'OverridePolicy default/typo-op (policies/typo.yaml:1): added, but it overrides nothing');
    const md = commonOptions(repo.path);
    await planCommand({ ...md, base: 'main', head: 'feature', format: 'markdown' });
    assert.match(
      md.stdout(),
      'OverridePolicy default/nginx-op rule 1 \\(policies/overridepolicy.yaml:1\\) now applies',
    );
    // Only the typo policy in the change: nothing changes, the exit code says so, and the plan says why.
    repo.git(['checkout', '-q', '-b', 'only-typo', 'main']);
    writeWorkTree(repo, { 'policies/typo.yaml': op('typo-op', '      name: ngnix\n', tag('9.9')) });
    commitAll(repo, 'A policy selecting nothing');
    const quiet = commonOptions(repo.path);
    assert.is(await planCommand({ ...quiet, base: 'main', head: 'only-typo' }), 0);
    assert.match(quiet.stdout(), 'No change on any cluster.');
    assert.match(
      quiet.stdout(),
      'OverridePolicy default/typo-op (policies/typo.yaml:1): added, but it overrides nothing',
    );
  } finally {
    repo.cleanup();
  }
});

test('plan text names the move per workload', async () => {
  const { repo } = featureRepo();
  try {
    const opts = commonOptions(repo.path);
    await planCommand({ ...opts, base: 'main', head: 'feature' });
    assert.match(opts.stdout(), 'Deployment default/nginx: member1 1→2');
    assert.match(opts.stdout(), 'member1   0       1         0');
  } finally {
    repo.cleanup();
  }
});

test('a commit deleting every template is held; the trailer lets it through', async () => {
  const { repo } = makeNginxRepo();
  try {
    repo.git(['checkout', '-q', '-b', 'retire']);
    writeWorkTree(repo, { 'templates/deployment.yaml': null });
    commitAll(repo, 'Retire nginx');
    const opts = commonOptions(repo.path);
    assert.is(await planCommand({ ...opts, base: 'main', head: 'retire', format: 'json' }), 1);
    const body = JSON.parse(opts.stdout());
    assert.equal(body.clusters.member1.removed, [NGINX]);
    assert.equal(
      body.held.map((h: { cluster: string; reason: string }) => [h.cluster, h.reason]),
      [
        ['member1', 'EVERYTHING'],
        ['member2', 'EVERYTHING'],
      ],
    );
    assert.equal(body.replicas, [
      { ref: NGINX, cluster: 'member1', from: 1, to: 0 },
      { ref: NGINX, cluster: 'member2', from: 1, to: 0 },
    ]);

    const md = commonOptions(repo.path);
    await planCommand({ ...md, base: 'main', head: 'retire', format: 'markdown' });
    assert.match(md.stdout(), 'Prune safety: ⛔ held.');
    assert.match(md.stdout(), 'Flotilla-Allow-Prune: &lt;reason&gt;');

    repo.git([
      'commit',
      '-q',
      '--amend',
      '-m',
      'Retire nginx\n\nFlotilla-Allow-Prune: nginx moved to the new platform',
    ]);
    const allowed = commonOptions(repo.path);
    await planCommand({ ...allowed, base: 'main', head: 'retire', format: 'json' });
    assert.equal(JSON.parse(allowed.stdout()).held, []);
    const text = commonOptions(repo.path);
    await planCommand({ ...text, base: 'main', head: 'retire' });
    assert.match(text.stdout(), 'Prune safety: allowed by Flotilla-Allow-Prune: nginx moved to the new platform');
  } finally {
    repo.cleanup();
  }
});

test('an emptied source holds every deletion even with the trailer', async () => {
  const { repo } = makeNginxRepo();
  try {
    repo.git(['checkout', '-q', '-b', 'empty']);
    writeWorkTree(repo, { templates: null, policies: null, clusters: null });
    commitAll(repo, 'Oops\n\nFlotilla-Allow-Prune: sure');
    const plan = await readPlan(await openRepo(repo.path), { base: 'main', head: 'empty' });
    assert.equal(
      plan.prune.held.map((h) => h.reason),
      ['SOURCE_EMPTY', 'SOURCE_EMPTY'],
    );
  } finally {
    repo.cleanup();
  }
});

test('validation errors in the head are listed with path:line and exit 2', async () => {
  const { repo } = makeNginxRepo();
  try {
    repo.git(['checkout', '-q', '-b', 'broken']);
    writeWorkTree(repo, {
      'policies/broken.yaml':
        'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: broken\nspec:\n  placement: {}\n',
    });
    commitAll(repo, 'Add a policy without selectors');
    const opts = commonOptions(repo.path);
    assert.is(await planCommand({ ...opts, base: 'main', head: 'broken', format: 'json' }), 2);
    const body = JSON.parse(opts.stdout());
    assert.ok(body.errors.length > 0);
    assert.is(body.errors[0].file, 'policies/broken.yaml');
    assert.type(body.errors[0].line, 'number');
    const text = commonOptions(repo.path);
    await planCommand({ ...text, base: 'main', head: 'broken' });
    assert.match(text.stdout(), /policies\/broken\.yaml:\d+:\d+ {2}error/);
  } finally {
    repo.cleanup();
  }
});

test('an unknown revision is an error with a code, not a plan', async () => {
  const { repo } = makeNginxRepo();
  try {
    const opts = commonOptions(repo.path);
    const err = await planCommand({ ...opts, base: 'main', head: 'no-such-branch' }).catch(
      (e: unknown) => e as { code?: string },
    );
    assert.is((err as { code?: string }).code, 'REV_NOT_FOUND');
  } finally {
    repo.cleanup();
  }
});

test("a plan names the clusters a FederatedResourceQuota's ResourceQuota goes to, placed by its sync controller, not as unscheduled", async () => {
  const { repo } = makeNginxRepo();
  try {
    repo.git(['checkout', '-q', '-b', 'feature']);
    writeWorkTree(repo, {
      'quotas/team.yaml':
        'apiVersion: policy.karmada.io/v1alpha1\nkind: FederatedResourceQuota\nmetadata: {name: team, namespace: default}\nspec:\n  overall: {cpu: "4"}\n  staticAssignments:\n    - {clusterName: member1, hard: {cpu: "1"}}\n    - {clusterName: member2, hard: {cpu: "2"}}\n',
    });
    commitAll(repo, 'A quota for the team');
    const plan = await readPlan(await openRepo(repo.path), { base: 'main', head: 'feature' });
    const note = plan.scheduling.find((n) => n.ref === 'v1/ResourceQuota/default/team');
    assert.is(note?.status, 'Placed');
    assert.equal(
      note?.clusters.map((c) => `${c.cluster} ${c.outcome}`),
      ['member1 selected', 'member2 selected'],
    );
    assert.match(note?.clusters[0]?.why ?? '', 'FederatedResourceQuota default/team');
  } finally {
    repo.cleanup();
  }
});

test("the plan lists each template's clusters by name, so templates scheduled alike share one line of why", async () => {
  const { repo } = makeNginxRepo();
  try {
    repo.git(['checkout', '-q', '-b', 'feature']);
    const names = [
      'redis-master',
      'tf-serving',
      'local-path-provisioner',
      'longhorn-driver-deployer',
      'frontend',
      'mysql',
    ];
    writeWorkTree(repo, {
      'policies/everything.yaml':
        'apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: everything}\nspec:\n  resourceSelectors:\n    - {apiVersion: apps/v1, kind: Deployment, namespace: apps}\n  placement:\n    clusterAffinity: {clusterNames: [member1, member2]}\n    replicaScheduling: {replicaSchedulingType: Duplicated}\n',
      ...Object.fromEntries(
        names.map((name) => [
          `templates/${name}.yaml`,
          `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: apps}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: c, image: nginx}]}\n`,
        ]),
      ),
    });
    commitAll(repo, 'Six Deployments on both members');
    const plan = await readPlan(await openRepo(repo.path), { base: 'main', head: 'feature' });
    const notes = plan.scheduling.filter((n) => n.ref.startsWith('apps/v1/Deployment/apps/'));
    assert.is(notes.length, names.length);
    for (const note of notes)
      assert.equal(
        note.clusters.map((c) => `${c.cluster} ${c.outcome}`),
        ['member1 selected', 'member2 selected', 'member3 filtered'],
        note.ref,
      );
    const grouped = groupSchedulingNotes(notes);
    assert.is(grouped.length, 1, JSON.stringify(grouped.map((g) => g.refs)));
  } finally {
    repo.cleanup();
  }
});

test.run();
