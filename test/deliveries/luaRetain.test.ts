// Karmada's Retain through a ResourceInterpreterCustomization: before updating an object a member has, the applier
// runs the kind's Lua Retain with the member's copy, so a field the member owns survives every pass, where the
// built-in rule would repair it back to the template. Real kubectl 1.32 against an emulated member, reconcileOnce.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reconcileOnce } from '../../src/reconcile.ts';
import { clusterYaml, deploymentPolicy } from '../helpers/fleet.ts';
import { startMemberFleet, type MemberFleet } from './helpers/e2e.ts';
import { KARMADA_E2E_RETAIN } from '../helpers/interpreterCustomizations.ts';

let fleet: MemberFleet | undefined;
test.after(async () => {
  await fleet?.cleanup();
});

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  paused: false
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx:1.27}]}
`;

test("a member's paused flag outlives every pass under a Lua Retain, and is repaired once the customization goes", async () => {
  fleet = await startMemberFleet(
    ['member1'],
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/deployments.yaml': deploymentPolicy(['member1']),
      'templates/web.yaml': DEPLOYMENT,
      'interpreters/retain.yaml': KARMADA_E2E_RETAIN,
    },
    'web with a Retain hook',
  );
  const f = fleet;
  const pass = () =>
    reconcileOnce({
      repo: f.repo,
      sourceRef: 'refs/heads/main',
      outputRef: 'refs/heads/flotilla/rendered',
      clusters: f.kubes,
      render: true,
      log: () => {},
    });
  const web = (...args: string[]) => f.kubectl(['--context', 'member1', ...args, 'deployment', 'web', '-n', 'default']);
  const field = async (path: string) => (await web('get', '-o', `jsonpath={${path}}`)).stdout;
  // DeploymentSpec.paused is omitempty: the template's `paused: false` reads back as no paused field at all.
  const paused = () => field('.spec.paused');
  await pass();
  assert.is(await paused(), '');
  const patch = await web('patch', '--type', 'merge', '-p', '{"spec":{"paused":true}}');
  assert.is(patch.code, 0, patch.stderr);
  await f.config.push({ 'templates/web.yaml': DEPLOYMENT.replace('nginx:1.27', 'nginx:1.28') }, 'new image');
  await pass();
  assert.is(await field('.spec.template.spec.containers[0].image'), 'nginx:1.28', 'the update went through');
  assert.is(await paused(), 'true', "the member's value was retained");

  await f.config.push({ 'interpreters/retain.yaml': null }, 'drop the customization');
  await pass();
  assert.is(await paused(), '', 'without the hook the template wins again');
});

test.run();
