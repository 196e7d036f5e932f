/**
 * A `parameters` value as Argo CD hands it to `helm template --set`/`--set-string` (util/helm/cmd.go
 * cleanSetParameters): every comma not already escaped gets a backslash, so `a,b,c` stays one string instead of helm
 * splitting it; a value written as a helm list, `{a,b}`, is passed as it is.
 */
export function helmSetValue(value: string): string {
  if (value.startsWith('{') && value.endsWith('}')) return value;
  let out = '';
  let previous = '';
  for (const ch of value) {
    out += ch === ',' && previous !== '\\' ? '\\,' : ch;
    previous = ch;
  }
  return out;
}
