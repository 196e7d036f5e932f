// Kubernetes' label key and value formats (k8s.io/apimachinery/pkg/util/validation: IsQualifiedName,
// IsValidLabelValue). Each returns the list of problems, empty when the value is valid.

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** apimachinery's DNS-1123 subdomain pattern (IsDNS1123Subdomain checks the 253-character limit apart). */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A label key or other qualified name: `[prefix/]name`, name at most 63 characters. */
export function qualifiedNameProblems(value: string): string[] {
  const parts = value.split('/');
  let name = value;
  const problems: string[] = [];
  if (parts.length > 2) return ['must be a name with at most one "/" (an optional DNS prefix, then the name)'];
  if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) problems.push('the prefix before "/" must not be empty');
    else if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))
      problems.push('the prefix before "/" must be a lowercase DNS subdomain such as example.com');
  }
  if (name.length === 0) problems.push('the name part must not be empty');
  else if (name.length > 63) problems.push('the name part must be at most 63 characters');
  else if (!NAME_PART.test(name))
    problems.push(
      'the name part must start and end with a letter or digit and contain only letters, digits, "-", "_" and "."',
    );
  return problems;
}

/** A label value: empty, or at most 63 characters of letters, digits, "-", "_", "." starting and ending alphanumeric. */
export function labelValueProblems(value: string): string[] {
  if (value === '') return [];
  if (value.length > 63) return ['must be at most 63 characters'];
  if (!NAME_PART.test(value))
    return ['must start and end with a letter or digit and contain only letters, digits, "-", "_" and "."'];
  return [];
}
