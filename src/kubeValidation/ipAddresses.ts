import { isIP } from 'node:net';
import { invalid, type KubeViolation } from './fieldViolations.ts';

// apimachinery's IsValidIP as Kubernetes 1.32 has it (before StrictIPCIDRValidation): an address netutils.ParseIPSloppy
// reads, so an IPv4 octet may carry leading zeros.

const SLOPPY_IPV4 = /^\d+(\.\d+){3}$/;

export function parsesAsIP(value: string): boolean {
  if (isIP(value) !== 0) return !value.includes('%');
  return SLOPPY_IPV4.test(value) && value.split('.').every((octet) => Number(octet) <= 255);
}

export const ipViolations = (at: (string | number)[], value: unknown): KubeViolation[] =>
  parsesAsIP(String(value ?? ''))
    ? []
    : [invalid(at, String(value ?? ''), 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
