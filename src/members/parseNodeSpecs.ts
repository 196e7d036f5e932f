import type { NodeSpec } from './types.ts';

/**
 * `--nodes` of `flotilla member serve`: a count (`3`, nodes named `<member>-node-N` with 8 CPU / 32Gi /
 * 110 pods) or a comma list of `name[:cpu[:memory[:pods]]]`, e.g. `big:32:128Gi,small:2:4Gi:20`.
 */
export function parseNodeSpecs(text: string, memberName: string): NodeSpec[] {
  if (/^\d+$/.test(text.trim())) {
    return Array.from({ length: Number(text) }, (_, i) => ({
      name: `${memberName}-node-${i + 1}`,
      cpu: '8',
      memory: '32Gi',
      pods: '110',
    }));
  }
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [name, cpu, memory, pods] = entry.split(':');
      if (!name) throw new Error(`--nodes: empty node name in "${text}"`);
      return { name, cpu: cpu || '8', memory: memory || '32Gi', pods: pods || '110' };
    });
}
