import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import {
  bitString,
  boolean,
  explicit,
  implicit,
  objectIdentifier,
  octetString,
  sequence,
  set,
  smallInteger,
  time,
  unsignedInteger,
  utf8String,
} from './der.ts';

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
  privateKey: KeyObject;
  /** SubjectKeyIdentifier, reused as AuthorityKeyIdentifier of certificates this one signs. */
  keyId: Buffer;
}

export interface CertificateRequest {
  commonName: string;
  isCa: boolean;
  dnsNames?: string[];
  ipAddresses?: string[];
  /** Signs with this CA; omitted for a self-signed CA. */
  issuer?: { commonName: string; privateKey: KeyObject; keyId: Buffer };
  validDays?: number;
}

const ECDSA_WITH_SHA256 = sequence(objectIdentifier('1.2.840.10045.4.3.2'));

const name = (commonName: string): Buffer =>
  sequence(set(sequence(objectIdentifier('2.5.4.3'), utf8String(commonName))));

const extension = (oid: string, critical: boolean, value: Buffer): Buffer =>
  sequence(objectIdentifier(oid), ...(critical ? [boolean(true)] : []), octetString(value));

function ipBytes(ip: string): Buffer {
  return Buffer.from(ip.split('.').map(Number));
}

/**
 * Issues an ECDSA P-256 X.509 v3 certificate. P-256 keys are generated in milliseconds (RSA-2048 takes
 * ~100 ms each) and are accepted by Go's crypto/tls (kubectl) and by Node (client-node).
 */
export function issueCertificate(req: CertificateRequest): IssuedCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  // RFC 5280 method 1: SHA-1 of the subjectPublicKey bits (the BIT STRING content after its header).
  const keyId = createHash('sha1')
    .update(spki.subarray(spki.length - 65))
    .digest();
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const notBefore = new Date(Date.now() - 60 * 60 * 1000);
  const notAfter = new Date(Date.now() + (req.validDays ?? 3650) * 24 * 60 * 60 * 1000);

  const extensions: Buffer[] = [
    extension('2.5.29.19', true, req.isCa ? sequence(boolean(true)) : sequence()),
    // keyUsage: CA = digitalSignature|keyCertSign|cRLSign (0x86, 1 unused bit); leaf = digitalSignature (0x80, 7 unused).
    extension('2.5.29.15', true, req.isCa ? bitString(Buffer.from([0x86]), 1) : bitString(Buffer.from([0x80]), 7)),
    extension('2.5.29.14', false, octetString(keyId)),
  ];
  if (!req.isCa) extensions.push(extension('2.5.29.37', false, sequence(objectIdentifier('1.3.6.1.5.5.7.3.1'))));
  const altNames = [
    ...(req.dnsNames ?? []).map((dns) => implicit(2, Buffer.from(dns, 'ascii'))),
    ...(req.ipAddresses ?? []).map((ip) => implicit(7, ipBytes(ip))),
  ];
  if (altNames.length > 0) extensions.push(extension('2.5.29.17', false, sequence(...altNames)));
  if (req.issuer) extensions.push(extension('2.5.29.35', false, sequence(implicit(0, req.issuer.keyId))));

  const tbs = sequence(
    explicit(0, smallInteger(2)),
    unsignedInteger(serial),
    ECDSA_WITH_SHA256,
    name(req.issuer?.commonName ?? req.commonName),
    sequence(time(notBefore), time(notAfter)),
    name(req.commonName),
    spki,
    explicit(3, sequence(...extensions)),
  );
  const signature = sign('sha256', tbs, { key: req.issuer?.privateKey ?? privateKey, dsaEncoding: 'der' });
  const der = sequence(tbs, ECDSA_WITH_SHA256, bitString(signature));
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return {
    certPem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey,
    keyId,
  };
}
