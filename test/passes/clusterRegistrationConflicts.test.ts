import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { readClusterRegistrations } from '../../src/passes/readClusterRegistrations.ts';
import { clusterYaml, makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';

// Which API server a cluster's name connects to comes from Git. A second file registering an existing name differently
// (DUPLICATE_OBJECT for the render) must not move that cluster's deliveries, Secrets included, to another server.

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const withKubeconfig = (name: string, context: string) =>
  clusterYaml(name).replace(
    '  syncMode: Push\n',
    `  syncMode: Push\n  kubeconfigRef: {path: members.config, context: ${context}}\n`,
  );

async function registrations(r: ConfigRepo) {
  const repo = await openRepo(r.dir);
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  return (await readClusterRegistrations(repo, OUT)).map((c) => `${c.name}=${c.kubeconfigRef?.context ?? ''}`);
}

test("a second file registering a cluster's name with another connection leaves that cluster unconnected", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': withKubeconfig('member1', 'member1'),
      'clusters/member2.yaml': withKubeconfig('member2', 'member2'),
    },
    'two members',
  );
  assert.equal(await registrations(r), ['member1=member1', 'member2=member2']);
  // Sorted first by path, the hijacking file would have won.
  r.commit({ 'clusters/a-hijack.yaml': withKubeconfig('member1', 'member2') }, 'member1 again, pointing at member2');
  assert.equal(await registrations(r), ['member2=member2']);
  r.commit({ 'clusters/a-hijack.yaml': withKubeconfig('member1', 'member1') }, 'the same registration twice');
  assert.equal(await registrations(r), ['member1=member1', 'member2=member2']);
  r.commit({ 'clusters/a-hijack.yaml': null }, 'gone');
  assert.equal(await registrations(r), ['member1=member1', 'member2=member2']);
});

test.run();
