// Widget (example.com/v1): a custom kind whose scope only its CRD gives, for tests of where custom objects go.

/** The Widget CRD, its scope as given; any spec is kept (no schema to prune it). */
export function widgetCrd(scope: 'Cluster' | 'Namespaced'): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: ${scope}
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;
}

/** A Widget with no namespace of its own and `spec.count: n`. */
export const widget = (name: string, n: number): string =>
  `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n  count: ${n}\n`;
