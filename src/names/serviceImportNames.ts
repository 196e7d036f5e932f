// Karmada's generated names of the multi-cluster services objects (pkg/util/names/names.go), unchanged so tooling
// written for Karmada finds them.

/** `derived-<name>`: the Service an importing cluster gets for a ServiceImport (GenerateDerivedServiceName). */
export function derivedServiceName(serviceImportName: string): string {
  return `derived-${serviceImportName}`;
}

/** `imported-<cluster>-<slice>`: an exporting cluster's EndpointSlice as an importing cluster gets it (GenerateEndpointSliceName). */
export function importedEndpointSliceName(sliceName: string, cluster: string): string {
  return `imported-${cluster}-${sliceName}`;
}
