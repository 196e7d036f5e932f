/**
 * formatHosts (kube-apiserver's printIngress): the hosts of the first three rules that name one, then how many rules
 * more; `*` when none names a host.
 */
export function ingressHosts(rules: unknown): string {
  const list = Array.isArray(rules) ? (rules as { host?: unknown }[]) : [];
  const shown: string[] = [];
  let more = false;
  for (const rule of list) {
    if (shown.length === 3) more = true;
    if (!more && typeof rule?.host === 'string' && rule.host) shown.push(rule.host);
  }
  if (shown.length === 0) return '*';
  return more ? `${shown.join(',')} + ${list.length - 3} more...` : shown.join(',');
}
