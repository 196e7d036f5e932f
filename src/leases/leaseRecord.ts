// A coordination.k8s.io/v1 Lease as leader election reads it: client-go's LeaderElectionRecord and its mapping onto
// the Lease's spec (k8s.io/client-go/tools/leaderelection/resourcelock/leaselock.go, LeaseSpecToLeaderElectionRecord
// and LeaderElectionRecordToLeaseSpec).

/** client-go's LeaderElectionRecord; times in epoch milliseconds. */
export interface LeaseRecord {
  /** Empty: released, nobody holds it. */
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number | undefined;
  renewTime: number | undefined;
  leaseTransitions: number;
}

/** The Lease object as the API server returns it: what the elector needs back to update it (resourceVersion). */
export interface LeaseObject {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: {
    name: string;
    namespace: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [k: string]: unknown;
  };
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
    [k: string]: unknown;
  };
}

export function recordOf(lease: LeaseObject): LeaseRecord {
  const spec = lease.spec ?? {};
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: parseMicroTime(spec.acquireTime),
    renewTime: parseMicroTime(spec.renewTime),
    leaseTransitions: spec.leaseTransitions ?? 0,
  };
}

/**
 * The spec written for a record: client-go's LeaderElectionRecordToLeaseSpec, which replaces the whole spec, so a
 * non-coordinated elector drops a coordinated lease's strategy and preferredHolder, as every client-go elector does.
 */
export function specOf(record: LeaseRecord): NonNullable<LeaseObject['spec']> {
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    ...(record.acquireTime !== undefined ? { acquireTime: formatMicroTime(record.acquireTime) } : {}),
    ...(record.renewTime !== undefined ? { renewTime: formatMicroTime(record.renewTime) } : {}),
    leaseTransitions: record.leaseTransitions,
  };
}

/**
 * metav1.MicroTime: RFC 3339 with six fractional digits, in UTC. `ms` may carry microseconds as its fraction: a time
 * read from a Lease is written back to the microsecond (a holder keeps acquireTime exactly, as client-go does).
 */
export function formatMicroTime(ms: number): string {
  const micros = Math.round(ms * 1000);
  const wholeMs = Math.floor(micros / 1000);
  return new Date(wholeMs).toISOString().replace(/Z$/, `${String(micros - wholeMs * 1000).padStart(3, '0')}Z`);
}

/**
 * Epoch milliseconds with the microseconds apimachinery keeps as the fraction; Date.parse alone would drop them.
 * Digits past the sixth are dropped, as Go's time.Parse of RFC3339Micro reads no more.
 */
function parseMicroTime(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const fraction = /\.(\d+)/.exec(text)?.[1] ?? '';
  const ms = Date.parse(text.replace(/\.(\d{1,3})\d*/, '.$1'));
  if (Number.isNaN(ms)) return undefined;
  return (ms * 1000 + Number(fraction.slice(3, 6).padEnd(3, '0'))) / 1000;
}
