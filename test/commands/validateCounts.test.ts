// validate's summary counts what the policies can place as templates, and Karmada's control-plane kinds
// (FederatedHPA, CronFederatedHPA, MultiClusterService: API groups the detector never propagates) apart by kind.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateCommand } from '../../src/commands/validateCommand.ts';
import { makeConfigRepo, sample } from '../helpers/fleet.ts';

test('FederatedHPAs, CronFederatedHPAs and MultiClusterServices are counted as control-plane objects, not templates', async () => {
  const r = makeConfigRepo();
  try {
    r.commit({
      'templates/nginx.yaml': sample('nginx/deployment.yaml'),
      'templates/nginx-fhpa.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: nginx, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: nginx}
  maxReplicas: 4
`,
      'templates/nginx-cron.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: nginx-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: nginx}
  rules: [{name: night, schedule: "0 22 * * *", targetReplicas: 1}]
`,
      'templates/nginx-mcs.yaml': `apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: nginx, namespace: default}
spec: {types: [CrossCluster]}
`,
    });
    let out = '';
    const code = await validateCommand({
      repo: r.dir,
      rev: 'HEAD',
      sourceRef: 'refs/heads/main',
      outputRef: 'refs/heads/flotilla/rendered',
      clusterStatusFile: undefined,
      output: 'text',
      out: (s) => {
        out += s;
      },
      err: () => {},
    });
    assert.is(code, 0, out);
    assert.match(
      out,
      ': 1 templates, 3 control-plane objects (1 CronFederatedHPA, 1 FederatedHPA, 1 MultiClusterService), 0 propagation policies',
    );
  } finally {
    r.cleanup();
  }
});

test.run();
