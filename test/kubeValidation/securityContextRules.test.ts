// A pod's and its containers' security settings as kube-apiserver 1.32 checks them: ids, seccomp and AppArmor
// profiles, sysctls, privilege escalation, Windows options and the pod's OS, in the API server's field paths and words.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { podSpecViolations } from '../../src/kubeValidation/podSpecRules.ts';

const refused = (spec: Record<string, unknown>) =>
  podSpecViolations(spec, ['spec', 'template', 'spec']).map((v) =>
    `${v.field}: ${v.detail}`.replace('spec.template.spec.', ''),
  );
const container = (securityContext: unknown, name = 'app') => ({ name, image: 'app:1', securityContext });

test('the hardened settings charts ship are admitted', () => {
  assert.equal(
    refused({
      securityContext: {
        runAsNonRoot: true,
        runAsUser: 65534,
        runAsGroup: 65534,
        fsGroup: 2000,
        fsGroupChangePolicy: 'OnRootMismatch',
        supplementalGroups: [1000],
        seccompProfile: { type: 'RuntimeDefault' },
        sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '0' }],
      },
      containers: [
        container({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
          seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' },
          appArmorProfile: { type: 'Localhost', localhostProfile: 'k8s-apparmor-example-deny-write' },
        }),
        // kube-apiserver runs under Karmada with --allow-privileged=true.
        container({ privileged: true, capabilities: { add: ['SYS_ADMIN'] } }, 'agent'),
      ],
    }),
    [],
  );
});

test("the pod's ids, sysctls, process namespace sharing and change policy are refused as the API server refuses them", () => {
  assert.equal(
    refused({
      hostPID: true,
      shareProcessNamespace: true,
      hostNetwork: true,
      securityContext: {
        fsGroup: -1,
        runAsUser: 2147483648,
        supplementalGroups: [5, -5],
        sysctls: [
          { name: 'kernel.shm_rmid_forced', value: '1' },
          { name: 'Kernel.Bad', value: '1' },
          { name: 'kernel.shm_rmid_forced', value: '0' },
          { name: 'net/ipv4/ip_forward', value: '1' },
          { name: '' },
        ],
        fsGroupChangePolicy: 'Sometimes',
      },
      containers: [container(undefined)],
    }),
    [
      'securityContext.fsGroup: Invalid value: -1: must be between 0 and 2147483647, inclusive',
      'securityContext.runAsUser: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive',
      'securityContext.supplementalGroups[1]: Invalid value: -5: must be between 0 and 2147483647, inclusive',
      'securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
      'securityContext.sysctls[1].name: Invalid value: "Kernel.Bad": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
      'securityContext.sysctls[2].name: Duplicate value: "kernel.shm_rmid_forced"',
      'securityContext.sysctls[3].name: Invalid value: "net/ipv4/ip_forward": may not be specified when \'hostNetwork\' is true',
      'securityContext.sysctls[4].name: Required value',
      'securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
    ],
  );
  // The API server names shareProcessNamespace under securityContext; it is found at the pod spec's own field.
  const [shared] = podSpecViolations(
    { hostPID: true, shareProcessNamespace: true, containers: [container(undefined)] },
    ['spec'],
  );
  assert.equal(shared?.path, ['spec', 'shareProcessNamespace']);
  assert.equal(shared?.field, 'spec.securityContext.shareProcessNamespace');
  assert.equal(
    refused({
      hostIPC: true,
      securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }, { name: 'fs.mqueue.msg_max' }] },
      containers: [container(undefined)],
    }),
    [
      'securityContext.sysctls[0].name: Invalid value: "kernel.msgmax": may not be specified when \'hostIPC\' is true',
      'securityContext.sysctls[1].name: Invalid value: "fs.mqueue.msg_max": may not be specified when \'hostIPC\' is true',
    ],
  );
});

test('seccomp and AppArmor profiles: a type, and a local profile exactly when the type is Localhost', () => {
  assert.equal(
    refused({
      securityContext: { seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'x.json' } },
      containers: [
        container({
          seccompProfile: { localhostProfile: '/abs/../x.json' },
          appArmorProfile: { type: 'Localhost', localhostProfile: ' padded' },
        }),
        container({ seccompProfile: { type: 'Localhost' }, appArmorProfile: { type: 'Strict' } }, 'b'),
        container({ seccompProfile: { type: 'Localhost', localhostProfile: '../x' }, appArmorProfile: {} }, 'c'),
        container({ appArmorProfile: { type: 'RuntimeDefault', localhostProfile: 'p' } }, 'd'),
      ],
    }),
    [
      'containers[0].securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set',
      'containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: core.SeccompProfile{Type:"", LocalhostProfile:(*string)(0x…)}: can only be set when seccomp type is Localhost',
      'containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value: " padded": must not be padded with whitespace',
      'containers[1].securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
      'containers[1].securityContext.appArmorProfile.type: Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
      'containers[2].securityContext.seccompProfile.localhostProfile: Invalid value: "../x": must not contain \'..\'',
      'containers[2].securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set',
      'containers[3].securityContext.appArmorProfile.localhostProfile: Invalid value: "p": can only be set when AppArmor type is Localhost',
      'securityContext.seccompProfile.localhostProfile: Invalid value: core.SeccompProfile{Type:"RuntimeDefault", LocalhostProfile:(*string)(0x…)}: can only be set when seccomp type is Localhost',
    ],
  );
});

test('a container may not deny privilege escalation while privileged or adding CAP_SYS_ADMIN, nor run as a negative id', () => {
  assert.equal(
    refused({
      containers: [
        container({ allowPrivilegeEscalation: false, privileged: true, runAsUser: -1 }),
        container({ allowPrivilegeEscalation: false, capabilities: { add: ['CAP_SYS_ADMIN', 'SYS_ADMIN'] } }, 'b'),
      ],
      initContainers: [container({ runAsGroup: -2 }, 'init')],
    }),
    [
      'containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
      'containers[0].securityContext: Invalid value: core.SecurityContext{Capabilities:(*core.Capabilities)(nil), Privileged:(*bool)(0x…), SELinuxOptions:(*core.SELinuxOptions)(nil), WindowsOptions:(*core.WindowsSecurityContextOptions)(nil), RunAsUser:(*int64)(0x…), RunAsGroup:(*int64)(nil), RunAsNonRoot:(*bool)(nil), ReadOnlyRootFilesystem:(*bool)(nil), AllowPrivilegeEscalation:(*bool)(0x…), ProcMount:(*core.ProcMountType)(nil), SeccompProfile:(*core.SeccompProfile)(nil), AppArmorProfile:(*core.AppArmorProfile)(nil)}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
      'containers[1].securityContext: Invalid value: core.SecurityContext{Capabilities:(*core.Capabilities)(0x…), Privileged:(*bool)(nil), SELinuxOptions:(*core.SELinuxOptions)(nil), WindowsOptions:(*core.WindowsSecurityContextOptions)(nil), RunAsUser:(*int64)(nil), RunAsGroup:(*int64)(nil), RunAsNonRoot:(*bool)(nil), ReadOnlyRootFilesystem:(*bool)(nil), AllowPrivilegeEscalation:(*bool)(0x…), ProcMount:(*core.ProcMountType)(nil), SeccompProfile:(*core.SeccompProfile)(nil), AppArmorProfile:(*core.AppArmorProfile)(nil)}: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
      'initContainers[0].securityContext.runAsGroup: Invalid value: -2: must be between 0 and 2147483647, inclusive',
    ],
  );
});

test("Windows options: a GMSA spec's name and size, a user name's domain and user, host process pods", () => {
  assert.equal(
    refused({
      securityContext: { windowsOptions: { gmsaCredentialSpecName: 'Spec_1', runAsUserName: 'DOMAIN\\' } },
      containers: [
        container({ windowsOptions: { gmsaCredentialSpec: '', runAsUserName: 'a\\b\\c' } }),
        container({ windowsOptions: { runAsUserName: '.bad.domain.\\us:er' } }, 'b'),
      ],
    }),
    [
      'containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string',
      'containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash',
      'containers[1].securityContext.windowsOptions.runAsUserName: Invalid value: ".bad.domain.\\\\us:er": runAsUserName\'s Domain doesn\'t match the NetBios nor the DNS format',
      'containers[1].securityContext.windowsOptions.runAsUserName: Invalid value: ".bad.domain.\\\\us:er": runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]',
      "securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value: \"Spec_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'securityContext.windowsOptions.runAsUserName: Invalid value: "DOMAIN\\\\": runAsUserName\'s User cannot be empty',
    ],
  );
  assert.equal(
    refused({
      securityContext: { windowsOptions: { hostProcess: true } },
      initContainers: [container({ windowsOptions: { hostProcess: false } }, 'init')],
      containers: [container(undefined)],
    }),
    [
      'initContainers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true',
      'spec.template.spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
      'hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers',
    ],
  );
});

test("the pod's OS: its name, and the settings the other OS owns", () => {
  assert.equal(refused({ os: {}, containers: [container(undefined)] }), ['os.name: Required value: cannot be empty']);
  assert.equal(refused({ os: { name: 'darwin' }, containers: [container(undefined)] }), [
    'os: Unsupported value: "darwin": supported values: "linux", "windows"',
  ]);
  assert.equal(
    refused({
      os: { name: 'linux' },
      securityContext: { windowsOptions: { runAsUserName: 'app' } },
      containers: [container({ windowsOptions: { runAsUserName: 'app' } })],
    }),
    [
      'securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
      'containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
    ],
  );
  assert.equal(
    refused({
      os: { name: 'windows' },
      hostPID: true,
      shareProcessNamespace: false,
      securityContext: { runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' }, supplementalGroups: [] },
      containers: [container({ windowsOptions: { runAsUserName: 'ContainerUser' }, readOnlyRootFilesystem: true })],
    }),
    [
      'hostPID: Forbidden: cannot be set for a windows pod',
      'securityContext.seccompProfile: Forbidden: cannot be set for a windows pod',
      'shareProcessNamespace: Forbidden: cannot be set for a windows pod',
      'securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
      'securityContext.supplementalGroups: Forbidden: cannot be set for a windows pod',
      'containers[0].securityContext.readOnlyRootFilesystem: Forbidden: cannot be set for a windows pod',
    ],
  );
});

test.run();
