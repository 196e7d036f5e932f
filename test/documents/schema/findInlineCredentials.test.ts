import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findInlineCredentials } from '../../../src/documents/schema/findInlineCredentials.ts';
import { formatPath } from '../../../src/documents/schema/formatPath.ts';

const FIX = 'store it outside Git and reference it with spec.kubeconfigRef {path, context}';
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUJ\n-----END CERTIFICATE-----\n';
const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6IiJ9.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

function cluster(spec: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member1' },
    spec: { syncMode: 'Push', ...spec },
    ...extra,
  };
}

test('a Cluster that references its credentials has no findings', () => {
  const value = cluster({
    apiEndpoint: 'https://10.0.0.1:6443',
    kubeconfigRef: { path: '~/.kube/members', context: 'member1' },
    secretRef: { namespace: 'karmada-cluster', name: 'member1' },
  });
  assert.equal(findInlineCredentials(value), []);
});

test('credential-named keys are flagged wherever they appear, with the kubeconfigRef fix', () => {
  const value = cluster(
    {
      token: 'abc123',
      caData: 'Zm9v',
      'client-key-data': 'Zm9v',
      secretRef: { namespace: 'x', name: 'y', password: 'hunter2' },
    },
    { metadata: { name: 'member1', annotations: { 'certificate-authority-data': 'Zm9v' } } },
  );
  const issues = findInlineCredentials(value);
  assert.equal(issues.map((i) => formatPath(i.path)).sort(), [
    'metadata.annotations.certificate-authority-data',
    'spec.caData',
    'spec.client-key-data',
    'spec.secretRef.password',
    'spec.token',
  ]);
  assert.ok(issues.every((i) => i.code === 'INLINE_CREDENTIALS' && i.fix === FIX));
  assert.is(
    issues.find((i) => formatPath(i.path) === 'spec.token')!.message,
    'spec.token holds a bearer token inline; credentials must never be committed to Git',
  );
});

test('bearerToken, client-certificate-data and Secret data/stringData are flagged', () => {
  const value = cluster({
    auth: { bearerToken: 'x', 'client-certificate-data': 'y' },
    secret: { data: { token: 'dG9r' }, stringData: { password: 'p' } },
  });
  assert.equal(
    findInlineCredentials(value)
      .map((i) => formatPath(i.path))
      .sort(),
    ['spec.auth.bearerToken', 'spec.auth.client-certificate-data', 'spec.secret.data', 'spec.secret.stringData'],
  );
});

test('credential-shaped strings are flagged under any key, and the secret is never echoed', () => {
  const value = cluster({
    notes: PEM,
    caCert: Buffer.from(PEM).toString('base64'),
    extra: [JWT],
    kubeconfig: 'apiVersion: v1\nusers:\n- name: admin\n  user:\n    client-key-data: QUJD\n',
    proxyURL: 'http://admin:s3cret@proxy:3128',
  });
  const issues = findInlineCredentials(value);
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    ['spec.notes', 'spec.caCert', 'spec.extra[0]', 'spec.kubeconfig', 'spec.proxyURL'],
  );
  for (const issue of issues) {
    assert.not.match(issue.message, 's3cret');
    assert.not.match(issue.message, 'eyJ');
    assert.not.match(issue.message, 'BEGIN CERT');
  }
});

test('empty credential fields and look-alike names are not flagged', () => {
  const value = cluster(
    {
      token: '',
      caData: null,
      secretRef: { namespace: 'a', name: 'b' },
      impersonatorSecretRef: { namespace: 'a', name: 'b' },
      tokenRef: 'x',
    },
    { metadata: { name: 'member1', labels: { tokenizer: 'on' } } },
  );
  assert.equal(findInlineCredentials(value), []);
});

test('non-object input yields no findings', () => {
  assert.equal(findInlineCredentials(null), []);
  assert.equal(findInlineCredentials('plain text'), []);
  assert.equal(findInlineCredentials(PEM).length, 1);
});

test.run();
