// A Pull agent has only the rendered branch: the render records the customizations it used there
// (.flotilla/interpreters.json), so the agent interprets a member's objects as the reconciler would (a Lua health
// hook here), and the file comes and goes with the customizations, matching its schema and what verify re-renders.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { runAgentPass } from '../../src/pullAgent.ts';
import {
  configMap,
  configMapPolicy,
  makeConfigRepo,
  RENDERED_REF,
  SOURCE_REF,
  type ConfigRepo,
} from '../helpers/fleet.ts';
import { Scratch } from '../deliveries/helpers/e2e.ts';

const scratch = new Scratch();
const repos: ConfigRepo[] = [];
let kube: KubeTarget | undefined;
test.after(async () => {
  await kube?.close();
  await scratch.cleanup();
  for (const r of repos) r.cleanup();
});

const HEALTH = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: configmap-ready}
spec:
  target: {apiVersion: v1, kind: ConfigMap}
  customizations:
    healthInterpretation:
      luaScript: |
        function InterpretHealth(observedObj)
          return observedObj.data ~= nil and observedObj.data.ready == "yes"
        end
`;
const PULL_MEMBER = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member3}
spec: {syncMode: Pull}
`;

test("a Pull agent judges its member's objects by the customizations the render recorded on the rendered branch", async () => {
  const member = await scratch.member('member3');
  kube = (await connectKubeconfig(scratch.kubeconfig([member]))).get('member3')!;
  const r = makeConfigRepo();
  repos.push(r);
  r.commit({
    'clusters/member3.yaml': PULL_MEMBER,
    'policies/configmaps.yaml': configMapPolicy(['member3']),
    'templates/settings.yaml': configMap('settings', { ready: 'no' }),
    'interpreters/health.yaml': HEALTH,
  });
  const repo = await openRepo(r.dir);
  const sync = () => syncRepo(repo, { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
  await sync();

  const recorded = JSON.parse(r.show(RENDERED_REF, '.flotilla/interpreters.json')) as {
    customizations: { metadata: { name: string } }[];
  };
  const validate = new Ajv({ strict: false }).compile(
    JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../docs/schemas/rendered-interpreters.schema.json'), 'utf8'),
    ),
  );
  assert.ok(validate(recorded), JSON.stringify(validate.errors));
  assert.equal(
    recorded.customizations.map((c: { metadata: { name: string } }) => c.metadata.name),
    ['configmap-ready'],
  );

  const pass = await runAgentPass({ cluster: 'member3', kube, source: { kind: 'local', repo }, log: () => {} });
  assert.ok(pass.ok, pass.problems.join('\n'));
  const status = parse(r.show('flotilla/status', 'templates/default/configmap_settings.yaml'));
  assert.equal(
    status.aggregatedStatus.map((i: { clusterName: string; health: string }) => [i.clusterName, i.health]),
    [['member3', 'Unhealthy']],
    'the Lua hook, not the built-in rule (a ConfigMap is otherwise Healthy)',
  );

  // A template change keeps the file; removing the customization removes it; verify agrees each time.
  r.commit({ 'templates/settings.yaml': configMap('settings', { ready: 'yes' }) }, 'ready');
  await sync();
  assert.ok(r.ls(RENDERED_REF).includes('.flotilla/interpreters.json'));
  assert.ok((await verifyOutput(repo, { outputRef: RENDERED_REF })).ok);
  r.commit({ 'interpreters/health.yaml': null }, 'drop the customization');
  await sync();
  assert.not.ok(r.ls(RENDERED_REF).includes('.flotilla/interpreters.json'));
  assert.ok((await verifyOutput(repo, { outputRef: RENDERED_REF })).ok);
});

test.run();
