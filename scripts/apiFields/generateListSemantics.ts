// npm run generate:list-semantics -- --api DIR --apimachinery DIR --apiextensions DIR:
// rewrites src/api/listSemantics.generated.ts from checkouts of k8s.io/api, k8s.io/apimachinery and
// k8s.io/apiextensions-apiserver (the release client-node was generated from), after generate:api-fields.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TYPE_FIELDS } from '../../src/api/apiFields.generated.ts';
import { type GoPackage, listSemanticsModule } from './listSemanticsModule.ts';

const { values } = parseArgs({
  options: { api: { type: 'string' }, apimachinery: { type: 'string' }, apiextensions: { type: 'string' } },
});
if (!values.api || !values.apimachinery || !values.apiextensions) {
  console.error('usage: generateListSemantics.ts --api DIR --apimachinery DIR --apiextensions DIR');
  process.exit(2);
}
const VERSION_DIR = /^v\d+(?:alpha\d+|beta\d+)?$/;
const goFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !f.includes('generated'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'));
const packages: GoPackage[] = [];
for (const group of readdirSync(values.api, { withFileTypes: true })) {
  if (!group.isDirectory() || group.name.startsWith('.')) continue;
  for (const version of readdirSync(path.join(values.api, group.name)))
    if (VERSION_DIR.test(version))
      packages.push({ dir: `${group.name}/${version}`, files: goFiles(path.join(values.api, group.name, version)) });
}
packages.push({ dir: 'meta/v1', files: goFiles(path.join(values.apimachinery, 'pkg/apis/meta/v1')) });
packages.push({
  dir: 'apiextensions/v1',
  files: goFiles(path.join(values.apiextensions, 'pkg/apis/apiextensions/v1')),
});
const revision = (dir: string) => {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return path.basename(dir);
  }
};
const source = `k8s.io/api ${revision(values.api)}, k8s.io/apimachinery ${revision(values.apimachinery)}, k8s.io/apiextensions-apiserver ${revision(values.apiextensions)}`;
const root = path.resolve(import.meta.dirname, '../..');
const out = path.join(root, 'src/api/listSemantics.generated.ts');
writeFileSync(out, listSemanticsModule(packages, TYPE_FIELDS, source));
console.log(`wrote ${path.relative(root, out)} from ${source}`);
