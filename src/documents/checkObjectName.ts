/**
 * Names become path segments of the output branch, so anything that could leave its folder is refused
 * here, before any path is built: `..`, slashes, NUL, absolute paths, over-long names.
 * Kubernetes itself is stricter for most kinds; this is the part that keeps the output layout safe.
 */
export function checkObjectName(value: string, field: string, isNamespace = false): { field: string; message: string; fix: string }[] {
  const max = isNamespace ? 63 : 253;
  const problems: { field: string; message: string; fix: string }[] = [];
  const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (value.length > max) {
    problems.push({ field, message: `${field} is ${value.length} characters, over Kubernetes' limit of ${max}`, fix: `shorten ${field} to at most ${max} characters` });
  }
  if (/[/\\\0]/.test(value) || value === '.' || value === '..' || value.includes('..')) {
    problems.push({ field, message: `${field} ${shown} contains a path separator, NUL or '..'`, fix: `use a DNS-1123 name: lowercase letters, digits, '-' and '.'` });
  } else if (!(isNamespace ? /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/ : /^[a-z0-9A-Z:_.-]+$/).test(value)) {
    // Non-namespace names allow ':' and mixed case because RBAC objects use them (system:controller…).
    problems.push({ field, message: `${field} ${shown} is not a valid Kubernetes name`, fix: isNamespace
      ? 'use a DNS-1123 label: lowercase letters, digits and \'-\', starting and ending with a letter or digit'
      : "use lowercase letters, digits, '-' and '.' (RBAC names may also use ':')" });
  }
  return problems;
}
