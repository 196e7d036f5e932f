import {
  dns1123SubdomainProblems,
  duplicate,
  fieldOf,
  forbidden,
  invalid,
  isObject,
  isSet,
  type KubeViolation,
  list,
  notSupported,
  required,
  tooLong,
  type Json,
  goPointerText,
} from './fieldViolations.ts';

// What kube-apiserver 1.32 refuses in a pod's and its containers' security settings (pkg/apis/core/validation:
// validatePodSpecSecurityContext, ValidateSecurityContext, validateWindowsHostProcessPod, validateOS with
// validateLinux and validateWindows). The API server reads hostNetwork, hostPID, hostIPC and shareProcessNamespace
// from its internal pod security context, so it names some of them under securityContext: the violation is located at
// the pod spec's own field and keeps that name. Fields whose feature gates are off by default in 1.32 are dropped
// before validation and go unchecked: procMount (ProcMountType), hostUsers (UserNamespacesSupport),
// supplementalGroupsPolicy and seLinuxChangePolicy. kube-apiserver runs under Karmada with --allow-privileged=true, so
// privileged containers pass.

type Path = (string | number)[];

const MAX_ID = 2147483647;
const ID_RANGE = `must be between 0 and ${MAX_ID}, inclusive`;
const PROFILE_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const FS_GROUP_CHANGE_POLICIES = ['Always', 'OnRootMismatch'];
const SYSCTL_NAME = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const SYSCTL_MESSAGE = `must have at most 253 characters and match regex ${SYSCTL_NAME.source}`;
const IPC_SYSCTLS = new Set([
  'kernel.sem',
  'kernel.shmall',
  'kernel.shmmax',
  'kernel.shmmni',
  'kernel.shm_rmid_forced',
  'kernel.shm',
  'kernel.msgmax',
  'kernel.msgmnb',
  'kernel.msgmni',
  'kernel.msg',
]);
const GMSA_SPEC_MAX_BYTES = 64 * 1024;
// biome-ignore lint/suspicious/noControlCharactersInRegex: Go's [[:cntrl:]], the characters a Windows user name may not hold
const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;

const idViolations = (value: unknown, at: Path): KubeViolation[] =>
  isSet(value) && !(typeof value === 'number' && value >= 0 && value <= MAX_ID) ? [invalid(at, value, ID_RANGE)] : [];

/** validatePodSpecSecurityContext; `at` is the pod spec. */
export function podSecurityContextViolations(spec: Json, at: Path): KubeViolation[] {
  const sc = isObject(spec?.securityContext) ? spec.securityContext : {};
  const scAt = [...at, 'securityContext'];
  const errors = [
    ...idViolations(sc.fsGroup, [...scAt, 'fsGroup']),
    ...idViolations(sc.runAsUser, [...scAt, 'runAsUser']),
    ...idViolations(sc.runAsGroup, [...scAt, 'runAsGroup']),
  ];
  list(sc.supplementalGroups).forEach((gid, g) =>
    errors.push(...idViolations(gid, [...scAt, 'supplementalGroups', g])),
  );
  if (spec?.shareProcessNamespace === true && spec?.hostPID === true)
    errors.push(
      invalid(
        { path: [...at, 'shareProcessNamespace'], field: fieldOf([...scAt, 'shareProcessNamespace']) },
        true,
        'ShareProcessNamespace and HostPID cannot both be enabled',
      ),
    );
  const names = new Set<string>();
  list(sc.sysctls).forEach((sysctl, i) => {
    const nameAt = [...scAt, 'sysctls', i, 'name'];
    const name = String(sysctl?.name ?? '');
    if (!name) errors.push(required(nameAt));
    else if (name.length > 253 || !SYSCTL_NAME.test(name)) errors.push(invalid(nameAt, name, SYSCTL_MESSAGE));
    else if (names.has(name)) errors.push(duplicate(nameAt, name));
    // A namespaced sysctl would change the host's own namespace when the pod shares it.
    const namespace = sysctlNamespace(name);
    if (spec?.hostNetwork === true && namespace === 'Net')
      errors.push(invalid(nameAt, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec?.hostIPC === true && namespace === 'IPC')
      errors.push(invalid(nameAt, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
  if (isSet(sc.fsGroupChangePolicy) && !FS_GROUP_CHANGE_POLICIES.includes(sc.fsGroupChangePolicy))
    errors.push(notSupported([...scAt, 'fsGroupChangePolicy'], sc.fsGroupChangePolicy, FS_GROUP_CHANGE_POLICIES));
  errors.push(...seccompViolations(sc.seccompProfile, [...scAt, 'seccompProfile']));
  errors.push(...windowsOptionsViolations(sc.windowsOptions, [...scAt, 'windowsOptions']));
  errors.push(...appArmorViolations(sc.appArmorProfile, [...scAt, 'appArmorProfile']));
  return errors;
}

/** utilsysctl.GetNamespace: a name written with slashes (net/ipv4/ip_forward) is read with dots. */
function sysctlNamespace(name: string): 'Net' | 'IPC' | '' {
  const first = name.search(/[./]/);
  let dotted = name;
  if (first >= 0 && name[first] === '/') dotted = name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
  const star = dotted.indexOf('*');
  if (star >= 0) dotted = dotted.slice(0, star);
  if (IPC_SYSCTLS.has(dotted) || dotted.startsWith('fs.mqueue.')) return 'IPC';
  return dotted.startsWith('net.') ? 'Net' : '';
}

/** ValidateSecurityContext: a container's own security context; `at` is the container. */
export function containerSecurityContextViolations(sc: Json, at: Path): KubeViolation[] {
  if (!isObject(sc)) return [];
  const scAt = [...at, 'securityContext'];
  const errors = [
    ...idViolations(sc.runAsUser, [...scAt, 'runAsUser']),
    ...idViolations(sc.runAsGroup, [...scAt, 'runAsGroup']),
    ...seccompViolations(sc.seccompProfile, [...scAt, 'seccompProfile']),
  ];
  // Privileged and CAP_SYS_ADMIN each grant the escalation allowPrivilegeEscalation: false would deny.
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true)
      errors.push(
        invalid(
          scAt,
          undefined,
          'cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
          goSecurityContext(sc),
        ),
      );
    for (const capability of list(sc.capabilities?.add))
      if (capability === 'CAP_SYS_ADMIN')
        errors.push(
          invalid(
            scAt,
            undefined,
            'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
            goSecurityContext(sc),
          ),
        );
  }
  errors.push(...windowsOptionsViolations(sc.windowsOptions, [...scAt, 'windowsOptions']));
  errors.push(...appArmorViolations(sc.appArmorProfile, [...scAt, 'appArmorProfile']));
  return errors;
}

/** The internal core.SecurityContext as Go's %#v prints it (procMount, its gate off, is always dropped). */
function goSecurityContext(sc: Json): string {
  return [
    `core.SecurityContext{Capabilities:${goPointerText('core.Capabilities', sc.capabilities)}`,
    `Privileged:${goPointerText('bool', sc.privileged)}`,
    `SELinuxOptions:${goPointerText('core.SELinuxOptions', sc.seLinuxOptions)}`,
    `WindowsOptions:${goPointerText('core.WindowsSecurityContextOptions', sc.windowsOptions)}`,
    `RunAsUser:${goPointerText('int64', sc.runAsUser)}`,
    `RunAsGroup:${goPointerText('int64', sc.runAsGroup)}`,
    `RunAsNonRoot:${goPointerText('bool', sc.runAsNonRoot)}`,
    `ReadOnlyRootFilesystem:${goPointerText('bool', sc.readOnlyRootFilesystem)}`,
    `AllowPrivilegeEscalation:${goPointerText('bool', sc.allowPrivilegeEscalation)}`,
    'ProcMount:(*core.ProcMountType)(nil)',
    `SeccompProfile:${goPointerText('core.SeccompProfile', sc.seccompProfile)}`,
    `AppArmorProfile:${goPointerText('core.AppArmorProfile', sc.appArmorProfile)}}`,
  ].join(', ');
}

/** validateSeccompProfileField. */
export function seccompViolations(profile: Json, at: Path): KubeViolation[] {
  if (!isSet(profile)) return [];
  const errors: KubeViolation[] = [];
  const type = String(profile.type ?? '');
  if (!type) errors.push(required([...at, 'type'], 'type is required when seccompProfile is set'));
  else if (!PROFILE_TYPES.includes(type)) errors.push(notSupported([...at, 'type'], type, PROFILE_TYPES));
  if (type === 'Localhost') {
    if (!isSet(profile.localhostProfile))
      errors.push(required([...at, 'localhostProfile'], 'must be set when seccomp type is Localhost'));
    else errors.push(...localDescendingPathViolations(String(profile.localhostProfile), [...at, 'localhostProfile']));
  } else if (isSet(profile.localhostProfile))
    errors.push(
      invalid(
        [...at, 'localhostProfile'],
        undefined,
        'can only be set when seccomp type is Localhost',
        `core.SeccompProfile{Type:${JSON.stringify(type)}, LocalhostProfile:(*string)(0x…)}`,
      ),
    );
  return errors;
}

/** validateLocalDescendingPath: relative, and no `..` step. */
function localDescendingPathViolations(path: string, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  if (path.startsWith('/')) errors.push(invalid(at, path, 'must be a relative path'));
  if (path.split('/').includes('..')) errors.push(invalid(at, path, "must not contain '..'"));
  return errors;
}

/** ValidateAppArmorProfileField. */
function appArmorViolations(profile: Json, at: Path): KubeViolation[] {
  if (!isSet(profile)) return [];
  const type = String(profile.type ?? '');
  const local = profile.localhostProfile;
  const errors: KubeViolation[] = [];
  if (type === 'Localhost') {
    const localAt = [...at, 'localhostProfile'];
    if (!isSet(local)) errors.push(required(localAt, 'must be set when AppArmor type is Localhost'));
    else {
      const text = String(local);
      if (text.trim() !== text) errors.push(invalid(localAt, text, 'must not be padded with whitespace'));
      else if (text === '') errors.push(required(localAt, 'must be set when AppArmor type is Localhost'));
      if (Buffer.byteLength(text) > 4095) errors.push(tooLong(localAt, 4095));
    }
  } else if (type === 'RuntimeDefault' || type === 'Unconfined') {
    if (isSet(local))
      errors.push(
        invalid([...at, 'localhostProfile'], String(local), 'can only be set when AppArmor type is Localhost'),
      );
  } else if (!type) errors.push(required([...at, 'type'], 'type is required when appArmorProfile is set'));
  else errors.push(notSupported([...at, 'type'], type, PROFILE_TYPES));
  return errors;
}

const NETBIOS_DOMAIN = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const DNS_DOMAIN =
  /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** validateWindowsSecurityContextOptions. */
function windowsOptionsViolations(options: Json, at: Path): KubeViolation[] {
  if (!isObject(options)) return [];
  const errors: KubeViolation[] = [];
  if (isSet(options.gmsaCredentialSpecName)) {
    const name = String(options.gmsaCredentialSpecName);
    for (const p of dns1123SubdomainProblems(name)) errors.push(invalid([...at, 'gmsaCredentialSpecName'], name, p));
  }
  if (isSet(options.gmsaCredentialSpec)) {
    const spec = String(options.gmsaCredentialSpec);
    if (spec === '')
      errors.push(invalid([...at, 'gmsaCredentialSpec'], spec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (Buffer.byteLength(spec) > GMSA_SPEC_MAX_BYTES)
      errors.push(invalid([...at, 'gmsaCredentialSpec'], spec, 'gmsaCredentialSpec size must be under 64 KiB'));
  }
  if (isSet(options.runAsUserName)) {
    const userAt = [...at, 'runAsUserName'];
    const name = String(options.runAsUserName);
    const parts = name.split('\\');
    if (name === '') errors.push(invalid(userAt, name, 'runAsUserName cannot be an empty string'));
    else if (CONTROL_CHARACTER.test(name))
      errors.push(invalid(userAt, name, 'runAsUserName cannot contain control characters'));
    else if (parts.length > 2)
      errors.push(invalid(userAt, name, 'runAsUserName cannot contain more than one backslash'));
    else {
      const domain = parts.length === 2 ? parts[0]! : '';
      const user = parts.length === 2 ? parts[1]! : parts[0]!;
      if (domain.length >= 256)
        errors.push(invalid(userAt, name, "runAsUserName's Domain length must be under 256 characters"));
      if (parts.length === 2 && !(NETBIOS_DOMAIN.test(domain) || DNS_DOMAIN.test(domain)))
        errors.push(invalid(userAt, name, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
      if (user.length === 0) errors.push(invalid(userAt, name, "runAsUserName's User cannot be empty"));
      else if (user.length > 104)
        errors.push(invalid(userAt, name, "runAsUserName's User length must not be longer than 104 characters"));
      if (/^[. ]+$/.test(user))
        errors.push(invalid(userAt, name, "runAsUserName's User cannot contain only periods or spaces"));
      if (/["/\\:;|=,+*?<>@[\]]/.test(user))
        errors.push(
          invalid(userAt, name, `runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`),
        );
    }
  }
  return errors;
}

const CONTAINER_KINDS = ['initContainers', 'containers', 'ephemeralContainers'];

/** Every container of the pod spec with its path, as podshelper.VisitContainersWithPath visits them. */
function visitedContainers(spec: Json, at: Path): [Json, Path][] {
  return CONTAINER_KINDS.flatMap((kind) => list(spec?.[kind]).map((c, i): [Json, Path] => [c, [...at, kind, i]]));
}

/**
 * validateWindowsHostProcessPod: a pod whose containers run as Windows host processes runs them all so, on the host
 * network; each container's setting agrees with the pod's.
 */
export function windowsHostProcessViolations(spec: Json, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const podHostProcess = spec?.securityContext?.windowsOptions?.hostProcess;
  // Run on every pod spec of a render, so the containers are read in place: no path is built unless reported.
  let containerCount = 0;
  let hostProcessCount = 0;
  for (const kind of CONTAINER_KINDS)
    list(spec?.[kind]).forEach((container, i) => {
      containerCount++;
      const own = container?.securityContext?.windowsOptions?.hostProcess;
      if (typeof podHostProcess === 'boolean' && typeof own === 'boolean' && podHostProcess !== own)
        errors.push(
          invalid(
            [...at, kind, i, 'securityContext', 'windowsOptions', 'hostProcess'],
            own,
            `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`,
          ),
        );
      if (own === true || (!isSet(own) && podHostProcess === true)) hostProcessCount++;
    });
  if (hostProcessCount > 0) {
    if (hostProcessCount !== containerCount)
      errors.push(
        invalid(
          at,
          '',
          'If pod contains any hostProcess containers then all containers must be HostProcess containers',
        ),
      );
    if (spec?.hostNetwork !== true)
      errors.push(
        invalid([...at, 'hostNetwork'], false, 'hostNetwork must be true if pod contains any hostProcess containers'),
      );
  }
  return errors;
}

/** validateOS, then what the named OS refuses: Windows options on Linux, Linux-only settings on Windows. */
export function osViolations(spec: Json, at: Path): KubeViolation[] {
  const os = spec?.os;
  if (!isSet(os)) return [];
  const name = String(os.name ?? '');
  if (!name) return [required([...at, 'os', 'name'], 'cannot be empty')];
  if (name !== 'linux' && name !== 'windows') return [notSupported([...at, 'os'], name, ['linux', 'windows'])];
  const errors: KubeViolation[] = [];
  const sc = isObject(spec.securityContext) ? spec.securityContext : {};
  const scAt = [...at, 'securityContext'];
  const containers = visitedContainers(spec, at);
  if (name === 'linux') {
    const linuxOnly = 'windows options cannot be set for a linux pod';
    if (isSet(sc.windowsOptions)) errors.push(forbidden([...scAt, 'windowsOptions'], linuxOnly));
    for (const [container, where] of containers)
      if (isSet(container?.securityContext?.windowsOptions))
        errors.push(forbidden([...where, 'securityContext', 'windowsOptions'], linuxOnly));
    return errors;
  }
  const windowsNot = 'cannot be set for a windows pod';
  const podFields: [unknown, Path][] = [
    [sc.appArmorProfile, [...scAt, 'appArmorProfile']],
    [sc.seLinuxOptions, [...scAt, 'seLinuxOptions']],
    [spec.hostPID === true || undefined, [...at, 'hostPID']],
    [spec.hostIPC === true || undefined, [...at, 'hostIPC']],
    [sc.seccompProfile, [...scAt, 'seccompProfile']],
    [sc.fsGroup, [...scAt, 'fsGroup']],
    [sc.fsGroupChangePolicy, [...scAt, 'fsGroupChangePolicy']],
    [list(sc.sysctls).length > 0 || undefined, [...scAt, 'sysctls']],
    [spec.shareProcessNamespace, [...at, 'shareProcessNamespace']],
    [sc.runAsUser, [...scAt, 'runAsUser']],
    [sc.runAsGroup, [...scAt, 'runAsGroup']],
    [sc.supplementalGroups, [...scAt, 'supplementalGroups']],
  ];
  for (const [value, where] of podFields) if (isSet(value)) errors.push(forbidden(where, windowsNot));
  for (const [container, where] of containers) {
    const csc = container?.securityContext;
    if (!isObject(csc)) continue;
    for (const field of [
      'appArmorProfile',
      'seLinuxOptions',
      'seccompProfile',
      'capabilities',
      'readOnlyRootFilesystem',
      'privileged',
      'allowPrivilegeEscalation',
      'runAsUser',
      'runAsGroup',
    ])
      if (isSet(csc[field])) errors.push(forbidden([...where, 'securityContext', field], windowsNot));
  }
  return errors;
}
