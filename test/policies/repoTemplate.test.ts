import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { makeConfigRepo } from '../helpers/fleet.ts';

const TEMPLATE = path.resolve(import.meta.dirname, '../../repo-template');

test('repo-template validates cleanly and renders the nginx walkthrough onto member1 and member2', async () => {
  const r = makeConfigRepo();
  try {
    for (const entry of readdirSync(TEMPLATE))
      cpSync(path.join(TEMPLATE, entry), path.join(r.dir, entry), { recursive: true });
    r.commit({}, 'from repo-template');
    const { model, output } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    assert.equal(model.problems, []);
    assert.equal([...model.clusters.keys()].sort(), ['member1', 'member2', 'member3']);
    const written = [...output.edits.keys()].filter((p) => p.startsWith('clusters/')).sort();
    assert.equal(written, [
      'clusters/member1/default/deployment.apps_nginx.yaml',
      'clusters/member2/default/deployment.apps_nginx.yaml',
    ]);
  } finally {
    r.cleanup();
  }
});

test('each of repo-template/examples, copied out of the ignored examples/ folder as its README says, validates cleanly and renders where it says', async () => {
  const expected: Record<string, string[]> = {
    'exported-service': [
      'clusters/member1/_cluster/customresourcedefinition.apiextensions.k8s.io_serviceexports.multicluster.x-k8s.io.yaml',
      'clusters/member1/_cluster/customresourcedefinition.apiextensions.k8s.io_serviceimports.multicluster.x-k8s.io.yaml',
      'clusters/member1/default/deployment.apps_serve.yaml',
      'clusters/member1/default/service_serve.yaml',
      'clusters/member1/default/serviceexport.multicluster.x-k8s.io_serve.yaml',
      'clusters/member2/_cluster/customresourcedefinition.apiextensions.k8s.io_serviceexports.multicluster.x-k8s.io.yaml',
      'clusters/member2/_cluster/customresourcedefinition.apiextensions.k8s.io_serviceimports.multicluster.x-k8s.io.yaml',
      'clusters/member2/default/serviceimport.multicluster.x-k8s.io_serve.yaml',
    ],
    // The chart's and the Kustomize folder's objects, duplicated.
    guestbook: ['member1', 'member2'].flatMap((c) => [
      `clusters/${c}/default/deployment.apps_helm-guestbook.yaml`,
      `clusters/${c}/default/deployment.apps_kustomize-guestbook-ui.yaml`,
      `clusters/${c}/default/service_helm-guestbook.yaml`,
      `clusters/${c}/default/service_kustomize-guestbook-ui.yaml`,
    ]),
    // The FederatedHPA is never propagated; web's 2 replicas are divided 1:1.
    'federated-hpa': [
      'clusters/member1/default/deployment.apps_web.yaml',
      'clusters/member2/default/deployment.apps_web.yaml',
    ],
  };
  for (const [example, files] of Object.entries(expected)) {
    const r = makeConfigRepo();
    try {
      for (const entry of readdirSync(TEMPLATE))
        cpSync(path.join(TEMPLATE, entry), path.join(r.dir, entry), { recursive: true });
      cpSync(path.join(TEMPLATE, 'examples', example), path.join(r.dir, example), { recursive: true });
      r.commit({}, `from repo-template, with ${example}`);
      const { model, output } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
      assert.equal(model.problems, [], example);
      const written = [...output.edits.keys()].filter((p) => p.startsWith('clusters/') && !p.includes('nginx')).sort();
      assert.equal(written, files, example);
    } finally {
      r.cleanup();
    }
  }
});

test.run();
