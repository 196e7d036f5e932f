// `flotilla get` of a custom kind whose CustomResourceDefinition is in the repo prints the columns
// apiextensions-apiserver's table convertor gives kubectl: the version's additionalPrinterColumns.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getCommand } from '../../src/commands/getCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { RENDERED, runReadCommand } from './helpers/fleetRepo.ts';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget}
  versions:
    - name: v1
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
      additionalPrinterColumns:
        - {name: Size, type: integer, jsonPath: .spec.size}
        - {name: Color, type: string, jsonPath: .spec.color, priority: 1}
        - {name: Phase, type: string, jsonPath: .status.phase}
        - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
        - {name: Labels, type: string, jsonPath: .spec.labels}
`;
const WIDGETS = `apiVersion: example.com/v1
kind: Widget
metadata: {name: small}
spec: {size: 3, color: red, labels: {a: b}}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: odd}
spec: {size: "three"}
`;
const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: widgets}
spec:
  resourceSelectors: [{apiVersion: example.com/v1, kind: Widget}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
const NOW = new Date((1_700_000_100 + 3600) * 1000);

let repo: TempRepo;
test.before(async () => {
  ({ repo } = makeNginxRepo());
  writeWorkTree(repo, {
    'crds/widgets.yaml': CRD,
    'templates/widgets.yaml': WIDGETS,
    'policies/widgets.yaml': POLICY,
  });
  commitAll(repo, 'Add widgets');
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
});
test.after(() => repo.cleanup());

const get = (...args: string[]) => runReadCommand(getCommand, repo.path, NOW, args);

test("a custom kind lists with its CRD's printer columns, a missing or mistyped value as an empty cell, priority 1 only wide", async () => {
  assert.is(
    (await get('widgets')).out,
    'NAME    SIZE   PHASE   AGE   LABELS\n' +
      'odd                    60m   \n' +
      'small   3              60m   {"a":"b"}\n',
  );
  assert.match(
    (await get('widgets', '-o', 'wide')).out.split('\n')[0]!,
    /^NAME +SIZE +COLOR +PHASE +AGE +LABELS +CLUSTERS$/,
  );
});

test.run();
