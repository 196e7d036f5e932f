import type { KubeObject } from '../types.ts';

/**
 * A Secret's `stringData` is write-only: decoding a v1 Secret (Convert_v1_Secret_To_core_Secret) writes each
 * entry into `data` as bytes, winning over a `data` entry of the same key, and the stored Secret has no
 * stringData at all. Every write path (create, update, every patch type, server-side apply) goes through it.
 */
export function mergeStringData(secret: KubeObject): void {
  const stringData: unknown = secret.stringData;
  delete secret.stringData;
  if (!stringData || typeof stringData !== 'object' || Array.isArray(stringData)) return;
  const entries = Object.entries(stringData as Record<string, unknown>);
  if (entries.length === 0) return;
  const data: Record<string, string> = secret.data && typeof secret.data === 'object' ? { ...secret.data } : {};
  for (const [key, value] of entries) data[key] = Buffer.from(String(value ?? ''), 'utf8').toString('base64');
  secret.data = data;
}
