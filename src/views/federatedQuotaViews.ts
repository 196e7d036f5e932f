// `flotilla get|describe federatedresourcequotas`: a FederatedResourceQuota as Karmada's API server shows it, from
// Git: the quota from the source commit, its status from federatedresourcequotas/<namespace>/<name>.yaml on the status
// branch (statuses/federatedQuotaStatus.ts). Karmada's API server holds the quota, not the ResourceQuotas its sync
// controller puts in Works, so the quota is listed under its own type.
import { pickListed, type TemplateListingQuery } from './pickListed.ts';
import { isFederatedResourceQuota, memberQuotaRef } from '../api/federatedResourceQuota.ts';
import type { Template } from '../api/model.ts';
import { federatedQuotaStatusPath } from '../branches/status/federatedQuotaStatus.ts';
import { crdPrinterColumns } from './crdPrinterColumns.ts';
import { loadTemplatesOfKinds, readDocuments, type Fleet } from './readFleet.ts';
import { readFirstSeen } from './readFirstSeen.ts';
import { humanDuration } from '../time/humanDuration.ts';

type Obj = Record<string, unknown>;

export interface FederatedQuotaView {
  /** The quota's template: its ref is the ResourceQuota it makes (same namespace and name), its manifest the quota. */
  template: Template;
  /** The status file's status, when the status branch has one. */
  status?: Obj;
  /** When its file appeared (seconds), for AGE. */
  firstSeen?: number;
}

/**
 * The CRD's printer columns (charts/karmada/_crds/bases/policy/policy.karmada.io_federatedresourcequotas.yaml): with
 * columns of its own, apiextensions-apiserver adds no AGE.
 */
const COLUMNS = crdPrinterColumns(
  {
    spec: {
      versions: [
        {
          name: 'v1alpha1',
          additionalPrinterColumns: [
            { jsonPath: '.status.overall', name: 'OVERALL', type: 'string' },
            { jsonPath: '.status.overallUsed', name: 'OVERALL_USED', type: 'string' },
          ],
        },
      ],
    },
  },
  'v1alpha1',
)!;

/** Every FederatedResourceQuota of the source commit, with its status from the status branch when there is one. */
export async function readFederatedQuotas(fleet: Fleet): Promise<FederatedQuotaView[]> {
  // The rendered index keys a quota by the ResourceQuota it places on members, one object with a template of that kind.
  const placed = memberQuotaRef('', '');
  const { model } = await loadTemplatesOfKinds(
    fleet,
    (k) => k.apiVersion === placed.apiVersion && k.kind === placed.kind,
  );
  const quotas = [...model.templates.values()].filter((t) => isFederatedResourceQuota(t.manifest));
  const paths = quotas.map((t) => federatedQuotaStatusPath(t.ref.namespace, t.ref.name));
  const docs = fleet.status ? await readDocuments(fleet.repo, fleet.status, paths) : new Map<string, unknown[]>();
  const ages = await readFirstSeen(
    fleet.repo,
    fleet.source.commit.oid,
    quotas.map((t) => t.source.file),
  );
  return quotas.map((template, i) => {
    const status = (docs.get(paths[i]!)?.[0] as { status?: Obj } | undefined)?.status;
    const firstSeen = ages.get(template.source.file);
    return { template, ...(status ? { status } : {}), ...(firstSeen !== undefined ? { firstSeen } : {}) };
  });
}

/** The quota as Karmada's API server holds it: Git's manifest in its namespace, with the status branch's status. */
export function federatedQuotaObject(v: FederatedQuotaView): Obj {
  const manifest = v.template.manifest as Obj;
  const metadata = { ...((manifest.metadata ?? {}) as Obj), namespace: v.template.ref.namespace };
  return { ...manifest, metadata, ...(v.status ? { status: v.status } : {}) };
}

/** `get federatedresourcequotas`: NAME and the CRD's columns, in readListing's Listing shape. Pure. */
export function listFederatedQuotas(
  views: readonly FederatedQuotaView[],
  q: TemplateListingQuery,
): { headers: string[]; rows: string[][]; objects: Obj[]; namespaced: boolean } {
  const picked = pickListed(views, q);
  const objects = picked.map(federatedQuotaObject);
  const headers = [...(q.allNamespaces ? ['NAMESPACE'] : []), 'NAME', ...COLUMNS.map((c) => c.header)];
  const rows = picked.map((v, i) => [
    ...(q.allNamespaces ? [v.template.ref.namespace] : []),
    v.template.ref.name,
    ...COLUMNS.map((c) =>
      c.cell(
        objects[i]!,
        v.firstSeen === undefined ? '<unknown>' : humanDuration(q.now.getTime() - v.firstSeen * 1000),
        q.now,
      ),
    ),
  ]);
  return { headers, rows, objects, namespaced: !q.allNamespaces };
}
