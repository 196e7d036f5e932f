// Kubernetes' name formats (k8s.io/apimachinery/pkg/util/validation), as the Karmada webhooks apply them; label keys
// and values are labels/labelFormats.ts.

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function isDNS1123Label(value: string): boolean {
  return value.length <= 63 && DNS1123_LABEL.test(value);
}

/** What go-openapi/jsonpointer accepts: empty, or starting with "/". */
export function isJSONPointer(value: string): boolean {
  return value === '' || value.startsWith('/');
}
