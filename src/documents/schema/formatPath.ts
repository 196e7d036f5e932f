// Renders a path as users write it: spec.placement.clusterAffinities[0].affinityName, with keys that
// are not plain identifiers quoted: metadata.labels["app.kubernetes.io/name"].

export type SchemaPath = readonly (string | number)[];

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

export function formatPath(path: SchemaPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (PLAIN_KEY.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out === '' ? '(document root)' : out;
}
