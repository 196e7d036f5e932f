import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { issueCertificate } from './issueCertificate.ts';

export interface MemberTls {
  caPem: string;
  certPem: string;
  keyPem: string;
}

const FILES = { caCert: 'ca.crt', caKey: 'ca.key', cert: 'server.crt', key: 'server.key' } as const;

/**
 * Loads the member's CA and serving certificate from `<dataDir>/tls`, issuing them on first start. Persisting
 * the CA keeps kubeconfigs written earlier valid across restarts. Files are mode 0600: the keys are secrets
 * and the certificates are only read by this process.
 */
export function readOrCreateTls(dataDir: string, memberName: string): MemberTls {
  const dir = path.join(dataDir, 'tls');
  const file = (name: string) => path.join(dir, name);
  if (Object.values(FILES).every((name) => existsSync(file(name)))) {
    const tls = {
      caPem: readFileSync(file(FILES.caCert), 'utf8'),
      certPem: readFileSync(file(FILES.cert), 'utf8'),
      keyPem: readFileSync(file(FILES.key), 'utf8'),
    };
    // A certificate about to expire is reissued rather than served (kubectl would reject it).
    if (new Date(new X509Certificate(tls.certPem).validTo).getTime() > Date.now() + 24 * 3600 * 1000) return tls;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const existingCa = existsSync(file(FILES.caCert)) && existsSync(file(FILES.caKey));
  const ca = existingCa
    ? {
        certPem: readFileSync(file(FILES.caCert), 'utf8'),
        keyPem: readFileSync(file(FILES.caKey), 'utf8'),
      }
    : issueCertificate({ commonName: `flotilla-${memberName}-ca`, isCa: true });
  const caKey = createPrivateKey(ca.keyPem);
  const caX509 = new X509Certificate(ca.certPem);
  const caKeyId = subjectKeyId(caX509);
  const server = issueCertificate({
    commonName: `flotilla-${memberName}`,
    isCa: false,
    dnsNames: ['localhost', memberName],
    ipAddresses: ['127.0.0.1'],
    issuer: { commonName: caX509.subject.replace(/^CN=/, ''), privateKey: caKey, keyId: caKeyId },
  });
  const write = (name: string, text: string) => writeFileSync(file(name), text, { mode: 0o600 });
  if (!existingCa) {
    write(FILES.caCert, ca.certPem);
    write(FILES.caKey, ca.keyPem);
  }
  write(FILES.cert, server.certPem);
  write(FILES.key, server.keyPem);
  return { caPem: ca.certPem, certPem: server.certPem, keyPem: server.keyPem };
}

/** The CA's SubjectKeyIdentifier, read back from the DER so a reloaded CA signs with the same AKI. */
function subjectKeyId(cert: X509Certificate): Buffer {
  const der = cert.raw;
  // SKI extension: OID 2.5.29.14 (06 03 55 1d 0e) then OCTET STRING wrapping OCTET STRING (04 16 04 14 <20 bytes>).
  const at = der.indexOf(Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x0e]));
  if (at < 0) return Buffer.alloc(0);
  return der.subarray(at + 5 + 4, at + 5 + 4 + 20);
}
