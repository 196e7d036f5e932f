// npm run generate:api-fields: rewrites src/api/apiFields.generated.ts from the installed @kubernetes/client-node
// (after upgrading it); test/api checks the committed table against the installed client.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { apiFieldsModule, installedClientNode } from './apiFieldsModule.ts';

const root = path.resolve(import.meta.dirname, '../..');
const { models, apiFiles, source } = await installedClientNode(root);
const out = path.join(root, 'src/api/apiFields.generated.ts');
writeFileSync(out, apiFieldsModule(models, apiFiles, source));
console.log(`wrote ${path.relative(root, out)} from ${source}`);
