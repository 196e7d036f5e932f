export type LabelRequirement =
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | '!' };

/** A label selector kubectl's grammar does not read; the message is apimachinery's. */
export class LabelSelectorSyntaxError extends Error {}

/**
 * Parses a label selector as `kubectl get -l` and the `labelSelector` query string take it (k8s.io/apimachinery/pkg/labels.Parse): `a=b`, `a==b`, `a!=b`,
 * `a in (x,y)`, `a notin (x)`, `a`, `!a`, comma-separated and ANDed.
 */
export function parseLabelSelector(text: string): LabelRequirement[] {
  const requirements: LabelRequirement[] = [];
  // Split on commas outside parentheses.
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  for (const raw of parts.map((p) => p.trim()).filter(Boolean)) {
    let m: RegExpMatchArray | null;
    if ((m = raw.match(/^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/))) {
      requirements.push({
        key: m[1]!,
        op: m[2] as 'in' | 'notin',
        values: m[3]!
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      });
    } else if ((m = raw.match(/^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/))) {
      requirements.push({ key: m[1]!, op: m[2] === '!=' ? 'notin' : 'in', values: [m[3]!] });
    } else if ((m = raw.match(/^!\s*(\S+)$/))) {
      requirements.push({ key: m[1]!, op: '!' });
    } else if ((m = raw.match(/^[A-Za-z0-9._/-]+$/))) {
      requirements.push({ key: raw, op: 'exists' });
    } else {
      throw new LabelSelectorSyntaxError(`unable to parse requirement: ${raw}`);
    }
  }
  return requirements;
}

export function matchesLabelRequirements(
  requirements: LabelRequirement[],
  labels: Record<string, string> | undefined,
): boolean {
  const have = labels ?? {};
  return requirements.every((r) => {
    const present = Object.hasOwn(have, r.key);
    switch (r.op) {
      case 'in':
        return present && r.values.includes(have[r.key]!);
      case 'notin':
        return !present || !r.values.includes(have[r.key]!);
      case 'exists':
        return present;
      case '!':
        return !present;
    }
    return false;
  });
}
