/** One line of an edit script: kept (' '), deleted from the old text ('-') or inserted from the new one ('+'). */
export interface LineEdit {
  op: ' ' | '-' | '+';
  line: string;
}

/**
 * Myers' O((N+M)·D) shortest edit script between two line lists. Manifests differ in a few lines, so D is
 * small; past `maxEdits` (two unrelated files) the trace would cost O(D²) memory, and a plain
 * delete-everything / insert-everything script says as much to a reader.
 */
export function diffLines(a: readonly string[], b: readonly string[], maxEdits = 4000): LineEdit[] {
  // Common head and tail first: the usual manifest change touches a few lines in the middle.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head = a.slice(0, start).map((line): LineEdit => ({ op: ' ', line }));
  const tail = a.slice(endA).map((line): LineEdit => ({ op: ' ', line }));
  const middle = myers(a.slice(start, endA), b.slice(start, endB), maxEdits);
  return [...head, ...middle, ...tail];
}

function myers(a: readonly string[], b: readonly string[], maxEdits: number): LineEdit[] {
  const n = a.length;
  const m = b.length;
  const replaceAll = (): LineEdit[] => [
    ...a.map((line): LineEdit => ({ op: '-', line })),
    ...b.map((line): LineEdit => ({ op: '+', line })),
  ];
  if (n === 0 || m === 0) return replaceAll();
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  let v: Int32Array = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return replaceAll();
  // Walk back through the saved frontiers to recover the path.
  const out: LineEdit[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    v = trace[d]!; // frontier before step d
    const k = x - y;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: ' ', line: a[--x]! });
      y--;
    }
    if (down) out.push({ op: '+', line: b[--y]! });
    else out.push({ op: '-', line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    out.push({ op: ' ', line: a[--x]! });
    y--;
  }
  return out.reverse();
}
