// metav1.MicroTime fields (k8s.io/apimachinery/pkg/apis/meta/v1/micro_time.go) as kube-apiserver decodes and
// re-encodes them: parsed with Go's time.Parse and the layout RFC3339Micro, which wants exactly six fractional
// digits and a zone, so "2024-01-02T03:04:05Z" or Python's isoformat() of a whole second
// ("2024-01-02T03:04:05+00:00") cannot be decoded at all (a 400), and written back in UTC, so
// "…05.123456+02:00" is returned as "…03.123456Z". Leader election compares what it reads byte for byte.

const LAYOUT = '2006-01-02T15:04:05.000000Z07:00';

/** The MicroTime fields of the built-in kinds a member serves, by group/kind. */
const FIELDS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  'coordination.k8s.io/Lease': [
    ['spec', 'acquireTime'],
    ['spec', 'renewTime'],
  ],
  '/Event': [['eventTime'], ['series', 'lastObservedTime']],
};

export type MicroTimeResult = { ok: true; value: string } | { ok: false; error: string };

/** Go's time.Parse(RFC3339Micro, text) followed by MarshalJSON: the UTC form, or Go's ParseError text. */
export function parseMicroTime(text: string): MicroTimeResult {
  const bad = (valueElem: string, layoutElem: string): MicroTimeResult => ({
    ok: false,
    error: `parsing time ${quote(text)} as ${quote(LAYOUT)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`,
  });
  const outOfRange = (what: string): MicroTimeResult => ({
    ok: false,
    error: `parsing time ${quote(text)}: ${what} out of range`,
  });
  let rest = text;
  // Each step: the literal before a field, then the field, as Go's nextStdChunk splits the layout.
  const literal = (lit: string): boolean => {
    if (!rest.startsWith(lit)) return false;
    rest = rest.slice(lit.length);
    return true;
  };
  const digits = (min: number, max: number): number | undefined => {
    let n = 0;
    while (n < max && /[0-9]/.test(rest[n] ?? '')) n++;
    if (n < min) return undefined;
    const value = Number(rest.slice(0, n));
    rest = rest.slice(n);
    return value;
  };

  if (rest.length < 4 || !/^[0-9]{4}/.test(rest)) return bad(rest, '2006');
  const year = Number(rest.slice(0, 4));
  rest = rest.slice(4);
  const fields: [string, string, number, number, number][] = [
    ['-', '01', 2, 2, 12],
    ['-', '02', 2, 2, 31],
    ['T', '15', 1, 2, 23],
    [':', '04', 2, 2, 59],
    [':', '05', 2, 2, 59],
  ];
  const names = ['month', 'day', 'hour', 'minute', 'second'];
  const values: number[] = [];
  for (const [i, [lit, elem, min, max, top]] of fields.entries()) {
    if (!literal(lit)) return bad(rest, lit);
    const hold = rest;
    const value = digits(min, max);
    if (value === undefined) return bad(hold, elem);
    // Go checks the month as it reads it and the day only once the whole date is known.
    if (i !== 1 && (value > top || (i === 0 && value < 1))) return outOfRange(names[i]!);
    values.push(value);
  }
  const [month, day, hour, minute, second] = values as [number, number, number, number, number];
  if (!/^[.,][0-9]{6}/.test(rest)) return bad(rest, '.000000');
  const micros = rest.slice(1, 7);
  rest = rest.slice(7);
  let offsetMinutes = 0;
  if (rest.startsWith('Z')) rest = rest.slice(1);
  else {
    const zone = /^([+-])([0-9]{2}):([0-9]{2})/.exec(rest);
    if (!zone) return bad(rest, 'Z07:00');
    const [, sign, hh, mm] = zone;
    if (Number(hh) > 24) return outOfRange('time zone offset hour');
    if (Number(mm) > 60) return outOfRange('time zone offset minute');
    offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
    rest = rest.slice(6);
  }
  if (rest !== '') return { ok: false, error: `parsing time ${quote(text)}: extra text: ${quote(rest)}` };
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');

  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute - offsetMinutes, second, 0);
  const date = `${String(at.getUTCFullYear()).padStart(4, '0')}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
  const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
  return { ok: true, value: `${date}T${time}.${micros}Z` };
}

/**
 * Decodes the MicroTime fields of `object` (a `group`/`kind`) in place, as the API server stores them; the first
 * one it cannot decode is returned as Go's error, the object then left as it was.
 */
export function decodeMicroTimes(group: string, kind: string, object: unknown): string | undefined {
  const paths = FIELDS[`${group}/${kind}`] ?? [];
  const decoded: [Record<string, unknown>, string, string][] = [];
  for (const path of paths) {
    let parent: unknown = object;
    for (const key of path.slice(0, -1)) parent = isObject(parent) ? parent[key] : undefined;
    const field = path[path.length - 1]!;
    if (!isObject(parent)) continue;
    const value = parent[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return `json: cannot unmarshal ${jsonKind(value)} into Go value of type string`;
    const parsed = parseMicroTime(value);
    if (!parsed.ok) return parsed.error;
    decoded.push([parent, field, parsed.value]);
  }
  for (const [parent, field, value] of decoded) parent[field] = value;
  return undefined;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Go's time.quote for the printable ASCII these errors carry. */
const quote = (s: string) => JSON.stringify(s);

function jsonKind(value: unknown): string {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  return Array.isArray(value) ? 'array' : 'object';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
