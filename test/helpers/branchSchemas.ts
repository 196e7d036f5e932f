import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });

/** Whether `value` follows docs/schemas/<name>.schema.json, the published format of the branch file; else why not. */
export function followsSchema(name: string, value: unknown): string | true {
  const file = path.resolve(import.meta.dirname, '../../docs/schemas', `${name}.schema.json`);
  const validate = ajv.compile(JSON.parse(readFileSync(file, 'utf8')));
  return validate(value) || ajv.errorsText(validate.errors);
}
