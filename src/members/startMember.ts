import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import path from 'node:path';
import { ControllerManager } from './controllers/ControllerManager.ts';
import { buildNode, defaultNodes } from './controllers/buildNode.ts';
import { apiServiceController } from './controllers/apiServiceController.ts';
import { crdController } from './controllers/crdController.ts';
import { daemonSetController } from './controllers/daemonSetController.ts';
import { deploymentController } from './controllers/deploymentController.ts';
import { endpointSliceController } from './controllers/endpointSliceController.ts';
import { endpointsController } from './controllers/endpointsController.ts';
import {
  type HpaControllerOptions,
  horizontalPodAutoscalerController,
} from './controllers/horizontalPodAutoscalerController.ts';
import { garbageCollector } from './controllers/garbageCollector.ts';
import { cronJobController } from './controllers/cronJobController.ts';
import { jobController } from './controllers/jobController.ts';
import { ttlAfterFinishedController } from './controllers/ttlAfterFinishedController.ts';
import { memberPodCidr } from './controllers/memberPodCidr.ts';
import { kubeletSimulator } from './controllers/kubeletSimulator.ts';
import { namespaceController } from './controllers/namespaceController.ts';
import { podScheduler } from './controllers/podScheduler.ts';
import { replicaSetController, replicationControllerController } from './controllers/replicaSetController.ts';
import { rootCaPublisher } from './controllers/rootCaPublisher.ts';
import { serviceAccountController } from './controllers/serviceAccountController.ts';
import { nodeLifecycleController } from './controllers/nodeLifecycleController.ts';
import { taintEvictionController } from './controllers/taintEvictionController.ts';
import { disruptionController } from './controllers/disruptionController.ts';
import { resourceQuotaController } from './controllers/resourceQuotaController.ts';
import { volumeClaimController } from './controllers/volumeClaimController.ts';
import { statefulSetController } from './controllers/statefulSetController.ts';
import type { ControllerDeps } from './controllers/ControllerDeps.ts';
import { MemberFaults } from './faults.ts';
import { handleRequest } from './http/handleRequest.ts';
import type { ServerContext } from './http/ServerContext.ts';
import { crdResourceTypes } from './resources/crdResourceTypes.ts';
import { defaultObject } from './resources/defaultObject.ts';
import { ResourceRegistry } from './resources/ResourceRegistry.ts';
import { ObjectStore } from './store/ObjectStore.ts';
import { readState, writeState } from './store/persistState.ts';
import { readOrCreateTls } from './tls/readOrCreateTls.ts';
import type { NodeSpec } from './types.ts';
import { formatTime } from '../time/formatTime.ts';

export interface MemberOptions {
  /** Cluster name; also the kubeconfig context, cluster and user name. */
  name: string;
  /** 0 = ephemeral. Default: the port this dataDir last served on, else ephemeral. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Holds state.json, tls/ and the token; created if missing. */
  dataDir: string;
  /** Default: three nodes of 8 CPU / 32Gi / 110 pods. */
  nodes?: NodeSpec[];
  /**
   * The cluster's pod CIDR, a /16 such as `10.200.0.0/16`; node N gets its Nth /24 and pods their IPs from it.
   * Default: one derived from the name (memberPodCidr), so members' pod IPs differ. Read when nodes are created.
   */
  podCidr?: string;
  /** Pod bound → Running and Ready after this long. Default 500 ms. */
  readyDelayMs?: number;
  /** Job pod Running → Succeeded after this long. Default: readyDelayMs. */
  jobPodDurationMs?: number;
  /** Bearer token clients must send. Default: the one stored in dataDir, else a new random one. */
  token?: string;
  /** Idle interval between watch BOOKMARKs. Default 10 s (client-node reconnects after 30 s of silence). */
  bookmarkIntervalMs?: number;
  /** How long a read at a resourceVersion ahead of the store waits before its 504. Default 3 s (the watch cache's). */
  freshReadTimeoutMs?: number;
  /** Write-behind delay before state.json is rewritten. Default 100 ms. */
  persistDelayMs?: number;
  /**
   * The HPA controller's sync period, downscale stabilization window, tolerance, CPU initialization period,
   * initial readiness delay and clock; each defaults to kube-controller-manager's (15 s, 5 min, 0.1, 5 min, 30 s)
   * and the member's clock.
   */
  hpa?: HpaControllerOptions;
  /** Controller errors; default writes one line to stderr. */
  onError?: (controller: string, key: string, error: unknown) => void;
}

export interface Member {
  readonly name: string;
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly caPem: string;
  readonly token: string;
  readonly dataDir: string;
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly faults: MemberFaults;
  /**
   * API requests received, by HTTP method, counted as they arrive (before auth or faults): a client's writes
   * (POST/PUT/PATCH/DELETE) show up here and nowhere else, since the simulated controllers write to the store directly.
   */
  readonly requestsByMethod: ReadonlyMap<string, number>;
  /** Resolves once the simulated controllers have nothing queued (timers such as pod readiness may still run). */
  settled(): Promise<void>;
  /** Writes state now (normally write-behind). */
  flush(): void;
  stop(): Promise<void>;
}

const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const INFO_FILE = 'member.json';

function readOrCreateToken(dataDir: string, given: string | undefined): string {
  const file = path.join(dataDir, 'token');
  if (given) {
    writeFileSync(file, given, { mode: 0o600 });
    return given;
  }
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = randomBytes(24).toString('base64url');
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}

/**
 * The data dir holds the CA key, the bearer token and every stored Secret. `mode` only applies to files a write
 * creates, so a dir made by hand, unpacked from a backup or created under a loose umask keeps group and world
 * access unless it is tightened here, on every start.
 */
function restrictToOwner(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) restrictToOwner(full);
    else if (entry.isFile()) chmodSync(full, 0o600);
  }
}

function lastPort(dataDir: string): number {
  try {
    return Number(JSON.parse(readFileSync(path.join(dataDir, INFO_FILE), 'utf8')).port) || 0;
  } catch {
    return 0;
  }
}

/**
 * Starts one emulated member cluster: HTTPS with its own CA and a bearer token, the Kubernetes API over an
 * in-memory store persisted to dataDir, and simulated controllers, scheduler and kubelet.
 */
export async function startMember(options: MemberOptions): Promise<Member> {
  const { name, dataDir } = options;
  const host = options.host ?? '127.0.0.1';
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  restrictToOwner(dataDir);
  const tls = readOrCreateTls(dataDir, name);
  const token = readOrCreateToken(dataDir, options.token);
  // The member's own clock: the wall clock plus the clock-skew fault knob (set once the knobs exist, below).
  let skewMs = () => 0;
  const memberNow = () => new Date(Date.now() + skewMs());
  const timestamp = () => formatTime(memberNow());

  const registry = new ResourceRegistry();
  const store = new ObjectStore(undefined, memberNow);
  const saved = readState(dataDir);
  if (saved) {
    store.restore(saved.objects, saved.resourceVersion);
    for (const { object } of saved.objects) {
      if (object.kind === 'CustomResourceDefinition')
        registry.setCrdTypes(object.metadata.name!, crdResourceTypes(object));
    }
  }
  for (const ns of DEFAULT_NAMESPACES) {
    if (store.get('/namespaces', undefined, ns)) continue;
    const object = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
    defaultObject('Namespace', object, () => '');
    store.create(registry.byResourceKey('/namespaces')!, object);
  }
  const podCidr = options.podCidr ?? memberPodCidr(name);
  if (!/^(\d{1,3})\.(\d{1,3})\.0\.0\/16$/.test(podCidr))
    throw new Error(`member ${name}: podCidr must be a /16 such as 10.200.0.0/16, got "${podCidr}"`);
  (options.nodes ?? defaultNodes(name)).forEach((spec, index) => {
    if (!store.get('/nodes', undefined, spec.name))
      store.create(registry.byResourceKey('/nodes')!, buildNode(spec, index, timestamp(), podCidr));
  });
  if (!store.get('/services', 'default', 'kubernetes')) {
    store.create(registry.byResourceKey('/services')!, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { component: 'apiserver', provider: 'kubernetes' },
      },
      spec: {
        type: 'ClusterIP',
        clusterIP: '10.96.0.1',
        clusterIPs: ['10.96.0.1'],
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
        sessionAffinity: 'None',
      },
    });
  }

  const readyDelayMs = options.readyDelayMs ?? 500;
  const deps: ControllerDeps = {
    store,
    registry,
    now: timestamp,
    readyDelayMs,
    jobPodDurationMs: options.jobPodDurationMs ?? readyDelayMs,
  };
  const crds = crdController(deps);
  store.subscribe((event) => crds.register(event));
  // A namespace's default ServiceAccount comes first, so workload controllers draining in the same round find it.
  const controllers = new ControllerManager(
    store,
    [
      serviceAccountController(deps),
      rootCaPublisher(deps, tls.caPem),
      crds,
      garbageCollector(store, registry),
      namespaceController(deps),
      nodeLifecycleController(deps),
      deploymentController(deps),
      replicaSetController(deps),
      replicationControllerController(deps),
      statefulSetController(deps),
      daemonSetController(deps),
      jobController(deps),
      ttlAfterFinishedController(deps),
      cronJobController(deps),
      volumeClaimController(deps),
      disruptionController(deps),
      resourceQuotaController(deps),
      podScheduler(deps),
      taintEvictionController(deps),
      kubeletSimulator(deps),
      endpointSliceController(deps),
      endpointsController(deps),
      apiServiceController(deps),
      horizontalPodAutoscalerController(deps, { now: () => memberNow().getTime(), ...options.hpa }),
    ],
    options.onError ??
      ((controller, key, error) =>
        process.stderr.write(`member ${name}: ${controller} ${key}: ${(error as Error)?.stack ?? error}\n`)),
  );

  // Write-behind persistence: bursts of writes (a Deployment creating 50 pods) cost one file write.
  const persistDelayMs = options.persistDelayMs ?? 100;
  let persistTimer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (persistTimer) clearTimeout(persistTimer);
    persistTimer = undefined;
    writeState(dataDir, { resourceVersion: store.resourceVersion, objects: store.snapshot() });
  };
  store.subscribe(() => {
    persistTimer ??= setTimeout(flush, persistDelayMs);
  });

  const requestsByMethod = new Map<string, number>();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = options.port ?? lastPort(dataDir);
  let ctx: ServerContext;
  const listen = async (wanted: number): Promise<number> => {
    const next = createServer({ key: tls.keyPem, cert: tls.certPem, keepAliveTimeout: 30_000 }, (req, res) => {
      const method = req.method ?? 'GET';
      requestsByMethod.set(method, (requestsByMethod.get(method) ?? 0) + 1);
      void handleRequest(ctx, req, res);
    });
    next.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    next.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(wanted, host, () => {
        next.off('error', reject);
        resolve();
      });
    });
    server = next;
    return (next.address() as { port: number }).port;
  };
  const close = async () => {
    const current = server;
    server = undefined;
    if (!current) return;
    const closed = new Promise<void>((resolve) => current.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await closed;
  };
  const faults = new MemberFaults({ close, open: async () => void (await listen(port)) });
  skewMs = () => faults.clockSkewMs;
  ctx = {
    registry,
    store,
    faults,
    token,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 10_000,
    freshReadTimeoutMs: options.freshReadTimeoutMs ?? 3_000,
    now: memberNow,
    address: () => `${host}:${port}`,
  };
  try {
    port = await listen(port);
  } catch (error) {
    // The remembered port is taken: fall back to an ephemeral one (an explicit port is the caller's problem).
    if (options.port !== undefined || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    port = await listen(0);
  }
  writeFileSync(path.join(dataDir, INFO_FILE), JSON.stringify({ name, host, port }), { mode: 0o600 });
  controllers.start();

  let stopped = false;
  return {
    name,
    url: `https://${host}:${port}`,
    host,
    port,
    caPem: tls.caPem,
    token,
    dataDir,
    store,
    registry,
    faults,
    requestsByMethod,
    settled: () => controllers.idle(),
    flush,
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      controllers.stop();
      await close();
      flush();
    },
  };
}
