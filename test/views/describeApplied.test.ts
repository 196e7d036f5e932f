import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeTemplate } from '../../src/views/describeTemplate.ts';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' };

// workstatus.go assembleWorkStatus: a Work the execution controller has not synced has no Applied condition, which is
// neither applied nor failed; a Work whose apply failed has Applied False with its message.
test('describe: Applied is Unknown for a target that has reported nothing yet, false with the reason for a failed apply', () => {
  const text = describeTemplate({
    ref,
    index: { file: 'templates/web.yaml', clusters: ['member1', 'member2', 'member3'] },
    status: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      conditions: [],
      aggregatedStatus: [
        { clusterName: 'member1', applied: true, health: 'Healthy' },
        { clusterName: 'member2', applied: false, health: 'Unknown' },
        {
          clusterName: 'member3',
          applied: false,
          health: 'Unknown',
          message: 'Deployment.apps "web" is invalid: x',
        },
      ],
    },
    history: [],
  });
  assert.match(text, /^\s+member1\s+-\s+true\s+Healthy\s*$/m);
  assert.match(text, /^\s+member2\s+-\s+Unknown\s+Unknown\s*$/m);
  assert.match(text, /^\s+member3\s+-\s+false\s+Unknown\s+Deployment\.apps "web" is invalid: x$/m);
});

test.run();
