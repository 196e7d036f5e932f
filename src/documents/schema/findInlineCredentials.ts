// Finds secret material written inline anywhere in a Cluster document: credential-named keys (token,
// caData, client-key-data, password, Secret data, ...) and credential-shaped strings (PEM blocks,
// base64-encoded PEM, JWT bearer tokens, kubeconfig credential lines, passwords in URLs). Git is
// not a secret store: the fix is always to reference a kubeconfig kept outside the repo.
// Messages never repeat the secret itself.
import type { SchemaIssue } from './validateAgainstSchema.ts';
import { isPlainObject } from './validateAgainstSchema.ts';
import { formatPath } from './formatPath.ts';

const FIX = 'store it outside Git and reference it with spec.kubeconfigRef {path, context}';

/** Key names (lowercased, punctuation removed) that only ever hold secret material. */
const SECRET_KEYS: ReadonlyMap<string, string> = new Map([
  ['token', 'a bearer token'],
  ['bearertoken', 'a bearer token'],
  ['accesstoken', 'an access token'],
  ['refreshtoken', 'a refresh token'],
  ['idtoken', 'an ID token'],
  ['cadata', 'CA certificate data'],
  ['cabundle', 'CA certificate data'],
  ['certificateauthoritydata', 'CA certificate data'],
  ['clientkeydata', 'a client private key'],
  ['clientcertificatedata', 'a client certificate'],
  ['certdata', 'certificate data'],
  ['keydata', 'private key data'],
  ['privatekey', 'a private key'],
  ['password', 'a password'],
  ['passwd', 'a password'],
  ['clientsecret', 'a client secret'],
  ['secretkey', 'a secret key'],
  ['secretaccesskey', 'a secret access key'],
  ['apikey', 'an API key'],
  ['stringdata', 'Secret data'],
]);

interface Finding {
  what: string;
  test: (text: string) => boolean;
}

const CONTENT_PATTERNS: readonly Finding[] = [
  { what: 'a PEM block (certificate or private key)', test: (t) => t.includes('-----BEGIN') },
  // "-----BEGIN" base64-encoded, as in certificate-authority-data.
  { what: 'base64-encoded PEM data', test: (t) => /LS0tLS1CRUdJT/.test(t) },
  {
    what: 'a bearer token (JWT)',
    test: (t) => /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/.test(t),
  },
  {
    what: 'kubeconfig credentials',
    test: (t) =>
      /(^|\n)\s*-?\s*(token|client-key-data|client-certificate-data|certificate-authority-data|password)\s*:\s*\S/.test(
        t,
      ),
  },
  { what: 'a password inside a URL', test: (t) => /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i.test(t) },
];

export function findInlineCredentials(value: unknown): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  visit(value, [], issues);
  return issues;
}

function visit(value: unknown, path: (string | number)[], issues: SchemaIssue[]): void {
  if (typeof value === 'string') {
    const finding = CONTENT_PATTERNS.find((p) => p.test(value));
    if (finding) report(path, finding.what, issues);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => visit(item, [...path, i], issues));
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const childPath = [...path, key];
    const normalized = key.toLowerCase().replace(/[^a-z0-9]/g, '');
    const what =
      SECRET_KEYS.get(normalized) ?? (normalized === 'data' && isSecretData(child) ? 'Secret data' : undefined);
    if (what !== undefined && hasMaterial(child)) {
      report(childPath, what, issues);
      continue;
    }
    visit(child, childPath, issues);
  }
}

/** A mapping of strings, the shape of a Secret's data. */
function isSecretData(value: unknown): boolean {
  return isPlainObject(value) && Object.values(value).some((v) => typeof v === 'string' && v !== '');
}

function hasMaterial(value: unknown): boolean {
  if (value === null || value === undefined || value === '' || value === false) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}

function report(path: (string | number)[], what: string, issues: SchemaIssue[]): void {
  issues.push({
    path,
    code: 'INLINE_CREDENTIALS',
    message: `${formatPath(path)} holds ${what} inline; credentials must never be committed to Git`,
    fix: FIX,
  });
}
