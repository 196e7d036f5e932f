/**
 * Whether a chart's version satisfies a dependency's `version` constraint, as helm decides it (Masterminds semver v3,
 * which `helm dependency build` checks a `file://` chart against): `||` between alternatives, commas or spaces between
 * conditions all of which must hold, `a - b` ranges, `=`, `!=`, `>`, `<`, `>=`, `<=`, `~`, `^`, and `x`, `X` or `*`
 * (or a missing part) for any minor or patch. 'invalid' when helm would refuse the constraint itself (an empty one
 * too). A prerelease version satisfies only a condition that names a prerelease.
 */
export function satisfiesChartVersion(constraint: string, version: string): boolean | 'invalid' {
  const v = parseVersion(version);
  const groups: Condition[][] = [];
  for (const alternative of constraint.split('||')) {
    const conditions: Condition[] = [];
    const text = alternative.replace(RANGE, (_, a: string, b: string) => `>= ${a}, <= ${b}`);
    const parts = conditionsOf(text);
    if (!parts) return 'invalid';
    for (const part of parts) {
      const c = parseCondition(part);
      if (!c) return 'invalid';
      conditions.push(c);
    }
    groups.push(conditions);
  }
  if (!v) return false;
  return groups.some((conditions) => conditions.every((c) => holds(v, c)));
}

interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
}

interface Condition {
  op: string;
  con: Version;
  dirty: boolean;
  minorDirty: boolean;
  patchDirty: boolean;
}

const PART = '[0-9xX*]+';
const CV = `v?(${PART})(\\.${PART})?(\\.${PART})?(-[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?(\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?`;
const OPS = '=>|=<|~>|!=|>=|<=|=|>|<|~|\\^';
const CONDITION_GLOBAL = new RegExp(`(?:${OPS})?\\s*${CV}`, 'g');
const CONDITION = new RegExp(`^(${OPS})?\\s*${CV}$`);
const RANGE = new RegExp(
  `\\s*(${CV.replace(/\((?!\?)/g, '(?:')})\\s+-\\s+(${CV.replace(/\((?!\?)/g, '(?:')})\\s*`,
  'g',
);

/**
 * The conditions of one `||` alternative, or undefined where Masterminds' validConstraintRegex refuses it: spaces
 * around each condition, and between two of them white space or one comma (`>=1 <2`, `>=1, <2`); nothing at all
 * between them (`>=1<2`), a comma first, last or twice, or anything else left over makes the constraint invalid.
 * Checked on the gaps between matches, not with that regex, whose nested repetition would backtrack for long in JS.
 */
function conditionsOf(text: string): string[] | undefined {
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(CONDITION_GLOBAL)) {
    const gap = text.slice(last, m.index);
    if (parts.length === 0 ? !/^\s*$/.test(gap) : !/^(?:\s+|\s*,\s*)$/.test(gap)) return undefined;
    parts.push(m[0]);
    last = m.index + m[0].length;
  }
  return parts.length > 0 && /^\s*$/.test(text.slice(last)) ? parts : undefined;
}

const isX = (s: string) => s === 'x' || s === 'X' || s === '*';

function parseCondition(text: string): Condition | undefined {
  const m = CONDITION.exec(text.trim());
  if (!m) return undefined;
  const op = { '=>': '>=', '=<': '<=', '~>': '~' }[m[1] ?? ''] ?? m[1] ?? '';
  const [major, minor, patch] = [m[2]!, m[3]?.slice(1) ?? '', m[4]?.slice(1) ?? ''];
  const pre = m[5] ?? '';
  let ver: string;
  let dirty = false;
  let minorDirty = false;
  let patchDirty = false;
  if (isX(major)) {
    ver = `0.0.0${pre}`;
    dirty = true;
  } else if (minor === '' || isX(minor)) {
    ver = `${major}.0.0${pre}`;
    dirty = minorDirty = true;
  } else if (patch === '' || isX(patch)) {
    ver = `${major}.${minor}.0${pre}`;
    dirty = patchDirty = true;
  } else ver = `${major}.${minor}.${patch}${pre}`;
  const con = parseVersion(ver);
  return con ? { op, con, dirty, minorDirty, patchDirty } : undefined;
}

/** A version as helm reads a chart's: `v` allowed, missing minor or patch taken as 0. */
function parseVersion(text: string): Version | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-.]+)?$/.exec(
    text.trim(),
  );
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0), prerelease: m[4] ?? '' };
}

function compare(a: Version, b: Version): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  return comparePrerelease(a.prerelease, b.prerelease);
}

function comparePrerelease(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined) return -1;
    if (y[i] === undefined) return 1;
    if (x[i] === y[i]) continue;
    const [nx, ny] = [/^\d+$/.test(x[i]!), /^\d+$/.test(y[i]!)];
    if (nx && ny) return Number(x[i]) < Number(y[i]) ? -1 : 1;
    if (nx !== ny) return nx ? -1 : 1;
    return x[i]! < y[i]! ? -1 : 1;
  }
  return 0;
}

function holds(v: Version, c: Condition): boolean {
  const { con } = c;
  // Masterminds semver v3.3 (helm 3.17) checks a prerelease against each condition apart, and `!=` of an exact
  // version is the one condition that takes any prerelease (1.2.3-rc.1 is not 1.2.3).
  if (v.prerelease !== '' && con.prerelease === '' && !(c.op === '!=' && !c.dirty)) return false;
  switch (c.op) {
    case '':
    case '=':
      return c.dirty ? tilde(v, c) : compare(v, con) === 0;
    case '!=':
      if (!c.dirty) return compare(v, con) !== 0;
      if (con.major !== v.major) return true;
      if (c.minorDirty) return false;
      if (con.minor !== v.minor) return true;
      return comparePrerelease(v.prerelease, con.prerelease) !== 0;
    case '>':
      if (!c.dirty) return compare(v, con) > 0;
      if (v.major !== con.major) return v.major > con.major;
      if (c.minorDirty) return false;
      return v.minor > con.minor;
    case '<':
      return compare(v, con) < 0;
    case '>=':
      return compare(v, con) >= 0;
    case '<=':
      if (!c.dirty) return compare(v, con) <= 0;
      if (v.major !== con.major) return v.major < con.major;
      return c.minorDirty || v.minor <= con.minor;
    case '~':
      return tilde(v, c);
    default:
      return caret(v, c);
  }
}

function tilde(v: Version, c: Condition): boolean {
  const { con } = c;
  if (compare(v, con) < 0) return false;
  // ~0.0.0 accepts everything from 0.0.0 on.
  if (con.major === 0 && con.minor === 0 && con.patch === 0 && !c.minorDirty && !c.patchDirty) return true;
  if (v.major !== con.major) return false;
  return c.minorDirty || v.minor === con.minor;
}

function caret(v: Version, c: Condition): boolean {
  const { con } = c;
  if (compare(v, con) < 0) return false;
  if (con.major > 0 || c.minorDirty) return v.major === con.major;
  if (v.major > 0) return false;
  if (con.minor > 0 || c.patchDirty) return v.minor === con.minor;
  if (v.minor > 0) return false;
  return v.patch === con.patch;
}
