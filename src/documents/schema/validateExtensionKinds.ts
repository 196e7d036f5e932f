// Validation of the kinds that are neither policies nor clusters: WorkloadRebalancer (apps.karmada.io),
// Flotilla's declarative InterpreterCustomization, and Karmada's Lua-based ResourceInterpreterCustomization.
import { parseFieldPath } from '../../interpreters/fieldPath.ts';
import { CHECKED_LUA_HOOKS } from '../../api/interpreterCustomization.ts';
import { isSecret } from '../../interpreters/isSecret.ts';

export interface ExtensionIssue {
  path: (string | number)[];
  code: 'MISSING_FIELD' | 'INVALID_VALUE' | 'UNKNOWN_FIELD' | 'LUA_NOT_RUN';
  message: string;
  fix: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

export function validateRebalancer(value: Obj): ExtensionIssue[] {
  const issues: ExtensionIssue[] = [];
  const spec = value.spec;
  if (!isObj(spec) || !Array.isArray(spec.workloads) || spec.workloads.length === 0) {
    return [
      {
        path: isObj(spec) ? ['spec'] : [],
        code: 'MISSING_FIELD',
        message: 'WorkloadRebalancer needs spec.workloads, a non-empty list',
        fix: 'list the workloads to reschedule: spec.workloads: [{apiVersion: apps/v1, kind: Deployment, name: web, namespace: default}]',
      },
    ];
  }
  // The CRD requires the keys, strings, and nothing of their text: a workload named "" is admitted and names nothing.
  spec.workloads.forEach((w, i) => {
    for (const f of ['apiVersion', 'kind', 'name'] as const) {
      if (!isObj(w) || typeof w[f] !== 'string') {
        issues.push({
          path: ['spec', 'workloads', i],
          code: 'MISSING_FIELD',
          message: `spec.workloads[${i}] has no ${f}`,
          fix: `add ${f} to spec.workloads[${i}]`,
        });
      }
    }
  });
  const ttl = spec.ttlSecondsAfterFinished;
  // Karmada declares it *int32, with no minimum in the CRD and no webhook: a negative one is admitted.
  if (
    ttl !== undefined &&
    ttl !== null &&
    (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < -2147483648 || ttl > 2147483647)
  ) {
    issues.push({
      path: ['spec', 'ttlSecondsAfterFinished'],
      code: 'INVALID_VALUE',
      message: 'spec.ttlSecondsAfterFinished must be a 32-bit whole number',
      fix: 'set it to a number of seconds, or remove it',
    });
  }
  return issues;
}

const HOOKS: Record<string, Record<string, 'path' | 'paths' | 'rules' | 'dependencies'>> = {
  replicaResource: { replicasPath: 'path', podTemplatePath: 'path', resourceRequestPath: 'path' },
  replicaRevision: { replicasPath: 'path' },
  healthInterpretation: { rules: 'rules' },
  statusReflection: { paths: 'paths' },
  statusAggregation: { sum: 'paths' },
  dependencyInterpretation: { dependencies: 'dependencies' },
  retention: { paths: 'paths' },
};
const REQUIRED: Record<string, string> = {
  replicaResource: 'replicasPath',
  replicaRevision: 'replicasPath',
  healthInterpretation: 'rules',
  statusReflection: 'paths',
  statusAggregation: 'sum',
  dependencyInterpretation: 'dependencies',
  retention: 'paths',
};
/** Hooks whose result is read from a member object and written to Git: none may read a Secret. */
const SECRET_LEAKING_HOOKS = ['statusReflection', 'statusAggregation', 'healthInterpretation'];
const OPS = ['==', '!=', '>', '>=', '<', '<=', 'exists', 'absent'];

export function validateInterpreterCustomization(value: Obj): ExtensionIssue[] {
  const issues: ExtensionIssue[] = [];
  const spec = isObj(value.spec) ? value.spec : undefined;
  const target = spec && isObj(spec.target) ? spec.target : undefined;
  if (!target || typeof target.apiVersion !== 'string' || typeof target.kind !== 'string') {
    issues.push({
      path: spec ? ['spec'] : [],
      code: 'MISSING_FIELD',
      message: 'InterpreterCustomization needs spec.target.apiVersion and spec.target.kind',
      fix: 'name the custom kind: spec.target: {apiVersion: example.io/v1, kind: Workload}',
    });
  }
  const custom = spec?.customizations;
  if (!isObj(custom)) {
    issues.push({
      path: spec ? ['spec'] : [],
      code: 'MISSING_FIELD',
      message: 'InterpreterCustomization needs spec.customizations',
      fix: `declare at least one of ${Object.keys(HOOKS).join(', ')}`,
    });
    return issues;
  }
  const path = (hook: string, at: (string | number)[], p: unknown) => {
    const parsed = parseFieldPath(p as string);
    if (typeof parsed === 'string')
      issues.push({
        path: ['spec', 'customizations', hook, ...at],
        code: 'INVALID_VALUE',
        message: `spec.customizations.${hook}.${at.join('.')}: ${parsed}`,
        fix: 'write a field path such as spec.replicas or spec.volumes[*].secret.secretName',
      });
  };
  for (const [hook, body] of Object.entries(custom)) {
    if (isSecret(target) && SECRET_LEAKING_HOOKS.includes(hook)) {
      issues.push({
        path: ['spec', 'customizations', hook],
        code: 'INVALID_VALUE',
        message: `${hook} on Secrets would carry what member clusters hold in their Secrets into the status branch, which everyone who can read the repository can read; Flotilla never reflects, aggregates or health-checks a Secret`,
        fix: `remove spec.customizations.${hook}; to check a Secret, read it on the member with kubectl`,
      });
      continue;
    }
    const fields = HOOKS[hook];
    if (!fields) {
      issues.push({
        path: ['spec', 'customizations', hook],
        code: 'UNKNOWN_FIELD',
        message: `unknown hook spec.customizations.${hook}`,
        fix: `use one of ${Object.keys(HOOKS).join(', ')}`,
      });
      continue;
    }
    if (!isObj(body)) {
      issues.push({
        path: ['spec', 'customizations', hook],
        code: 'INVALID_VALUE',
        message: `spec.customizations.${hook} must be a mapping`,
        fix: `give it ${REQUIRED[hook]}`,
      });
      continue;
    }
    if ('luaScript' in body) issues.push(luaIssue(['spec', 'customizations', hook, 'luaScript'], hook));
    if (body[REQUIRED[hook]!] === undefined)
      issues.push({
        path: ['spec', 'customizations', hook],
        code: 'MISSING_FIELD',
        message: `spec.customizations.${hook} has no ${REQUIRED[hook]}`,
        fix: `add ${REQUIRED[hook]}`,
      });
    for (const [field, v] of Object.entries(body)) {
      const kind = fields[field];
      if (field === 'luaScript') continue;
      if (!kind) {
        issues.push({
          path: ['spec', 'customizations', hook, field],
          code: 'UNKNOWN_FIELD',
          message: `unknown field spec.customizations.${hook}.${field}`,
          fix: `use ${Object.keys(fields).join(', ')}`,
        });
      } else if (kind === 'path') {
        path(hook, [field], v);
      } else if (kind === 'paths') {
        if (!Array.isArray(v))
          issues.push({
            path: ['spec', 'customizations', hook, field],
            code: 'INVALID_VALUE',
            message: `spec.customizations.${hook}.${field} must be a list of field paths`,
            fix: 'e.g. [status.readyReplicas, status.replicas]',
          });
        else v.forEach((p, i) => path(hook, [field, i], p));
      } else if (kind === 'dependencies') {
        if (!Array.isArray(v))
          issues.push({
            path: ['spec', 'customizations', hook, field],
            code: 'INVALID_VALUE',
            message: `spec.customizations.${hook}.${field} must be a list`,
            fix: 'e.g. [{apiVersion: v1, kind: ConfigMap, namePath: spec.configRef.name}]',
          });
        else
          v.forEach((d, i) => {
            if (!isObj(d) || typeof d.apiVersion !== 'string' || typeof d.kind !== 'string')
              issues.push({
                path: ['spec', 'customizations', hook, field, i],
                code: 'MISSING_FIELD',
                message: `dependency ${i} needs apiVersion, kind and namePath`,
                fix: 'e.g. {apiVersion: v1, kind: Secret, namePath: spec.secretName}',
              });
            else path(hook, [field, i, 'namePath'], d.namePath);
          });
      } else if (kind === 'rules') {
        if (!Array.isArray(v))
          issues.push({
            path: ['spec', 'customizations', hook, field],
            code: 'INVALID_VALUE',
            message: 'healthInterpretation.rules must be a list',
            fix: 'e.g. [{field: status.readyReplicas, op: ">=", valueFrom: spec.replicas}]',
          });
        else
          v.forEach((r, i) => {
            if (isObj(r) && typeof r.condition === 'string') {
              if (!['True', 'False', 'Unknown'].includes(String(r.status)))
                issues.push({
                  path: ['spec', 'customizations', hook, field, i, 'status'],
                  code: 'INVALID_VALUE',
                  message: `rule ${i}: status must be "True", "False" or "Unknown"`,
                  fix: 'quote it: status: "True"',
                });
              if (r.conditionsPath !== undefined) path(hook, [field, i, 'conditionsPath'], r.conditionsPath);
              return;
            }
            if (!isObj(r) || !OPS.includes(String(r.op))) {
              issues.push({
                path: ['spec', 'customizations', hook, field, i],
                code: 'INVALID_VALUE',
                message: `rule ${i} needs field and op (${OPS.join(' ')}), or condition and status`,
                fix: 'e.g. {field: status.readyReplicas, op: ">=", valueFrom: spec.replicas}',
              });
              return;
            }
            path(hook, [field, i, 'field'], r.field);
            if (r.valueFrom !== undefined) path(hook, [field, i, 'valueFrom'], r.valueFrom);
          });
      }
    }
  }
  return issues;
}

/** Karmada's hooks (CustomizationRules); componentResource is accepted and not run, as Karmada's alpha gate is off. */
const LUA_RULES: readonly string[] = CHECKED_LUA_HOOKS;

/**
 * A Karmada ResourceInterpreterCustomization as its CRD and webhook read it: a target and hooks that each hold a
 * luaScript (compiled later, when the Lua runtime is loaded: documents/checkLuaScripts.ts). Hooks that would write a
 * Secret's content to Git are refused, as for the declarative form.
 */
export function validateLuaCustomization(value: Obj): ExtensionIssue[] {
  const issues: ExtensionIssue[] = [];
  const spec = isObj(value.spec) ? value.spec : undefined;
  const target = spec && isObj(spec.target) ? spec.target : undefined;
  // The CRD requires the two keys as strings, not text in them: a target of "" is admitted and customizes no kind.
  if (!target || typeof target.apiVersion !== 'string' || typeof target.kind !== 'string')
    issues.push({
      path: spec ? ['spec'] : [],
      code: 'MISSING_FIELD',
      message: 'ResourceInterpreterCustomization needs spec.target.apiVersion and spec.target.kind',
      fix: 'name the kind it interprets: spec.target: {apiVersion: apps.example.io/v1, kind: Workload}',
    });
  const custom = spec?.customizations;
  if (!isObj(custom)) {
    issues.push({
      path: spec ? ['spec'] : [],
      code: 'MISSING_FIELD',
      message: 'ResourceInterpreterCustomization needs spec.customizations',
      fix: `give at least one of ${LUA_RULES.join(', ')}, each with a luaScript`,
    });
    return issues;
  }
  for (const [hook, body] of Object.entries(custom)) {
    if (!LUA_RULES.includes(hook)) {
      issues.push({
        path: ['spec', 'customizations', hook],
        code: 'UNKNOWN_FIELD',
        message: `unknown hook spec.customizations.${hook}`,
        fix: `use one of ${LUA_RULES.join(', ')}`,
      });
      continue;
    }
    // The CRD requires the field, not text in it: Karmada's interpreter takes an empty script as the operation not
    // customized (configurable.go: len(script) == 0), and another customization's script for it may fill it.
    if (!isObj(body) || typeof body.luaScript !== 'string') {
      issues.push({
        path: ['spec', 'customizations', hook],
        code: 'MISSING_FIELD',
        message: `spec.customizations.${hook} needs a luaScript`,
        fix: `write the hook's Lua function in spec.customizations.${hook}.luaScript: |`,
      });
      continue;
    }
    for (const field of Object.keys(body))
      if (field !== 'luaScript')
        issues.push({
          path: ['spec', 'customizations', hook, field],
          code: 'UNKNOWN_FIELD',
          message: `unknown field spec.customizations.${hook}.${field}`,
          fix: 'a hook holds only luaScript',
        });
    if (target && isSecret(target) && SECRET_LEAKING_HOOKS.includes(hook))
      issues.push({
        path: ['spec', 'customizations', hook],
        code: 'INVALID_VALUE',
        message: `${hook} of a v1 Secret would write what members hold in Secrets to the status branch`,
        fix: `remove spec.customizations.${hook}: Flotilla never records a Secret's content`,
      });
  }
  return issues;
}

const DECLARATIVE: Record<string, string> = {
  replicaResource: 'replicaResource: {replicasPath: spec.replicas, podTemplatePath: spec.template}',
  replicaRevision: 'replicaRevision: {replicasPath: spec.replicas}',
  healthInterpretation:
    'healthInterpretation: {rules: [{field: status.readyReplicas, op: ">=", valueFrom: spec.replicas}]}',
  statusReflection: 'statusReflection: {paths: [status.replicas, status.readyReplicas]}',
  statusAggregation: 'statusAggregation: {sum: [status.replicas, status.readyReplicas]}',
  dependencyInterpretation:
    'dependencyInterpretation: {dependencies: [{apiVersion: v1, kind: ConfigMap, namePath: spec.configRef.name}]}',
  retention: 'retention: {paths: [spec.paused]}',
};

function luaIssue(path: (string | number)[], hook: string): ExtensionIssue {
  return {
    path,
    code: 'LUA_NOT_RUN',
    message: `the ${hook} luaScript is not run: a flotilla.io InterpreterCustomization is declarative; Lua goes in a Karmada ResourceInterpreterCustomization`,
    fix: `write spec.customizations.${DECLARATIVE[hook] ?? DECLARATIVE.replicaResource}, or move the script to a config.karmada.io/v1alpha1 ResourceInterpreterCustomization with the same spec.target (README: Custom resources)`,
  };
}
