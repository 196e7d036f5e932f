// deploy/Containerfile read as a builder reads it: its stages, and what each COPY takes from where.

export interface Stage {
  name: string | undefined;
  copies: { from: string | undefined; sources: string[]; target: string }[];
  lines: string[];
}

/** The stages of a Containerfile and their COPY instructions (line continuations joined, comments dropped). */
export function containerfileStages(text: string): Stage[] {
  const out: Stage[] = [];
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const line of lines) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) {
      out.push({ name: from[1], copies: [], lines: [] });
      continue;
    }
    const stage = out[out.length - 1];
    if (!stage) continue;
    stage.lines.push(line);
    const copy = /^COPY\s+(?:--from=(\S+)\s+)?(.+)$/i.exec(line);
    if (copy) {
      const words = copy[2]!.split(/\s+/);
      stage.copies.push({ from: copy[1], sources: words.slice(0, -1), target: words[words.length - 1]! });
    }
  }
  return out;
}
