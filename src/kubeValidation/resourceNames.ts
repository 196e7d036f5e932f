import { qualifiedNameViolations } from './fieldViolations.ts';

// Kubernetes' resource-name predicates (pkg/apis/core/helper: IsStandardResourceName, IsStandardQuotaResourceName,
// IsStandardContainerResourceName, IsHugePageResourceName, IsNativeResource, IsExtendedResourceName,
// IsIntegerResourceName), shared by the ResourceQuota and container rules here and by Karmada's FederatedResourceQuota
// webhook, which lifts the same ones.

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
]);
/** The quota's names and requests.storage's twin `storage`. */
const STANDARD_RESOURCES = new Set([...STANDARD_QUOTA_RESOURCES, 'storage']);
/** IsIntegerResourceName's fixed names; extended resources are counted in whole units too. */
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

export const isHugePageResourceName = (name: string) => name.startsWith('hugepages-');
/** IsHugePageResourceName or its quota form, `requests.hugepages-<size>`. */
export const isQuotaHugePageResourceName = (name: string) =>
  isHugePageResourceName(name) || name.startsWith('requests.hugepages-');
export const isStandardResourceName = (name: string) =>
  STANDARD_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
export const isStandardQuotaResourceName = (name: string) =>
  STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
export const isStandardContainerResourceName = (name: string) =>
  STANDARD_CONTAINER_RESOURCES.has(name) || isHugePageResourceName(name);
export const isNativeResourceName = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
/** A prefixed name outside kubernetes.io/, not `requests.`, still a qualified name once prefixed so. */
export const isExtendedResourceName = (name: string) =>
  !isNativeResourceName(name) &&
  !name.startsWith('requests.') &&
  qualifiedNameViolations([], `requests.${name}`).length === 0;
export const isIntegerResourceName = (name: string) => INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);
