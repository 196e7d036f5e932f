// A config repo holding Karmada's nginx sample and three member clusters, built with native git so the
// plan, verify and history tests read what a real `git push` would leave behind.
import fs from 'node:fs';
import path from 'node:path';
import { commitAll, makeTempRepo, writeWorkTree, type TempRepo } from '../../commits/helpers/tempRepo.ts';

const SAMPLES = path.resolve(import.meta.dirname, '../../../../shared/karmada-samples/nginx');

export const DEPLOYMENT = fs.readFileSync(path.join(SAMPLES, 'deployment.yaml'), 'utf8');
export const POLICY = fs.readFileSync(path.join(SAMPLES, 'propagationpolicy.yaml'), 'utf8');

export function clusterYaml(name: string): string {
  return `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\nspec:\n  syncMode: Push\n`;
}

/** The sample with weights 2:1 and 3 replicas: the feature branch of the tests. */
export function scaledSample(): { deployment: string; policy: string } {
  const policy = POLICY.replace(/weight: 1\n(\s+- targetCluster:\n\s+clusterNames:\n\s+- member2)/, 'weight: 2\n$1');
  if (policy === POLICY) throw new Error('the nginx sample changed shape: update scaledSample()');
  return { deployment: DEPLOYMENT.replace('replicas: 2', 'replicas: 3'), policy };
}

/** Identity for one author, with fixed dates so shas are stable. */
export function authorEnv(name: string, email: string, time: number): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_AUTHOR_DATE: `${time} +0000`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
    GIT_COMMITTER_DATE: `${time} +0000`,
  };
}

export function commitAs(repo: TempRepo, message: string, env: Record<string, string>): string {
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--allow-empty', '-m', message], { env });
  return repo.git(['rev-parse', 'HEAD']).trim();
}

/** main: the sample plus member1..3, one commit. */
export function makeNginxRepo(): { repo: TempRepo; base: string } {
  const repo = makeTempRepo();
  writeWorkTree(repo, {
    'templates/deployment.yaml': DEPLOYMENT,
    'policies/propagationpolicy.yaml': POLICY,
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
    'clusters/member3.yaml': clusterYaml('member3'),
  });
  const base = commitAll(repo, 'Add nginx and three members');
  return { repo, base };
}

export { commitAll, writeWorkTree, type TempRepo };
