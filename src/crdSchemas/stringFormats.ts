// The string formats a CRD schema may declare that kube-apiserver checks: apiextensions keeps only these
// (pkg/apiserver/validation/formats.go, the name without dashes) and kube-openapi's strfmt registry tests them.
// Any other format (int32, int64, float, double, byte-size...) is dropped and never checked.

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const TIME_OF_DAY = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u;
const DURATION_PART = /((\d+)\s*([A-Za-zµ]+))/gu;
const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/u;
const DURATION_UNITS = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/** The check for a format as a schema writes it, or undefined when kube-apiserver does not check that format. */
export function stringFormatCheck(format: string): ((value: string) => boolean) | undefined {
  return CHECKS[format.replaceAll('-', '')];
}

const CHECKS: Record<string, (value: string) => boolean> = {
  bsonobjectid: (v) => /^[0-9a-fA-F]{24}$/.test(v),
  uri: isRequestUri,
  email: (v) => /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+$/.test(v) || /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(v),
  hostname: (v) => HOSTNAME.test(v) && v.length <= 255 && v.split('.').every((p) => p.length <= 63),
  ipv4: (v) => isIPv4(v),
  ipv6: (v) => v.includes(':') && isIPv6(v),
  cidr: isCidr,
  mac: (v) =>
    /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/.test(v) ||
    /^([0-9a-fA-F]{2}[:-]){7}[0-9a-fA-F]{2}$/.test(v) ||
    /^([0-9a-fA-F]{2}[:-]){19}[0-9a-fA-F]{2}$/.test(v) ||
    /^([0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}$/.test(v) ||
    /^([0-9a-fA-F]{4}\.){3}[0-9a-fA-F]{4}$/.test(v) ||
    /^([0-9a-fA-F]{4}\.){9}[0-9a-fA-F]{4}$/.test(v),
  uuid: (v) => UUID.test(v),
  uuid3: (v) => UUID3.test(v),
  uuid4: (v) => UUID4.test(v),
  uuid5: (v) => UUID5.test(v),
  isbn: (v) => isIsbn10(v) || isIsbn13(v),
  isbn10: isIsbn10,
  isbn13: isIsbn13,
  creditcard: isCreditCard,
  ssn: (v) => v !== '' && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(v),
  hexcolor: (v) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(v),
  rgbcolor: (v) =>
    /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/.test(
      v,
    ),
  byte: (v) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/.test(v),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

/** Go's time.Parse("2006-01-02"): two-digit month and day, a day that exists in that month. */
function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** strfmt's IsDateTime: split at every `t` (case-insensitive), a date, then a time of day with a zone. */
function isDateTime(value: string): boolean {
  if (value.length < 4) return false;
  const parts = value.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = TIME_OF_DAY.exec(parts[1]!);
  return m !== null && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

/** strfmt's ParseDuration: Go's time.ParseDuration, else Scala-style `3 days`, `1 hour 30 min`. */
function isDuration(value: string): boolean {
  if (value === '0' || GO_DURATION.test(value)) return true;
  for (const m of value.matchAll(DURATION_PART)) {
    const unit = m[3]!.trim().toLowerCase();
    for (const variants of DURATION_UNITS)
      if (variants.some((v, i) => (i === variants.length - 1 && unit.startsWith(v)) || v === unit)) return true;
  }
  return false;
}

function isIPv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255 && !/^0\d/.test(p));
}

function isIPv6(value: string): boolean {
  let text = value;
  let groups = 8;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    if (!isIPv4(text.slice(lastColon + 1))) return false;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const group = (g: string) => /^[0-9a-fA-F]{1,4}$/.test(g);
  if (halves.length === 1) {
    const parts = text.split(':');
    return parts.length === groups && parts.every(group);
  }
  const left = halves[0] === '' ? [] : halves[0]!.split(':');
  const right = halves[1] === '' ? [] : halves[1]!.split(':');
  groups -= 1;
  return left.length + right.length <= groups && [...left, ...right].every(group);
}

function isCidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const ip = value.slice(0, slash);
  const bits = value.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  if (isIPv4(ip)) return Number(bits) <= 32;
  return ip.includes(':') && isIPv6(ip) && Number(bits) <= 128;
}

/** govalidator's IsRequestURI: net/url.ParseRequestURI, an absolute URI or an absolute path. */
function isRequestUri(value: string): boolean {
  if (value === '' || /\s/.test(value)) return false;
  if (value.startsWith('/')) return true;
  return /^[A-Za-z][A-Za-z0-9+.-]*:./.test(value);
}

function isIsbn10(value: string): boolean {
  const v = value.replace(/[\s-]/g, '');
  if (!/^\d{9}[\dX]$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(v[i]);
  sum += v[9] === 'X' ? 100 : 10 * Number(v[9]);
  return sum % 11 === 0;
}

function isIsbn13(value: string): boolean {
  const v = value.replace(/[\s-]/g, '');
  if (!/^\d{13}$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(v[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(v[12]);
}

function isCreditCard(value: string): boolean {
  const v = value.replace(/[^0-9]+/g, '');
  if (
    !/^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/.test(
      v,
    )
  )
    return false;
  let sum = 0;
  let double = false;
  for (let i = v.length - 1; i >= 0; i--) {
    let d = Number(v[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}
