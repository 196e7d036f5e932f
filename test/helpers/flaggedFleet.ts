// A fleet whose ConfigMaps go to the clusters labelled flag: "yes": member1 is one, until its label is unquoted
// (`flag: yes`, a boolean kubectl's decoder refuses), which breaks its Cluster file. For the tests of last good
// definitions on every render path and view.
import { clusterYaml, configMap, makeConfigRepoWith, type ConfigRepo } from './fleet.ts';

/** member1 labelled flag: `flag` as written (`'"yes"'`, a string; `'yes'`, a boolean), then `extra`. */
export const flaggedMember1 = (flag: string, extra = '') => clusterYaml('member1', { labels: { flag } }) + extra;

/** Every ConfigMap of default to the clusters labelled flag: "yes". */
export const FLAGGED_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: flagged, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement:
    clusterAffinity:
      labelSelector: {matchLabels: {flag: "yes"}}
`;

/** member1 (flagged) and member2 (not), the flagged policy and ConfigMap app: app goes to member1. */
export function flaggedFleetRepo(repos: ConfigRepo[]): ConfigRepo {
  return makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': flaggedMember1('"yes"'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/configmaps.yaml': FLAGGED_POLICY,
      'templates/app.yaml': configMap('app'),
    },
    'two members, one ConfigMap on both',
  );
}
