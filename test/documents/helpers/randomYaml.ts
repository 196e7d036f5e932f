/** Generated YAML texts for the differential tests: plain block YAML with every tricky scalar, flow, comment and indentation. */

/** Small deterministic PRNG (mulberry32): the generated texts are the same on every run. */
export function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

export const SCALARS = [
  '1',
  '-1',
  '0o17',
  '0o8',
  '0x1F',
  '0xg',
  '1e3',
  '.5',
  '1.',
  '.inf',
  '-.Inf',
  '.NaN',
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  'true',
  'False',
  'yes',
  'on',
  '"a\\tb"',
  "'it''s'",
  '"\\u00e9"',
  'a #c',
  'a#b',
  'http://x:80',
  'a: b',
  'a:',
  '-',
  '- x',
  '[]',
  '{}',
  '[a]',
  '{a: 1}',
  '&a x',
  '*a',
  '!t x',
  '|',
  '|-',
  '>',
  '"open',
  "'open",
  '""',
  "''",
  'foo bar',
  'trail  ',
  ':x',
  '?x',
  '@x',
  '`x',
  '%x',
  '1_000',
  '+5',
  '0.0',
  '-0',
  '+0',
  '12345678901234567890',
  '"\\x41"',
  '"\\U0001F600"',
  '"\\q"',
  '"a" b',
  'x # y: z',
  '-x',
  '- - y',
  '"\\\\"',
  "'a''b'c'",
  '0x',
  '1e',
  '.',
  '+',
  '-.5e-3',
  '[a, b]',
  '[ "x", 1 ]',
  '[a,b]',
  '[a, ]',
  '[,]',
  '[a b]',
  '[a: b]',
  '[a, [b]]',
  '{"k":"v"}',
  '{k: v, n: 1}',
  '{k:v}',
  '{a}',
  '{ "a": [1] }',
  '{ }',
  '[ ]',
  '[a # c]',
  '[\'q\', "d"]',
  '{"a": 1, "a": 2}',
  '{1: a}',
  '[-1, .5, ~, null, true]',
  '[a, b] # c',
  '[a]x',
  '{a: }',
  "{'k': 'v' , x: -}",
  '[http://x]',
  '{a: b: c}',
  '[- a]',
  '[?x]',
  '{"a":1,"b":[]}',
  '[a, "unterminated]',
  '{ true: 1 }',
  '{__proto__: 1}',
];
export const KEYS = [
  'a',
  'b',
  'a b',
  '"q"',
  "'s'",
  '1',
  'true',
  'null',
  '<<',
  '-k',
  'k#x',
  'k:x',
  '__proto__',
  'a',
  'x y',
  '"a"',
  '? k',
  'c',
];

export function randomText(r: (n: number) => number, scalars: readonly string[] = SCALARS): string {
  const lines: string[] = [];
  const node = (indent: number, depth: number): void => {
    const pad = ' '.repeat(indent);
    const kind = depth > 3 ? 2 : r(3);
    const entries = 1 + r(3);
    for (let e = 0; e < entries; e++) {
      if (r(8) === 0) lines.push(r(2) ? `${pad}# comment` : ' '.repeat(r(6)));
      if (r(30) === 0) lines.push(r(2) ? '---' : '--- # doc');
      const jitter = r(25) === 0 ? ' '.repeat(1 + r(2)) : '';
      const head =
        kind === 0 ? `${pad}${jitter}- ` : `${pad}${jitter}${KEYS[r(KEYS.length)]}:${r(10) === 0 ? '' : ' '}`;
      const choice = r(10);
      if (choice < 5) lines.push(`${head}${scalars[r(scalars.length)]}${r(6) === 0 ? ' # trailing' : ''}`);
      else if (choice < 8) {
        lines.push(head.trimEnd());
        node(kind === 1 && r(3) === 0 ? indent : indent + 1 + r(3), depth + 1);
      } else if (choice < 9) {
        lines.push(`${head}${r(2) ? '|' : '|-'}`);
        for (let k = r(4); k >= 0; k--)
          lines.push(
            r(4) === 0
              ? ' '.repeat(r(indent + 5))
              : `${' '.repeat(indent + 2 + (r(4) === 0 ? r(3) - 1 : 0))}line ${k}${r(5) === 0 ? ' # kept' : ''}`,
          );
      } else if (kind === 0) {
        lines.push(`${head}${KEYS[r(KEYS.length)]}: ${scalars[r(scalars.length)]}`);
        if (r(2)) lines.push(`${pad}  ${KEYS[r(KEYS.length)]}: ${scalars[r(scalars.length)]}`);
      } else lines.push(`${head}[]`);
    }
  };
  node(r(4) === 0 ? 2 : 0, 0);
  return lines.join('\n') + (r(10) === 0 ? '' : '\n');
}
