import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assembleModel } from '../../src/documents/assembleModel.ts';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import { coldRenderInput } from '../helpers/inMemoryModel.ts';
import { DEFAULT_MAX_OUTPUT_BYTES, renderTemplates } from '../../src/works/renderTemplates.ts';

const CLUSTERS = Array.from({ length: 20 }, (_, i) => `member${String(i + 1).padStart(2, '0')}`);

async function modelOf(files: Record<string, string>) {
  return await assembleModel(
    Object.entries(files).map(([file, text]) => {
      const { documents, problems } = parseDocuments(file, new TextEncoder().encode(text));
      return classifyDocuments(file, documents, problems);
    }),
  );
}

const configMap = (name: string, size: number) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  blob: "${'x'.repeat(size)}"\n`;
const files: Record<string, string> = {
  'policies/all.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: all
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
  placement:
    replicaScheduling:
      replicaSchedulingType: Duplicated
`,
  'templates/big.yaml': configMap('big', 100_000),
  'templates/small.yaml': configMap('small', 10),
};
for (const c of CLUSTERS)
  files[`clusters/${c}.yaml`] =
    `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${c}\nspec:\n  syncMode: Push\n`;

async function render(maxOutputBytes?: number) {
  const model = await modelOf(files);
  return renderTemplates(
    coldRenderInput(model, {
      sourceCommit: 'a'.repeat(40),
      ...(maxOutputBytes !== undefined ? { maxOutputBytes } : {}),
    }),
  );
}

test('a template whose output would pass the render budget is held whole, with COMMIT_TOO_LARGE at its source; the rest renders', async () => {
  // big: 20 clusters x ~100 KB = ~2 MB; small: a few KB.
  const out = await render(1024 * 1024);
  const big = [...out.edits.keys()].filter((p) => p.includes('configmap_big'));
  const small = [...out.edits.keys()].filter((p) => p.includes('configmap_small'));
  assert.equal(big, [], 'no file of the held template is written');
  assert.is(small.length, CLUSTERS.length);
  const problem = out.problems.find((p) => p.code === 'COMMIT_TOO_LARGE');
  assert.ok(problem, JSON.stringify(out.problems));
  assert.equal([problem?.file, problem?.line, problem?.severity], ['templates/big.yaml', 1, 'error']);
  assert.match(problem?.message ?? '', /past the 1\.0 MiB a commit may render/);
  assert.match(
    out.explanations.get([...out.explanations.keys()].find((k) => k.includes('big'))!)?.held ?? '',
    /last output is kept/,
  );
  // With no output yet, an entry that places it nowhere and says it is held: a sync with a raised limit renders it.
  const entry = [...out.indexChanges].find(([k]) => k.includes('big'))?.[1];
  assert.equal(entry, { file: 'templates/big.yaml', clusters: [], held: true });
});

test('within the default budget the same commit renders whole', async () => {
  const out = await render();
  assert.ok(DEFAULT_MAX_OUTPUT_BYTES >= 64 * 1024 * 1024);
  assert.is([...out.edits.keys()].filter((p) => p.startsWith('clusters/')).length, 2 * CLUSTERS.length);
  assert.equal(
    out.problems.filter((p) => p.code === 'COMMIT_TOO_LARGE'),
    [],
  );
});

test.run();
