import { stringify } from 'yaml';
import { GO_YAML_DOCUMENT_OPTIONS } from '../yaml/goYamlSchema.ts';
import { planJson } from './renderPlanJson.ts';
import type { Plan } from './types.ts';

/** `-o yaml`: the JSON contract's object as YAML, as kubectl's -o yaml is its -o json. */
export function renderPlanYaml(plan: Plan): string {
  return stringify(planJson(plan), GO_YAML_DOCUMENT_OPTIONS);
}
