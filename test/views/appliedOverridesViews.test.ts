import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { getCommand } from '../../src/commands/getCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { RENDERED, runReadCommand } from './helpers/fleetRepo.ts';

let repo: TempRepo;
const NOW = new Date('2026-02-01T00:00:00Z');

test.before(async () => {
  ({ repo } = makeNginxRepo());
  writeWorkTree(repo, {
    'policies/overridepolicy.yaml': [
      'apiVersion: policy.karmada.io/v1alpha1',
      'kind: OverridePolicy',
      'metadata:',
      '  name: nginx-tag',
      '  namespace: default',
      'spec:',
      '  resourceSelectors:',
      '    - apiVersion: apps/v1',
      '      kind: Deployment',
      '      name: nginx',
      '  overrideRules:',
      '    - overriders:',
      '        imageOverrider:',
      '          - component: Tag',
      '            operator: replace',
      '            value: "1.27"',
      '',
    ].join('\n'),
  });
  commitAll(repo, 'Override the tag');
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
});
test.after(() => repo.cleanup());

const get = (...args: string[]) => runReadCommand(getCommand, repo.path, NOW, args);

test("get works shows the applied overrides on the Work's metadata, not in its manifest; the member's copy has none", async () => {
  const work = parse((await get('works', 'nginx', '--cluster', 'member1', '-o', 'yaml')).out);
  assert.is(
    work.metadata.annotations['policy.karmada.io/applied-overrides'],
    '[{"policyName":"nginx-tag","overriders":{"imageOverrider":[{"component":"Tag","operator":"replace","value":"1.27"}]}}]',
  );
  const manifest = work.spec.workload.manifests[0];
  assert.match(manifest.spec.template.spec.containers[0].image, /:1\.27$/);
  assert.not.ok('policy.karmada.io/applied-overrides' in manifest.metadata.annotations);
  const member = parse((await get('deploy', 'nginx', '--cluster', 'member1', '-o', 'yaml')).out);
  assert.not.ok('policy.karmada.io/applied-overrides' in member.metadata.annotations);
});

test.run();
