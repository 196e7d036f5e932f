// Public surface of the member-cluster emulator.
export { startMember, type Member, type MemberOptions } from './startMember.ts';
export { writeKubeconfig, renderKubeconfig, type KubeconfigMember } from './writeKubeconfig.ts';
export { runMemberServe, SERVE_USAGE } from './serveCommand.ts';
export { parseNodeSpecs } from './parseNodeSpecs.ts';
export { MemberFaults, type FaultSettings } from './faults.ts';
export type { KubeObject, NodeSpec, ResourceType } from './types.ts';
export type { HpaControllerOptions } from './controllers/horizontalPodAutoscalerController.ts';
export { CPU_USAGE_ANNOTATION, MEMORY_USAGE_ANNOTATION } from './metrics/simulatedUsage.ts';
