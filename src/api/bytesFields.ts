// Fields the Kubernetes API types as bytes ([]byte): a Secret's data, a ConfigMap's binaryData, a webhook's caBundle,
// a certificate request. Go's JSON decoder reads them as standard base64 (padding required, line breaks skipped), so
// kube-apiserver cannot decode an object holding anything else there at all: a 400 before any validation, Karmada's as
// every member's. `password: hunter2` under data (not stringData) is the usual one.

/** A bytes-typed field of a built-in kind whose text is not base64. */
export interface InvalidBase64 {
  /** From the manifest's root to the value. */
  path: (string | number)[];
  /** Where Go's decoder stops: the byte of the field's text its CorruptInputError names. */
  offset: number;
  /** The field for people: `data key password`, `caBundle of webhook 0`. */
  what: string;
}

/**
 * Where Go's base64.StdEncoding.Decode fails on this text (its CorruptInputError, a byte offset into the UTF-8 text),
 * or undefined when it decodes. Line breaks are skipped, padding is required, and nothing may follow it. Pure.
 */
export function goBase64Error(text: string): number | undefined {
  const src = Buffer.from(text, 'utf8');
  const isBreak = (c: number | undefined) => c === 0x0a || c === 0x0d;
  let si = 0;
  // decodeQuantum, once per four characters, until the text ends or padding ends it.
  for (;;) {
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return undefined;
        return si - j; // padding is required: a quantum cut short is corrupt where it began
      }
      const c = src[si++]!;
      if (ALPHABET[c]) continue;
      if (isBreak(c)) {
        j--;
        continue;
      }
      if (c !== 0x3d /* = */ || j < 2) return si - 1;
      if (j === 2) {
        while (si < src.length && isBreak(src[si])) si++;
        if (si === src.length) return src.length;
        if (src[si] !== 0x3d) return si - 1;
        si++;
      }
      while (si < src.length && isBreak(src[si])) si++;
      return si < src.length ? si : undefined;
    }
  }
}

const ALPHABET = (() => {
  const table = new Uint8Array(256);
  for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') table[c.charCodeAt(0)] = 1;
  return table;
})();

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every bytes-typed field of the object whose text Go's decoder refuses, in document order; none for other kinds. */
export function invalidBase64Values(object: unknown, apiVersion: string, kind: string): InvalidBase64[] {
  if (!isObj(object)) return [];
  const out: InvalidBase64[] = [];
  const check = (value: unknown, path: (string | number)[], what: string) => {
    if (typeof value !== 'string') return;
    const offset = goBase64Error(value);
    if (offset !== undefined) out.push({ path, offset, what });
  };
  const eachEntry = (map: unknown, field: string, what: string) => {
    if (isObj(map)) for (const [key, value] of Object.entries(map)) check(value, [field, key], `${what} ${key}`);
  };
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const spec = isObj(object.spec) ? object.spec : {};
  if (group === '' && kind === 'Secret') eachEntry(object.data, 'data', 'data key');
  else if (group === '' && kind === 'ConfigMap') eachEntry(object.binaryData, 'binaryData', 'binaryData key');
  else if (
    group === 'admissionregistration.k8s.io' &&
    (kind === 'ValidatingWebhookConfiguration' || kind === 'MutatingWebhookConfiguration') &&
    Array.isArray(object.webhooks)
  )
    object.webhooks.forEach((webhook: unknown, i) => {
      const clientConfig = isObj(webhook) && isObj(webhook.clientConfig) ? webhook.clientConfig : {};
      check(clientConfig.caBundle, ['webhooks', i, 'clientConfig', 'caBundle'], `caBundle of webhook ${i}`);
    });
  else if (group === 'apiregistration.k8s.io' && kind === 'APIService')
    check(spec.caBundle, ['spec', 'caBundle'], 'spec.caBundle');
  else if (group === 'apiextensions.k8s.io' && kind === 'CustomResourceDefinition') {
    const conversion = isObj(spec.conversion) ? spec.conversion : {};
    const webhook = isObj(conversion.webhook) ? conversion.webhook : {};
    const clientConfig = isObj(webhook.clientConfig) ? webhook.clientConfig : {};
    check(
      clientConfig.caBundle,
      ['spec', 'conversion', 'webhook', 'clientConfig', 'caBundle'],
      'spec.conversion.webhook.clientConfig.caBundle',
    );
  } else if (group === 'certificates.k8s.io' && kind === 'CertificateSigningRequest')
    check(spec.request, ['spec', 'request'], 'spec.request');
  return out;
}

/** kube-apiserver's answer to the first of them: the object cannot be decoded into its Go type. */
export function bytesFieldDecodeError(
  kind: string,
  version: string,
  found: readonly InvalidBase64[],
): string | undefined {
  const [first] = found;
  if (!first) return undefined;
  return `${kind} in version "${version}" cannot be handled as a ${kind}: illegal base64 data at input byte ${first.offset}`;
}
