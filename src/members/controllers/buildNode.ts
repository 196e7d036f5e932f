import type { KubeObject, NodeSpec } from '../types.ts';
import { nodePodCidr } from './memberPodCidr.ts';

/** A simulated Node as KWOK registers one: Ready, with capacity, addresses and a pod CIDR of its own. */
export function buildNode(spec: NodeSpec, index: number, now: string, clusterCidr = '10.244.0.0/16'): KubeObject {
  const podCIDR = nodePodCidr(clusterCidr, index);
  const capacity = {
    cpu: spec.cpu ?? '8',
    memory: spec.memory ?? '32Gi',
    pods: spec.pods ?? '110',
    'ephemeral-storage': '100Gi',
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': spec.name,
        'kubernetes.io/os': 'linux',
        type: 'kwok',
        ...(spec.labels ?? {}),
      },
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: { podCIDR, podCIDRs: [podCIDR], ...(spec.taints?.length ? { taints: spec.taints } : {}) },
    status: {
      capacity,
      allocatable: capacity,
      addresses: [
        { type: 'InternalIP', address: `10.0.0.${index + 10}` },
        { type: 'Hostname', address: spec.name },
      ],
      conditions: [
        ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
        ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
        ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
        ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
      ].map(([type, status, reason, message]) => ({
        type,
        status,
        reason,
        message,
        lastHeartbeatTime: now,
        lastTransitionTime: now,
      })),
      nodeInfo: {
        architecture: 'amd64',
        bootID: '',
        containerRuntimeVersion: 'kwok-v0.6',
        kernelVersion: '6.1.0-flotilla',
        kubeProxyVersion: 'v1.32.0',
        kubeletVersion: 'v1.32.0',
        machineID: '',
        operatingSystem: 'linux',
        osImage: 'Flotilla simulated node',
        systemUUID: '',
      },
      phase: 'Running',
    },
  };
}

/** Three 8-CPU / 32Gi / 110-pod nodes named `<member>-node-1..3` unless the caller says otherwise. */
export function defaultNodes(memberName: string): NodeSpec[] {
  return [1, 2, 3].map((i) => ({ name: `${memberName}-node-${i}`, cpu: '8', memory: '32Gi', pods: '110' }));
}
