// Karmada's bundled interpreters for machine-learning and batch operators: Kubeflow (Notebook, PyTorchJob, TFJob,
// MPIJob), KubeRay (RayCluster, RayJob, RayService), Volcano's Job, the Spark operator's SparkApplication and the
// Flink operator's FlinkDeployment. Each kind implements the operations Karmada bundles for it, with the results
// Karmada gets back from its Lua VM (empty tables dropped, nil fields absent); the rest fall back to the native
// interpreter. Karmada's component interpretation (GetComponents) has no counterpart in Flotilla's interface.
import type { AggregatedStatusItem, Obj, ThirdPartyInterpreter, ThirdPartyTable } from './thirdPartyInterpreter.ts';
import {
  RAY_APP_PRIORITY,
  RAY_JOB_DEPLOYMENT_PRIORITY,
  RAY_JOB_STATUS_PRIORITY,
  SPARK_STATE_PRIORITY,
  VOLCANO_FAILED_PHASES,
  VOLCANO_HEALTHY_PHASES,
  copy,
  dependenciesResult,
  durationSeconds,
  earliest,
  field,
  fromLua,
  hasTrueCondition,
  isObj,
  itemsOrNil,
  later,
  latest,
  latestConditionByType,
  list,
  newPodRefs,
  num,
  numberOr,
  objAt,
  omitEmpty,
  podRequirements,
  priority,
  quantitySum,
  quantityValue,
  rayAggregate,
  rayReferences,
  requirementsResult,
  scanRayCluster,
  scanRayPodSpec,
  singleItemStatus,
  templateDependencies,
  toNumber,
  utcNow,
  withStatus,
} from './kubeflowRayBatchHelpers.ts';

// ---------------------------------------------------------------------------------------------------------------
// kubeflow.org/v1 Notebook

const notebook: ThirdPartyInterpreter = {
  getReplicas(desired) {
    const requirements = requirementsResult(podRequirements(field(desired, 'spec', 'template')));
    return requirements ? { replicas: 1, requirements } : { replicas: 1 };
  },

  interpretHealth(observed) {
    const state = objAt(observed, 'status', 'containerState');
    if (!state) return false;
    if (field(state, 'running') !== undefined) return true;
    if (field(state, 'waiting') !== undefined) return field(state, 'waiting', 'reason') === 'ContainerCreating';
    if (field(state, 'terminated') !== undefined) {
      const reason = field(state, 'terminated', 'reason') ?? '';
      const exitCode = field(state, 'terminated', 'exitCode') ?? 0;
      return !['Error', 'OOMKilled', 'ContainerCannotRun'].includes(reason as string) && exitCode === 0;
    }
    return false;
  },

  aggregateStatus(desired, allItems) {
    const items = itemsOrNil(allItems);
    if (!items) return fromLua(desired);
    if (items.length === 1) return fromLua(singleItemStatus(desired, items));
    let readyReplicas = 0;
    let ready = 0;
    const failed: string[] = [];
    let containerState: Obj | undefined;
    let latestStart: unknown;
    for (const item of items) {
      if (!isObj(item.status)) continue;
      readyReplicas += num(item.status.readyReplicas);
      const cs = field(item.status, 'containerState');
      const empty = cs === undefined || (isObj(cs) && Object.keys(cs).length === 0);
      if (empty || field(cs, 'terminated') !== undefined || field(cs, 'waiting') !== undefined) {
        failed.push(item.clusterName);
        containerState = empty ? { waiting: { reason: 'Unschedulable' } } : (cs as Obj);
      } else if (field(cs, 'running') !== undefined && failed.length === 0) {
        ready++;
        const startedAt = field(cs, 'running', 'startedAt');
        if (containerState === undefined) {
          containerState = { running: { startedAt } };
          latestStart = startedAt;
        } else if (startedAt !== undefined && (latestStart === undefined || later(startedAt, latestStart))) {
          latestStart = startedAt;
          containerState = { ...containerState, running: { startedAt } };
        }
      }
    }
    const conditions: Obj[] = [];
    const now = utcNow();
    if (failed.length > 0)
      conditions.push({
        type: 'Failed',
        status: 'True',
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: 'NotebookFailed',
        message: `Notebook executed failed in member clusters: ${failed.join(', ')}`,
      });
    if (ready === items.length && ready > 0)
      conditions.push({
        type: 'Ready',
        status: 'True',
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: 'Ready',
        message: 'All notebooks are ready',
      });
    return withStatus(desired, { readyReplicas, containerState, conditions });
  },

  reflectStatus(observed) {
    const s = field(observed, 'status');
    if (s === undefined) return {};
    const conditions = field(s, 'conditions');
    return fromLua({
      readyReplicas: field(s, 'readyReplicas') ?? 0,
      containerState: field(s, 'containerState') ?? {},
      conditions: typeof conditions === 'object' ? conditions : {},
    });
  },
};

// ---------------------------------------------------------------------------------------------------------------
// kubeflow.org/v1 PyTorchJob and TFJob: training jobs made of replica types

interface TrainingJob {
  /** The field under spec holding the replica specs. */
  specsField: string;
  replicaTypes: readonly string[];
  /** PyTorchJob's aggregation also reports Created and Running; TFJob's only the outcome. */
  aggregateConditions(
    items: readonly AggregatedStatusItem[],
    times: JobTimes,
  ): { conditions: Obj[]; succeeded: boolean };
}

interface JobTimes {
  startTime: unknown;
  completionTime: unknown;
}

function failedWhen(conditions: unknown): boolean {
  return hasTrueCondition(conditions, 'Failed');
}

function trainingJob(job: TrainingJob): ThirdPartyInterpreter {
  return {
    interpretHealth(observed) {
      const conditions = field(observed, 'status', 'conditions');
      if (conditions === undefined) return false;
      return !failedWhen(conditions);
    },

    getDependencies(desired) {
      const specs = objAt(desired, 'spec', job.specsField);
      if (!specs) return [];
      const refs: Obj[] = [];
      for (const type of job.replicaTypes) {
        const template = field(specs, type, 'template');
        if (template !== undefined)
          refs.push(...templateDependencies(template, field(desired, 'metadata', 'namespace')));
      }
      return dependenciesResult(refs);
    },

    aggregateStatus(desired, allItems) {
      const items = itemsOrNil(allItems);
      const status: Obj = isObj(desired.status) ? copy(desired.status) : {};
      if (!items) {
        delete status.startTime;
        delete status.completionTime;
        return withStatus(desired, { ...status, replicaStatuses: {}, conditions: [] });
      }
      const times: JobTimes = { startTime: undefined, completionTime: undefined };
      let lastReconcileTime: unknown;
      const replicaStatuses: Record<string, { active: number; failed: number; succeeded: number }> = {};
      for (const type of job.replicaTypes) replicaStatuses[type] = { active: 0, failed: 0, succeeded: 0 };
      for (const item of items) {
        const s = item.status;
        if (!isObj(s)) continue;
        times.startTime = earliest(times.startTime, field(s, 'startTime'));
        times.completionTime = latest(times.completionTime, field(s, 'completionTime'));
        lastReconcileTime = latest(lastReconcileTime, field(s, 'lastReconcileTime'));
        for (const type of job.replicaTypes) {
          const counts = objAt(s, 'replicaStatuses', type);
          const sum = replicaStatuses[type];
          if (!counts || !sum) continue;
          sum.active += num(counts.active);
          sum.failed += num(counts.failed);
          sum.succeeded += num(counts.succeeded);
        }
      }
      const { conditions, succeeded } = job.aggregateConditions(items, times);
      if (succeeded) status.completionTime = times.completionTime;
      status.startTime = times.startTime;
      status.lastReconcileTime = lastReconcileTime;
      status.replicaStatuses = replicaStatuses;
      status.conditions = conditions;
      return withStatus(desired, omitEmpty(status));
    },
  };
}

const pytorchJob = trainingJob({
  specsField: 'pytorchReplicaSpecs',
  replicaTypes: ['Master', 'Worker'],
  aggregateConditions(items, times) {
    const failed: string[] = [];
    let succeededClusters = 0;
    let createdClusters = 0;
    let running: Obj | undefined;
    for (const item of items) {
      if (!isObj(item.status)) continue;
      const conditions = item.status.conditions;
      if (failedWhen(conditions)) failed.push(item.clusterName);
      else if (hasTrueCondition(conditions, 'Succeeded')) succeededClusters++;
      if (hasTrueCondition(conditions, 'Created')) createdClusters++;
      // The last Running condition seen gives the times, whatever its status.
      for (const c of list(conditions)) if (field(c, 'type') === 'Running') running = c as Obj;
    }
    const allSucceeded = succeededClusters === items.length && succeededClusters > 0;
    const conditions: Obj[] = [];
    if (createdClusters > 0)
      conditions.push({
        type: 'Created',
        status: 'True',
        lastUpdateTime: times.startTime,
        lastTransitionTime: times.startTime,
        reason: 'PyTorchJobCreated',
        message: 'PyTorchJob is created.',
      });
    if (running)
      conditions.push({
        type: 'Running',
        status: failed.length > 0 || succeededClusters === items.length ? 'False' : 'True',
        lastUpdateTime: field(running, 'lastUpdateTime'),
        lastTransitionTime: field(running, 'lastTransitionTime'),
        reason: 'PyTorchJobRunning',
        message: 'PyTorchJob is running.',
      });
    if (failed.length > 0)
      conditions.push({
        type: 'Failed',
        status: 'True',
        lastUpdateTime: times.completionTime,
        lastTransitionTime: times.completionTime,
        reason: 'PyTorchJobFailed',
        message: `PyTorchJob executed failed in member clusters: ${failed.join(', ')}`,
      });
    else if (allSucceeded)
      conditions.push({
        type: 'Succeeded',
        status: 'True',
        lastUpdateTime: times.completionTime,
        lastTransitionTime: times.completionTime,
        reason: 'PyTorchJobSucceeded',
        message: 'PyTorchJob is successfully completed.',
      });
    return { conditions, succeeded: failed.length === 0 && allSucceeded };
  },
});

const tfJob = trainingJob({
  specsField: 'tfReplicaSpecs',
  replicaTypes: ['PS', 'Worker', 'Chief', 'Master', 'Evaluator'],
  aggregateConditions(items) {
    const failed: string[] = [];
    let succeededClusters = 0;
    for (const item of items) {
      if (!isObj(item.status)) continue;
      // A member's outcome is the last finished condition it lists.
      let outcome: unknown;
      for (const c of list(item.status.conditions)) {
        const type = field(c, 'type');
        if ((type === 'Succeeded' || type === 'Failed') && field(c, 'status') === 'True') outcome = type;
      }
      if (outcome === 'Succeeded') succeededClusters++;
      else if (outcome === 'Failed') failed.push(item.clusterName);
    }
    const now = utcNow();
    const conditions: Obj[] = [];
    if (failed.length > 0)
      conditions.push({
        type: 'Failed',
        status: 'True',
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: 'TFJobFailed',
        message: `TFJob executed failed in member clusters: ${failed.join(', ')}`,
      });
    const succeeded = succeededClusters === items.length && succeededClusters > 0;
    if (succeeded)
      conditions.push({
        type: 'Succeeded',
        status: 'True',
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: 'Completed',
        message: 'TFJob completed successfully',
      });
    return { conditions, succeeded };
  },
});

// ---------------------------------------------------------------------------------------------------------------
// kubeflow.org/v2beta1 MPIJob

const mpiJob: ThirdPartyInterpreter = {
  interpretHealth(observed) {
    const conditions = list(field(observed, 'status', 'conditions'));
    return conditions.length > 0 && !failedWhen(conditions);
  },

  aggregateStatus(desired, allItems) {
    const items = itemsOrNil(allItems);
    if (!items) return fromLua(desired);
    if (items.length === 1) return fromLua(singleItemStatus(desired, items));
    const replicaStatuses: Record<string, { active: number; succeeded: number; failed: number }> = {};
    let startTime: unknown;
    let completionTime: unknown;
    let lastReconcileTime: unknown;
    const set = (v: unknown) => (v === '' ? undefined : v);
    for (const item of items) {
      const s = item.status;
      if (!isObj(s)) continue;
      for (const [type, counts] of Object.entries(objAt(s, 'replicaStatuses') ?? {})) {
        const sum = (replicaStatuses[type] ??= { active: 0, succeeded: 0, failed: 0 });
        sum.active += num(field(counts, 'active'));
        sum.succeeded += num(field(counts, 'succeeded'));
        sum.failed += num(field(counts, 'failed'));
      }
      startTime = earliest(startTime, set(field(s, 'startTime')));
      completionTime = latest(completionTime, set(field(s, 'completionTime')));
      lastReconcileTime = latest(lastReconcileTime, set(field(s, 'lastReconcileTime')));
    }
    const conditions = latestConditionByType(items, (c) => c.lastUpdateTime ?? c.lastTransitionTime);
    const status = omitEmpty({ replicaStatuses, conditions, startTime, completionTime, lastReconcileTime }, false);
    return withStatus(desired, status ?? {});
  },

  reflectStatus(observed) {
    const s = field(observed, 'status');
    if (s === undefined) return {};
    const replicaStatuses: Obj = {};
    for (const [type, v] of Object.entries(objAt(s, 'replicaStatuses') ?? {})) {
      if (v === undefined || v === null) continue;
      replicaStatuses[type] = {
        active: field(v, 'active'),
        succeeded: field(v, 'succeeded'),
        failed: field(v, 'failed'),
        selector: field(v, 'selector'),
      };
    }
    return fromLua({
      replicaStatuses,
      conditions: list(field(s, 'conditions')),
      startTime: field(s, 'startTime'),
      completionTime: field(s, 'completionTime'),
      lastReconcileTime: field(s, 'lastReconcileTime'),
    });
  },
};

// ---------------------------------------------------------------------------------------------------------------
// ray.io/v1 RayCluster, RayJob, RayService

const rayCluster: ThirdPartyInterpreter = {
  interpretHealth(observed) {
    const conditions = field(observed, 'status', 'conditions');
    if (conditions === undefined) return false;
    return (
      hasTrueCondition(conditions, 'HeadPodReady') &&
      hasTrueCondition(conditions, 'RayClusterProvisioned') &&
      !hasTrueCondition(conditions, 'RayClusterReplicaFailure')
    );
  },

  aggregateStatus(desired, items) {
    return rayAggregate(desired, items, (members, status) => {
      const conditions: unknown[] = [];
      const sums = {
        readyWorkerReplicas: 0,
        availableWorkerReplicas: 0,
        maxWorkerReplicas: 0,
        minWorkerReplicas: 0,
        desiredWorkerReplicas: 0,
      };
      let desiredCPU = '0';
      let desiredMemory = '0';
      let desiredGPU = 0;
      let desiredTPU = 0;
      let lastUpdateTime: unknown;
      let endpoints: unknown;
      let head: unknown;
      let state: unknown;
      let stateTransitionTimes: unknown;
      const count = (v: unknown, name: string): number => {
        const n = toNumber(v);
        if (n === undefined) throw new Error(`attempt to perform arithmetic on a nil value (${name})`);
        return n;
      };
      for (const item of members) {
        const s = item.status;
        if (!isObj(s)) continue;
        conditions.push(...list(s.conditions));
        for (const key of Object.keys(sums) as (keyof typeof sums)[])
          if (s[key] !== undefined && s[key] !== null) sums[key] += count(s[key], key);
        const present = (v: unknown) => v !== undefined && v !== null && v !== '';
        if (present(s.desiredCPU)) desiredCPU = quantitySum(desiredCPU, s.desiredCPU);
        if (present(s.desiredGPU)) desiredGPU += count(s.desiredGPU, 'desiredGPU');
        if (present(s.desiredTPU)) desiredTPU += count(s.desiredTPU, 'desiredTPU');
        if (present(s.desiredMemory)) desiredMemory = quantitySum(desiredMemory, s.desiredMemory);
        lastUpdateTime = latest(lastUpdateTime, field(s, 'lastUpdateTime'));
        endpoints ??= field(s, 'endpoints');
        head ??= field(s, 'head');
        if (state === undefined && field(s, 'state') !== undefined) {
          state = s.state;
          stateTransitionTimes = field(s, 'stateTransitionTimes');
        }
      }
      return {
        ...status,
        conditions,
        ...sums,
        desiredCPU,
        desiredGPU: String(desiredGPU),
        desiredTPU: String(desiredTPU),
        desiredMemory,
        lastUpdateTime,
        endpoints,
        head,
        state,
        stateTransitionTimes,
      };
    });
  },
};

const rayJob: ThirdPartyInterpreter = {
  interpretHealth(observed) {
    const status = field(observed, 'status');
    if (status === undefined) return false;
    const deployment = field(status, 'jobDeploymentStatus');
    const job = field(status, 'jobStatus');
    return deployment === 'Running' || (deployment === 'Complete' && job === 'SUCCEEDED');
  },

  aggregateStatus(desired, items) {
    return rayAggregate(desired, items, (members, status) => {
      let worstDeployment = -1;
      let worstJob = -1;
      const out: Obj = {
        ...status,
        jobStatus: undefined,
        jobDeploymentStatus: undefined,
        reason: undefined,
        message: undefined,
      };
      for (const item of members) {
        const s = item.status;
        if (!isObj(s)) continue;
        const deployment = field(s, 'jobDeploymentStatus');
        if (deployment !== undefined) {
          const p = priority(RAY_JOB_DEPLOYMENT_PRIORITY, deployment);
          if (p > worstDeployment) {
            worstDeployment = p;
            out.jobDeploymentStatus = deployment;
            out.reason = field(s, 'reason');
            out.message = field(s, 'message');
          }
        }
        const job = field(s, 'jobStatus');
        if (job !== undefined && job !== '') {
          const p = priority(RAY_JOB_STATUS_PRIORITY, job);
          if (p > worstJob) {
            worstJob = p;
            out.jobStatus = job;
          }
        }
      }
      return out;
    });
  },

  getDependencies(desired) {
    const refs = newPodRefs();
    const cluster = objAt(desired, 'spec', 'rayClusterSpec');
    if (cluster) scanRayCluster(cluster, refs);
    scanRayPodSpec(objAt(desired, 'spec', 'submitterPodTemplate', 'spec'), refs);
    return dependenciesResult(rayReferences(refs, field(desired, 'metadata', 'namespace')));
  },
};

const rayService: ThirdPartyInterpreter = {
  /** One head plus every worker group's replicas; per replica, the largest cpu and memory of any group. */
  getReplicas(desired) {
    const config = objAt(desired, 'spec', 'rayClusterConfig');
    const headTemplate = field(config, 'headGroupSpec', 'template');
    if (!config || headTemplate === undefined) return { replicas: 0 };
    let replicas = 1;
    const requires = podRequirements(headTemplate);
    const headRequest = objAt(requires, 'resourceRequest');
    const max = {
      cpu: { value: 0, text: undefined as unknown },
      memory: { value: 0, text: undefined as unknown },
    };
    for (const name of ['cpu', 'memory'] as const) {
      const text = field(headRequest, name);
      if (text !== undefined) max[name] = { value: quantityValue(text), text };
    }
    for (const group of list(config.workerGroupSpecs)) {
      replicas += num(field(group, 'replicas'));
      const template = field(group, 'template');
      if (template === undefined) continue;
      const request = objAt(podRequirements(template), 'resourceRequest');
      for (const name of ['cpu', 'memory'] as const) {
        const text = field(request, name);
        if (text === undefined) continue;
        const value = quantityValue(text);
        if (value > max[name].value) max[name] = { value, text };
      }
    }
    if (requires && (max.cpu.text !== undefined || max.memory.text !== undefined)) {
      const request: Obj = { ...(objAt(requires, 'resourceRequest') ?? {}) };
      if (max.cpu.text !== undefined) request.cpu = max.cpu.text;
      if (max.memory.text !== undefined) request.memory = max.memory.text;
      requires.resourceRequest = request;
    }
    const requirements = requirementsResult(requires);
    return requirements ? { replicas, requirements } : { replicas };
  },

  /** The head keeps its one replica; the rest go to the worker groups, in proportion to what they have. */
  reviseReplica(desired, replicas) {
    const out = copy(desired);
    const groups = field(out, 'spec', 'rayClusterConfig', 'workerGroupSpecs');
    if (!Array.isArray(groups) || groups.length === 0) return fromLua(out, [desired]);
    const workers = Math.max(0, Math.trunc(replicas) - 1);
    const groupObjs = groups as Obj[];
    if (groupObjs.length === 1) {
      (groupObjs[0] as Obj).replicas = workers;
      return fromLua(out, [desired]);
    }
    const currentTotal = groupObjs.reduce((sum, g) => sum + num(g.replicas), 0);
    if (workers === 0) {
      for (const g of groupObjs) g.replicas = 0;
      return fromLua(out, [desired]);
    }
    let distributed = 0;
    groupObjs.forEach((g, i) => {
      if (i === groupObjs.length - 1) g.replicas = workers - distributed;
      else {
        g.replicas =
          currentTotal === 0
            ? Math.floor(workers / groupObjs.length) + (i + 1 <= workers % groupObjs.length ? 1 : 0)
            : Math.floor(workers * (num(g.replicas) / currentTotal) + 0.5);
        distributed += g.replicas as number;
      }
    });
    return fromLua(out, [desired]);
  },

  interpretHealth(observed) {
    const conditions = field(observed, 'status', 'conditions');
    return conditions !== undefined && hasTrueCondition(conditions, 'Ready');
  },

  aggregateStatus(desired, items) {
    return rayAggregate(desired, items, (members, status) => {
      const conditions: unknown[] = [];
      let numServeEndpoints = 0;
      let lastUpdateTime: unknown;
      let observedGeneration = 0;
      let serviceStatus = 'Running';
      let active: Obj | undefined;
      let pending: unknown;
      const apps = new Map<string, unknown>();
      for (const item of members) {
        const s = item.status;
        if (!isObj(s)) continue;
        conditions.push(...list(s.conditions));
        numServeEndpoints += num(s.numServeEndpoints);
        lastUpdateTime = latest(lastUpdateTime, field(s, 'lastUpdateTime'));
        const generation = field(s, 'observedGeneration');
        if (generation !== undefined && later(generation, observedGeneration))
          observedGeneration = generation as number;
        if (s.serviceStatus === '') serviceStatus = '';
        const activeStatus = field(s, 'activeServiceStatus');
        if (activeStatus !== undefined) {
          active ??= copy(activeStatus as Obj);
          for (const [name, app] of Object.entries(objAt(activeStatus, 'applicationStatuses') ?? {})) {
            const current = priority(RAY_APP_PRIORITY, field(app, 'status'));
            const existing = apps.has(name) ? priority(RAY_APP_PRIORITY, field(apps.get(name), 'status')) : -1;
            if (current > existing) apps.set(name, app);
          }
        }
        pending ??= field(s, 'pendingServiceStatus');
      }
      return {
        ...status,
        conditions,
        numServeEndpoints,
        lastUpdateTime,
        observedGeneration,
        serviceStatus,
        ...(active ? { activeServiceStatus: { ...active, applicationStatuses: Object.fromEntries(apps) } } : {}),
        ...(pending !== undefined ? { pendingServiceStatus: pending } : {}),
      };
    });
  },

  getDependencies(desired) {
    const refs = newPodRefs();
    const cluster = objAt(desired, 'spec', 'rayClusterConfig');
    if (cluster) scanRayCluster(cluster, refs);
    return dependenciesResult(rayReferences(refs, field(desired, 'metadata', 'namespace')));
  },
};

// ---------------------------------------------------------------------------------------------------------------
// batch.volcano.sh/v1alpha1 Job

const volcanoJob: ThirdPartyInterpreter = {
  interpretHealth(observed) {
    const phase = field(observed, 'status', 'state', 'phase');
    return typeof phase === 'string' && VOLCANO_HEALTHY_PHASES.has(phase);
  },

  aggregateStatus(desired, allItems) {
    const items = itemsOrNil(allItems);
    if (!items) return fromLua(desired);
    if (items.length === 1) return fromLua(singleItemStatus(desired, items));
    const counters = [
      'minAvailable',
      'pending',
      'running',
      'succeeded',
      'failed',
      'terminating',
      'unknown',
      'retryCount',
    ] as const;
    const status: Obj = { state: {}, version: 0, runningDuration: '0s', taskStatusCount: {}, controlledResources: {} };
    for (const name of counters) status[name] = 0;
    const tasks = status.taskStatusCount as Record<string, { phase: Record<string, number> }>;
    const failedClusters: string[] = [];
    let completedClusters = 0;
    let failedConditions: unknown[] | undefined;
    const latestByStatus = new Map<unknown, Obj>();
    for (const item of items) {
      const s = item.status;
      if (!isObj(s)) continue;
      for (const name of counters) status[name] = (status[name] as number) + num(s[name]);
      status.version = Math.max(status.version as number, num(s.version));
      if (durationSeconds(s.runningDuration) > durationSeconds(status.runningDuration))
        status.runningDuration = s.runningDuration;
      for (const [task, taskStatus] of Object.entries(objAt(s, 'taskStatusCount') ?? {})) {
        const into = (tasks[task] ??= { phase: {} });
        for (const [phase, count] of Object.entries(objAt(taskStatus, 'phase') ?? {}))
          into.phase[phase] = (into.phase[phase] ?? 0) + (count as number);
      }
      Object.assign(status.controlledResources as Obj, objAt(s, 'controlledResources') ?? {});
      if (s.conditions !== undefined && s.conditions !== null) {
        let clusterFailed = false;
        for (const c of list(s.conditions)) {
          const phase = field(c, 'status');
          if (typeof phase === 'string' && VOLCANO_FAILED_PHASES.has(phase)) clusterFailed = true;
          if (clusterFailed) continue;
          const existing = latestByStatus.get(phase);
          if (existing === undefined || later(field(c, 'lastTransitionTime'), existing.lastTransitionTime))
            latestByStatus.set(phase, c as Obj);
        }
        if (clusterFailed && (failedConditions === undefined || failedConditions.length === 0))
          failedConditions = list(s.conditions);
      }
      const phase = field(s, 'state', 'phase');
      if (phase === 'Completed') completedClusters++;
      else if (phase === 'Failed' || phase === 'Aborted') failedClusters.push(item.clusterName);
    }
    const state = status.state as Obj;
    if (failedClusters.length > 0)
      Object.assign(state, {
        phase: 'Failed',
        reason: 'VolcanoJobFailed',
        message: `Job failed in clusters: ${failedClusters.join(',')}`,
        lastTransitionTime: utcNow(),
      });
    if (completedClusters === items.length && completedClusters > 0)
      Object.assign(state, {
        phase: 'Completed',
        reason: 'Completed',
        message: 'Job completed successfully',
        lastTransitionTime: utcNow(),
      });
    status.conditions = failedConditions ?? [...latestByStatus.values()];
    return withStatus(desired, omitEmpty(status) ?? {});
  },

  reflectStatus(observed) {
    const s = field(observed, 'status');
    if (s === undefined) return {};
    const pick = (name: string) => field(s, name);
    return fromLua({
      minAvailable: pick('minAvailable'),
      pending: pick('pending'),
      running: pick('running'),
      succeeded: pick('succeeded'),
      failed: pick('failed'),
      terminating: pick('terminating'),
      unknown: pick('unknown'),
      version: pick('version'),
      retryCount: pick('retryCount'),
      runningDuration: pick('runningDuration'),
      taskStatusCount: { ...(objAt(s, 'taskStatusCount') ?? {}) },
      controlledResources: { ...(objAt(s, 'controlledResources') ?? {}) },
      state: pick('state'),
      conditions: list(pick('conditions')),
    });
  },
};

// ---------------------------------------------------------------------------------------------------------------
// sparkoperator.k8s.io/v1beta2 SparkApplication

const SPARK_STATUS_FIELDS = [
  'applicationState',
  'driverInfo',
  'executorState',
  'sparkApplicationId',
  'lastSubmissionAttemptTime',
  'submissionAttempts',
  'executionAttempts',
  'submissionID',
  'terminationTime',
] as const;

const sparkApplication: ThirdPartyInterpreter = {
  interpretHealth(observed) {
    const state = field(observed, 'status', 'applicationState', 'state');
    return state !== undefined && state !== false && state !== 'FAILED';
  },

  aggregateStatus(desired, allItems) {
    const items = itemsOrNil(allItems);
    if (!items) return fromLua(desired);
    if (items.length === 1) return fromLua(singleItemStatus(desired, items));
    let applicationState: unknown = {};
    let worst = -1;
    let executionAttempts = 0;
    let submissionAttempts = 0;
    let lastSubmissionAttemptTime: unknown = '';
    let terminationTime: unknown = '';
    const executorState: Obj = {};
    for (const item of items) {
      const s = item.status;
      if (!isObj(s)) continue;
      const appState = field(s, 'applicationState');
      if (appState !== undefined) {
        const state = field(appState, 'state');
        if (typeof state !== 'string' || !Object.hasOwn(SPARK_STATE_PRIORITY, state))
          throw new Error('attempt to compare nil with number');
        const p = SPARK_STATE_PRIORITY[state] as number;
        if (p > worst) {
          worst = p;
          applicationState = appState;
        }
      }
      executionAttempts += num(s.executionAttempts);
      submissionAttempts += num(s.submissionAttempts);
      const submitted = field(s, 'lastSubmissionAttemptTime');
      if (
        submitted !== undefined &&
        submitted !== false &&
        (lastSubmissionAttemptTime === '' || later(submitted, lastSubmissionAttemptTime))
      )
        lastSubmissionAttemptTime = submitted;
      const terminated = field(s, 'terminationTime');
      if (
        terminated !== undefined &&
        terminated !== false &&
        (terminationTime === '' || later(terminated, terminationTime))
      )
        terminationTime = terminated;
      Object.assign(executorState, objAt(s, 'executorState') ?? {});
    }
    const status: Obj = isObj(desired.status) ? copy(desired.status) : {};
    return withStatus(desired, {
      ...status,
      applicationState,
      executionAttempts,
      executorState,
      submissionAttempts,
      lastSubmissionAttemptTime,
      terminationTime,
    });
  },

  reflectStatus(observed) {
    const s = field(observed, 'status');
    if (s === undefined) return {};
    return fromLua(Object.fromEntries(SPARK_STATUS_FIELDS.map((name) => [name, field(s, name)])));
  },
};

// ---------------------------------------------------------------------------------------------------------------
// flink.apache.org/v1beta1 FlinkDeployment

/** Errors that mean the user's deployment is at fault, not the member: the job is then left where it is. */
const FLINK_USER_ERRORS = ['ErrImagePull', 'ImagePullBackOff', 'CrashLoopBackOff'];
const FLINK_SETTLED_STATES = new Set([
  'RUNNING',
  'FINISHED',
  'FAILED',
  'CANCELED',
  'SUSPENDED',
  'CANCELLING',
  'FAILING',
  'RESTARTING',
]);
const FLINK_STARTING_STATES = new Set(['CREATED', 'INITIALIZING', 'RECONCILING']);
const FLINK_STATUS_FIELDS = [
  'clusterInfo',
  'error',
  'jobManagerDeploymentStatus',
  'jobStatus',
  'observedGeneration',
  'lifecycleState',
  'reconciliationStatus',
  'taskManager',
] as const;

const flinkDeployment: ThirdPartyInterpreter = {
  interpretHealth(observed) {
    const status = field(observed, 'status') ?? {};
    const state = field(status, 'jobStatus', 'state');
    if (state === undefined)
      return field(status, 'jobManagerDeploymentStatus') === 'READY' && field(status, 'lifecycleState') === 'STABLE';
    if (typeof state === 'string' && FLINK_SETTLED_STATES.has(state)) return true;
    if (typeof state === 'string' && FLINK_STARTING_STATES.has(state)) {
      const error = field(status, 'error');
      if (error === undefined || error === false || error === '') return false;
      if (typeof error !== 'string' && typeof error !== 'number')
        throw new Error('bad argument #1 to find (string expected)');
      return FLINK_USER_ERRORS.some((allowed) => String(error).includes(allowed));
    }
    return false;
  },

  /** Job manager replicas plus task managers (set, or parallelism over slots); per replica, the larger cpu and memory. */
  getReplicas(desired) {
    const spec = field(desired, 'spec');
    const jobManagers = numberOr(field(spec, 'jobManager', 'replicas'), 1);
    let taskManagers = numberOr(field(spec, 'taskManager', 'replicas'), undefined);
    if (taskManagers === undefined) {
      const parallelism = numberOr(field(spec, 'job', 'parallelism'), undefined);
      const slots = numberOr(field(spec, 'flinkConfiguration', 'taskmanager.numberOfTaskSlots'), undefined);
      taskManagers =
        parallelism === undefined || slots === undefined || slots === 0 ? 1 : Math.ceil(parallelism / slots);
    }
    const resourceRequest: Obj = {};
    const tmCpu = field(spec, 'taskManager', 'resource', 'cpu');
    const jmCpu = field(spec, 'jobManager', 'resource', 'cpu');
    if (tmCpu !== undefined && jmCpu !== undefined) {
      const a = toNumber(tmCpu);
      const b = toNumber(jmCpu);
      if (a === undefined || b === undefined) throw new Error('bad argument to max (number expected)');
      resourceRequest.cpu = Math.max(a, b);
    } else resourceRequest.cpu = tmCpu ?? jmCpu;
    const jmMemory = field(spec, 'jobManager', 'resource', 'memory');
    const tmMemory = field(spec, 'taskManager', 'resource', 'memory');
    if (jmMemory !== undefined && tmMemory !== undefined)
      resourceRequest.memory = quantityValue(jmMemory) > quantityValue(tmMemory) ? jmMemory : tmMemory;
    else resourceRequest.memory = jmMemory ?? tmMemory;
    const requires: Obj = { resourceRequest, nodeClaim: {} };
    const podSpec = field(spec, 'podTemplate', 'spec');
    if (podSpec !== undefined) {
      requires.nodeClaim = { nodeSelector: field(podSpec, 'nodeSelector'), tolerations: field(podSpec, 'tolerations') };
      const priorityClassName = field(podSpec, 'priorityClassName');
      if (priorityClassName !== undefined && priorityClassName !== '') requires.priorityClassName = priorityClassName;
    }
    const namespace = field(desired, 'metadata', 'namespace');
    if (namespace !== undefined && namespace !== '') requires.namespace = namespace;
    return { replicas: Math.trunc(jobManagers + taskManagers), requirements: requirementsResult(requires) as Obj };
  },

  /** The last member that reports a status gives it. */
  aggregateStatus(desired, allItems) {
    const items = itemsOrNil(allItems);
    if (!items) return fromLua(desired);
    let picked: Obj = {
      clusterInfo: {},
      error: '',
      jobManagerDeploymentStatus: '',
      jobStatus: {},
      lifecycleState: '',
      observedGeneration: 0,
      reconciliationStatus: {},
      taskManager: {},
    };
    for (const item of items) {
      if (item.status !== undefined && item.status !== null)
        picked = Object.fromEntries(FLINK_STATUS_FIELDS.map((name) => [name, field(item.status, name)]));
    }
    const status: Obj = isObj(desired.status) ? copy(desired.status) : {};
    return withStatus(desired, { ...status, ...picked });
  },

  reflectStatus(observed) {
    const s = field(observed, 'status');
    if (s === undefined) return {};
    return fromLua(Object.fromEntries(FLINK_STATUS_FIELDS.map((name) => [name, field(s, name)])));
  },
};

export const KUBEFLOW_RAY_BATCH: ThirdPartyTable = {
  'kubeflow.org/v1/Notebook': notebook,
  'kubeflow.org/v1/PyTorchJob': pytorchJob,
  'kubeflow.org/v1/TFJob': tfJob,
  'kubeflow.org/v2beta1/MPIJob': mpiJob,
  'ray.io/v1/RayCluster': rayCluster,
  'ray.io/v1/RayJob': rayJob,
  'ray.io/v1/RayService': rayService,
  'batch.volcano.sh/v1alpha1/Job': volcanoJob,
  'sparkoperator.k8s.io/v1beta2/SparkApplication': sparkApplication,
  'flink.apache.org/v1beta1/FlinkDeployment': flinkDeployment,
};
