import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CommandArgsOverrider } from '../../src/api/policy.ts';
import { applyCommandArgsOverriders, type CommandArgsField } from '../../src/overrides/overrideCommandArgs.ts';
import { containersOf, workload, type Obj } from './helpers/objects.ts';

function after(manifest: Obj, field: CommandArgsField, overriders: CommandArgsOverrider[]): Obj[] {
  const step = applyCommandArgsOverriders(manifest, field, overriders);
  if (!step.ok) throw new Error(`unexpected failure: ${step.message}`);
  return containersOf(step.manifest);
}

const NGINX = ['nginx', '-v', '-t'];

// Cases transcribed from karmada pkg/util/overridemanager/commandargsoverride_test.go
// (TestParseJSONPatchesByCommandOverrider, TestParseJSONPatchesByArgsOverrider).
const cases: {
  name: string;
  kind: string;
  field: CommandArgsField;
  containers: Obj[];
  overrider: CommandArgsOverrider;
  want: Obj[];
}[] = [
  {
    name: 'Deployment command add appends',
    kind: 'Deployment',
    field: 'command',
    containers: [{ name: 'nginx', command: NGINX }],
    overrider: { containerName: 'nginx', operator: 'add', value: ["&& echo 'hello karmada'"] },
    want: [{ name: 'nginx', command: [...NGINX, "&& echo 'hello karmada'"] }],
  },
  {
    name: 'Deployment command remove drops the token',
    kind: 'Deployment',
    field: 'command',
    containers: [{ name: 'nginx', command: NGINX }],
    overrider: { containerName: 'nginx', operator: 'remove', value: ['-t'] },
    want: [{ name: 'nginx', command: ['nginx', '-v'] }],
  },
  {
    name: 'Deployment command remove of nothing keeps the list',
    kind: 'Deployment',
    field: 'command',
    containers: [{ name: 'nginx', command: NGINX }],
    overrider: { containerName: 'nginx', operator: 'remove', value: [] },
    want: [{ name: 'nginx', command: NGINX }],
  },
  {
    name: 'two containers, add only touches the named one',
    kind: 'Deployment',
    field: 'command',
    containers: [
      { name: 'nginx', command: NGINX },
      { name: 'nginx1', command: NGINX },
    ],
    overrider: { containerName: 'nginx', operator: 'add', value: ["echo 'hello karmada'"] },
    want: [
      { name: 'nginx', command: [...NGINX, "echo 'hello karmada'"] },
      { name: 'nginx1', command: NGINX },
    ],
  },
  {
    name: 'two containers, remove only touches the named one',
    kind: 'Deployment',
    field: 'command',
    containers: [
      { name: 'nginx', command: NGINX },
      { name: 'nginx1', command: NGINX },
    ],
    overrider: { containerName: 'nginx', operator: 'remove', value: ['-t'] },
    want: [
      { name: 'nginx', command: ['nginx', '-v'] },
      { name: 'nginx1', command: NGINX },
    ],
  },
  {
    name: 'Pod command add',
    kind: 'Pod',
    field: 'command',
    containers: [{ name: 'nginx', command: NGINX }],
    overrider: { containerName: 'nginx', operator: 'add', value: ["echo 'hello karmada'"] },
    want: [{ name: 'nginx', command: [...NGINX, "echo 'hello karmada'"] }],
  },
  {
    name: 'StatefulSet command add',
    kind: 'StatefulSet',
    field: 'command',
    containers: [{ name: 'nginx', command: NGINX }],
    overrider: { containerName: 'nginx', operator: 'add', value: ["echo 'hello karmada'"] },
    want: [{ name: 'nginx', command: [...NGINX, "echo 'hello karmada'"] }],
  },
  {
    name: 'ReplicaSet command remove',
    kind: 'ReplicaSet',
    field: 'command',
    containers: [{ name: 'nginx', command: NGINX }],
    overrider: { containerName: 'nginx', operator: 'remove', value: ['-t'] },
    want: [{ name: 'nginx', command: ['nginx', '-v'] }],
  },
  {
    name: 'DaemonSet command remove',
    kind: 'DaemonSet',
    field: 'command',
    containers: [{ name: 'nginx', command: NGINX }],
    overrider: { containerName: 'nginx', operator: 'remove', value: ['-t'] },
    want: [{ name: 'nginx', command: ['nginx', '-v'] }],
  },
  {
    name: 'Deployment args add appends',
    kind: 'Deployment',
    field: 'args',
    containers: [{ name: 'nginx', args: NGINX }],
    overrider: { containerName: 'nginx', operator: 'add', value: ["&& echo 'hello karmada'"] },
    want: [{ name: 'nginx', args: [...NGINX, "&& echo 'hello karmada'"] }],
  },
  {
    name: 'Deployment args remove drops the token',
    kind: 'Deployment',
    field: 'args',
    containers: [{ name: 'nginx', args: NGINX }],
    overrider: { containerName: 'nginx', operator: 'remove', value: ['-t'] },
    want: [{ name: 'nginx', args: ['nginx', '-v'] }],
  },
  {
    name: 'Deployment args add creates the missing field',
    kind: 'Deployment',
    field: 'args',
    containers: [{ name: 'nginx', command: NGINX }],
    overrider: { containerName: 'nginx', operator: 'add', value: ['-t'] },
    want: [{ name: 'nginx', command: NGINX, args: ['-t'] }],
  },
];

for (const c of cases) {
  test(`${c.field}Overrider: ${c.name}`, () => {
    assert.equal(after(workload(c.kind, c.containers), c.field, [c.overrider]), c.want);
  });
}

test('remove deletes every occurrence of each listed token', () => {
  const got = after(workload('Job', [{ name: 'a', args: ['-v', 'x', '-v', 'y', 'z'] }]), 'args', [
    { containerName: 'a', operator: 'remove', value: ['-v', 'z'] },
  ]);
  assert.equal(got, [{ name: 'a', args: ['x', 'y'] }]);
});

test('remove on a missing field writes an empty list, as Karmada does', () => {
  const got = after(workload('Deployment', [{ name: 'a' }]), 'command', [
    { containerName: 'a', operator: 'remove', value: ['x'] },
  ]);
  assert.equal(got, [{ name: 'a', command: [] }]);
});

test('every container with the name is changed; initContainers are not', () => {
  const manifest = workload('Pod', [{ name: 'a', args: ['1'] }, { name: 'a' }]);
  (manifest.spec as Obj).initContainers = [{ name: 'a', args: ['1'] }];
  const step = applyCommandArgsOverriders(manifest, 'args', [{ containerName: 'a', operator: 'add', value: ['2'] }]);
  assert.ok(step.ok);
  if (!step.ok) return;
  assert.equal((step.manifest.spec as Obj).containers, [
    { name: 'a', args: ['1', '2'] },
    { name: 'a', args: ['2'] },
  ]);
  assert.equal((step.manifest.spec as Obj).initContainers, [{ name: 'a', args: ['1'] }]);
});

test('overriders apply in list order', () => {
  const got = after(workload('Deployment', [{ name: 'a', command: ['run'] }]), 'command', [
    { containerName: 'a', operator: 'add', value: ['--x', '--y'] },
    { containerName: 'a', operator: 'remove', value: ['--x'] },
  ]);
  assert.equal(got, [{ name: 'a', command: ['run', '--y'] }]);
});

test('kinds other than Pod and the five workloads are left alone', () => {
  const cronJob = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'c' },
    spec: { containers: [{ name: 'a' }] },
  };
  const step = applyCommandArgsOverriders(cronJob, 'command', [{ containerName: 'a', operator: 'add', value: ['x'] }]);
  assert.ok(step.ok && step.manifest === cronJob);
});

test('a command that is not a list fails and names the overrider', () => {
  const step = applyCommandArgsOverriders(workload('Deployment', [{ name: 'a', command: 'sh' }]), 'command', [
    { containerName: 'a', operator: 'add', value: ['x'] },
  ]);
  assert.equal(step.ok ? null : step.overrider, 'commandOverrider[0]');
});

test.run();
