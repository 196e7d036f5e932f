// What Karmada's validating webhook refuses in a ResourceInterpreterWebhookConfiguration
// (pkg/webhook/configuration/validating.go and helper.go, with k8s.io/apiserver's ValidateWebhookURL and
// ValidateWebhookService): Flotilla never calls these webhooks, but a configuration Karmada would refuse is refused
// here too, so that the repository stays one Karmada can take.
import { DNS1123_SUBDOMAIN } from '../../labels/labelFormats.ts';
import { isDNS1123Label } from './kubernetesNames.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

const OPERATIONS = [
  '*',
  'AggregateStatus',
  'InterpretComponent',
  'InterpretDependency',
  'InterpretHealth',
  'InterpretReplica',
  'InterpretStatus',
  'Retain',
  'ReviseReplica',
];

/** The interpreter context versions Karmada sends: one of them must be listed. */
const CONTEXT_VERSIONS = ['v1alpha1'];

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function validateInterpreterWebhooks(value: Obj): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const add = (path: (string | number)[], message: string, fix: string, code: SchemaIssue['code'] = 'INVALID_VALUE') =>
    issues.push({ path, code, message, fix });
  if (!Array.isArray(value.webhooks)) {
    add(
      [],
      'ResourceInterpreterWebhookConfiguration needs webhooks, a list',
      'list the webhooks: webhooks: [{name: workloads.example.com, clientConfig: {...}, rules: [...], interpreterContextVersions: [v1alpha1]}]',
      'MISSING_FIELD',
    );
    return issues;
  }
  const seen = new Set<string>();
  value.webhooks.forEach((hook, i) => {
    const at = ['webhooks', i];
    const where = `webhooks[${i}]`;
    if (!isObj(hook)) {
      add(at, `${where} is not a mapping`, 'write each webhook as a mapping with name, clientConfig and rules');
      return;
    }
    const name = typeof hook.name === 'string' ? hook.name : '';
    const nameProblem = fullyQualifiedNameProblem(name);
    if (nameProblem)
      add(
        [...at, 'name'],
        `${where}.name ${name ? JSON.stringify(name) : 'is empty'}${name ? `: ${nameProblem}` : ''}`,
        'name it as a domain of at least two parts, lower case, e.g. workloads.example.com',
        name ? 'INVALID_VALUE' : 'MISSING_FIELD',
      );
    strings(hook.rules).forEach((rule, r) => validateRule(rule, [...at, 'rules', r], `${where}.rules[${r}]`, add));
    const timeout = hook.timeoutSeconds;
    if (timeout !== undefined && timeout !== null && (typeof timeout !== 'number' || timeout < 1 || timeout > 30))
      add(
        [...at, 'timeoutSeconds'],
        `${where}.timeoutSeconds is ${JSON.stringify(timeout)}: Karmada takes 1 to 30 seconds`,
        'set it between 1 and 30, or remove it (the default is 10)',
      );
    validateClientConfig(hook.clientConfig, [...at, 'clientConfig'], `${where}.clientConfig`, add);
    validateContextVersions(hook.interpreterContextVersions, [...at, 'interpreterContextVersions'], where, add);
    if (seen.has(name))
      add(
        [...at, 'name'],
        `${where}.name ${JSON.stringify(name)} is also an earlier webhook's: names must be unique in a configuration`,
        'rename one of them',
      );
    seen.add(name);
  });
  return issues;
}

type Add = (path: (string | number)[], message: string, fix: string, code?: SchemaIssue['code']) => void;

function validateRule(rule: unknown, at: (string | number)[], where: string, add: Add): void {
  if (!isObj(rule)) {
    add(
      at,
      `${where} is not a mapping`,
      'write it as {operations: [...], apiGroups: [...], apiVersions: [...], kinds: [...]}',
    );
    return;
  }
  const operations = strings(rule.operations);
  if (operations.length === 0)
    add(
      [...at, 'operations'],
      `${where}.operations is empty`,
      `list the operations the webhook answers (${OPERATIONS.join(', ')})`,
      'MISSING_FIELD',
    );
  if (operations.length > 1 && operations.includes('*'))
    add(
      [...at, 'operations'],
      `${where}.operations has '*' with other operations`,
      "write '*' alone, or list the operations without it",
    );
  operations.forEach((op, i) => {
    if (typeof op === 'string' && OPERATIONS.includes(op)) return;
    add(
      [...at, 'operations', i],
      `${where}.operations[${i}] is ${JSON.stringify(op)}, not an operation Karmada supports (${OPERATIONS.map((o) => JSON.stringify(o)).join(', ')})`,
      'use one of those operations',
    );
  });
  for (const [key, what] of [
    ['apiGroups', 'API groups ("" for the core group)'],
    ['apiVersions', 'API versions'],
    ['kinds', 'kinds'],
  ] as const) {
    const list = strings(rule[key]);
    if (list.length === 0)
      add([...at, key], `${where}.${key} is empty`, `list the ${what} the webhook interprets, or '*'`, 'MISSING_FIELD');
    if (list.length > 1 && list.includes('*'))
      add([...at, key], `${where}.${key} has '*' with other ${what}`, "write '*' alone, or list them without it");
    // A group may be "" (the core group); a version or a kind may not.
    if (key !== 'apiGroups')
      list.forEach((item, i) => {
        if (item === '' || item === null)
          add(
            [...at, key, i],
            `${where}.${key}[${i}] is empty`,
            `name one of the ${what}, or remove the item`,
            'MISSING_FIELD',
          );
      });
  }
}

function validateClientConfig(config: unknown, at: (string | number)[], where: string, add: Add): void {
  const cc = isObj(config) ? config : {};
  const url = cc.url;
  const service = cc.service;
  const hasUrl = url !== undefined && url !== null;
  const hasService = service !== undefined && service !== null;
  if (hasUrl === hasService) {
    add(
      at,
      `${where} needs exactly one of url or service${hasUrl ? ', not both' : ''}`,
      'point it at the webhook by url (https://host[/path]) or by service (namespace, name, port, path)',
      'MISSING_FIELD',
    );
    return;
  }
  if (hasUrl) {
    for (const problem of webhookUrlProblems(typeof url === 'string' ? url : ''))
      add(
        [...at, 'url'],
        `${where}.url ${JSON.stringify(url)}: ${problem}`,
        'write it as https://host[/path], with no user, query or fragment',
      );
    return;
  }
  const svc = isObj(service) ? service : {};
  for (const key of ['name', 'namespace'] as const)
    if (typeof svc[key] !== 'string' || svc[key] === '')
      add([...at, 'service', key], `${where}.service.${key} is required`, `name the Service's ${key}`, 'MISSING_FIELD');
  // Karmada's webhook defaults a missing port to 443 before checking it.
  const port = svc.port ?? 443;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    add(
      [...at, 'service', 'port'],
      `${where}.service.port ${JSON.stringify(port)} is not a port (1 to 65535)`,
      'set the port between 1 and 65535, or remove it for 443',
    );
  if (typeof svc.path === 'string')
    for (const problem of servicePathProblems(svc.path))
      add(
        [...at, 'service', 'path'],
        `${where}.service.path ${JSON.stringify(svc.path)}: ${problem}`,
        'write a path such as /interpreter-workload: "/", then lower-case DNS names separated by "/"',
      );
}

function validateContextVersions(versions: unknown, at: (string | number)[], where: string, add: Add): void {
  const list = strings(versions);
  if (list.length === 0) {
    add(at, `${where}.interpreterContextVersions is empty`, `list ${CONTEXT_VERSIONS.join(', ')}`, 'MISSING_FIELD');
    return;
  }
  const seen = new Set<unknown>();
  list.forEach((v, i) => {
    if (seen.has(v)) {
      add(
        [...at, i],
        `${where}.interpreterContextVersions[${i}] ${JSON.stringify(v)} is listed twice`,
        'remove the repeat',
      );
      return;
    }
    seen.add(v);
    if (typeof v !== 'string' || v.length > 63 || !DNS1035_LABEL.test(v))
      add(
        [...at, i],
        `${where}.interpreterContextVersions[${i}] ${JSON.stringify(v)} is not a version name (lower case letters, digits and "-", starting with a letter, at most 63)`,
        `write ${CONTEXT_VERSIONS.join(', ')}`,
      );
  });
  if (!list.some((v) => typeof v === 'string' && CONTEXT_VERSIONS.includes(v)))
    add(
      at,
      `${where}.interpreterContextVersions must include ${CONTEXT_VERSIONS.join(', ')}: the only ResourceInterpreterContext version Karmada sends`,
      `add ${CONTEXT_VERSIONS.join(', ')}`,
    );
}

/** IsFullyQualifiedDomainName: a DNS subdomain (a trailing dot aside) of two or more labels. */
function fullyQualifiedNameProblem(name: string): string | undefined {
  if (name === '') return 'is required';
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (bare.length > 253 || !DNS1123_SUBDOMAIN.test(bare))
    return 'must be a lower-case DNS subdomain: letters, digits, "-" and ".", starting and ending with a letter or digit, at most 253 characters';
  const labels = bare.split('.');
  if (labels.length < 2) return 'should be a domain with at least two segments separated by dots';
  const long = labels.find((label) => !isDNS1123Label(label));
  return long === undefined ? undefined : `its part ${JSON.stringify(long)} is longer than 63 characters`;
}

/** ValidateWebhookURL with https forced, on what Go's url.Parse makes of the URL. */
function webhookUrlProblems(url: string): string[] {
  const parts = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(url);
  if (!parts) return ['is not a URL'];
  const [, scheme, authority, , query, fragment] = parts;
  const out: string[] = [];
  if ((scheme ?? '').toLowerCase() !== 'https') out.push("'https' is the only allowed URL scheme");
  const at = authority?.lastIndexOf('@') ?? -1;
  const host = authority === undefined ? '' : authority.slice(at + 1);
  if (host === '') out.push('host must be specified');
  if (at >= 0) out.push('user information is not permitted in the URL');
  if (fragment) out.push('fragments are not permitted in the URL');
  if (query) out.push('query parameters are not permitted in the URL');
  return out;
}

/** ValidateWebhookService's path rule: "/" and then DNS subdomains, no empty segment. */
function servicePathProblems(path: string): string[] {
  if (path === '/' || path === '') return [];
  if (path === '//') return ['segment[0] may not be empty'];
  const out: string[] = [];
  if (!path.startsWith('/')) out.push("must start with a '/'");
  let rest = path.slice(1);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  rest.split('/').forEach((step, i) => {
    if (step === '') out.push(`segment[${i}] may not be empty`);
    else if (step.length > 253 || !DNS1123_SUBDOMAIN.test(step))
      out.push(`segment[${i}] ${JSON.stringify(step)} is not a lower-case DNS subdomain`);
  });
  return out;
}
