// `flotilla get` of cluster-scoped kinds prints what kube-apiserver's Tables give kubectl: CREATED AT for the kinds
// its default Table convertor serves, and the NAME printStorageClass writes for the default class.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getCommand } from '../../src/commands/getCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { RENDERED, runReadCommand } from './helpers/fleetRepo.ts';

const TEMPLATES = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
rules: [{apiGroups: [''], resources: [pods], verbs: [get]}]
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
  annotations: {storageclass.kubernetes.io/is-default-class: 'true'}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
`;
const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: platform}
spec:
  resourceSelectors:
    - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole}
    - {apiVersion: storage.k8s.io/v1, kind: StorageClass}
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
const NOW = new Date((1_700_000_100 + 3600) * 1000);

let repo: TempRepo;
test.before(async () => {
  ({ repo } = makeNginxRepo());
  writeWorkTree(repo, { 'templates/platform.yaml': TEMPLATES, 'policies/platform.yaml': POLICY });
  commitAll(repo, 'Add the platform objects');
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
});
test.after(() => repo.cleanup());

const get = (...args: string[]) => runReadCommand(getCommand, repo.path, NOW, args);

test('a ClusterRole lists with CREATED AT, the time of the commit that added it, as the default Table convertor writes it', async () => {
  const got = await get('clusterroles');
  assert.is(got.out, 'NAME     CREATED AT\nreader   2023-11-14T22:15:00Z\n');
  assert.match(
    (await get('clusterrole', '-o', 'wide')).out,
    /^NAME +CREATED AT +CLUSTERS\nreader +2023-11-14T22:15:00Z +member1\n$/,
  );
});

test('the default StorageClass is marked in NAME and its binding mode and defaults are shown', async () => {
  assert.is(
    (await get('sc')).out,
    'NAME            PROVISIONER       RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE\n' +
      'gp3 (default)   ebs.csi.aws.com   Delete          WaitForFirstConsumer   false                  60m\n',
  );
});

test.run();
