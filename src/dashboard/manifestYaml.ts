import { stringify } from 'yaml';
import { GO_YAML_STRINGIFY_OPTIONS } from '../yaml/goYamlSchema.ts';

/** An object as `flotilla get -o yaml` prints it, so the page's YAML and diffs read like the CLI's. Pure. */
export function yaml(value: unknown): string {
  return stringify(value, { ...GO_YAML_STRINGIFY_OPTIONS, lineWidth: 0, aliasDuplicateObjects: false });
}
