import {
  convertFieldSelector as convert,
  matchesFieldSet,
  selectableFieldsOf as fieldsOf,
  type SelectableResource,
} from '../../fieldSelectors/selectableFields.ts';
import type { FieldRequirement } from '../../fieldSelectors/parseFieldSelector.ts';
import type { KubeObject, ResourceType } from '../types.ts';
import { asBadRequest } from './parseFieldSelector.ts';

export { matchesFieldSet };

function selectable(rt: ResourceType): SelectableResource {
  return {
    group: rt.group,
    plural: rt.plural,
    namespaced: rt.namespaced,
    ...(rt.crd ? { customResource: { selectableFields: rt.selectableFields ?? [] } } : {}),
  };
}

/** The kind's field label conversion of the requirements; a label it does not take is the API server's 400. */
export function convertFieldSelector(rt: ResourceType, requirements: readonly FieldRequirement[]): FieldRequirement[] {
  return asBadRequest(() => convert(selectable(rt), requirements));
}

/** The fields an object of `rt` is selected by (its strategy's ToSelectableFields). */
export function selectableFieldsOf(rt: ResourceType): (object: KubeObject) => Record<string, string> {
  return fieldsOf(selectable(rt));
}
