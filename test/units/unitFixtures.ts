// Small config-repo sources shaped like the ones users already have: a Kustomize folder with namePrefix (as
// argocd-example-apps' kustomize-guestbook), a chart with values, helpers and two templates (as its helm-guestbook),
// and staging/production overlays over a base of Flux HelmRelease/HelmRepository objects (as
// flux2-kustomize-helm-example's apps/). Written here, not copied.

import { gzipSync } from 'node:zlib';
import { clusterYaml } from '../helpers/fleet.ts';

export const KUSTOMIZE_GUESTBOOK: Record<string, string> = {
  'kustomize-guestbook/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namePrefix: kustomize-
resources:
  - guestbook-ui-deployment.yaml
  - guestbook-ui-svc.yaml
`,
  'kustomize-guestbook/guestbook-ui-deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: guestbook-ui
spec:
  replicas: 1
  selector:
    matchLabels:
      app: guestbook-ui
  template:
    metadata:
      labels:
        app: guestbook-ui
    spec:
      containers:
        - name: guestbook-ui
          image: gcr.io/google-samples/gb-frontend:v5
          ports:
            - containerPort: 80
`,
  'kustomize-guestbook/guestbook-ui-svc.yaml': `apiVersion: v1
kind: Service
metadata:
  name: guestbook-ui
spec:
  ports:
    - port: 80
      targetPort: 80
  selector:
    app: guestbook-ui
`,
};

export function helmGuestbook(replicaCount = 1, dir = 'helm-guestbook'): Record<string, string> {
  return {
    [`${dir}/Chart.yaml`]: `apiVersion: v2
name: helm-guestbook
description: The guestbook front end
type: application
version: 0.1.0
appVersion: "1.0"
`,
    [`${dir}/values.yaml`]: `replicaCount: ${replicaCount}
image:
  repository: gcr.io/google-samples/gb-frontend
  tag: v5
service:
  type: ClusterIP
  port: 80
`,
    [`${dir}/templates/_helpers.tpl`]: `{{- define "helm-guestbook.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- define "helm-guestbook.fullname" -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
`,
    [`${dir}/templates/deployment.yaml`]: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "helm-guestbook.fullname" . }}
  labels:
    app: {{ include "helm-guestbook.name" . }}
    release: {{ .Release.Name }}
spec:
  replicas: {{ .Values.replicaCount }}
  selector:
    matchLabels:
      app: {{ include "helm-guestbook.name" . }}
      release: {{ .Release.Name }}
  template:
    metadata:
      labels:
        app: {{ include "helm-guestbook.name" . }}
        release: {{ .Release.Name }}
    spec:
      containers:
        - name: {{ .Chart.Name }}
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          ports:
            - name: http
              containerPort: 80
`,
    [`${dir}/templates/service.yaml`]: `apiVersion: v1
kind: Service
metadata:
  name: {{ include "helm-guestbook.fullname" . }}
  labels:
    app: {{ include "helm-guestbook.name" . }}
spec:
  type: {{ .Values.service.type }}
  ports:
    - port: {{ .Values.service.port }}
      targetPort: http
      name: http
  selector:
    app: {{ include "helm-guestbook.name" . }}
    release: {{ .Release.Name }}
`,
  };
}

/** A PropagationPolicy selecting the guestbook objects of both units by name, onto member1. */
export const GUESTBOOK_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: guestbook
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: kustomize-guestbook-ui}
    - {apiVersion: v1, kind: Service, name: kustomize-guestbook-ui}
    - {apiVersion: apps/v1, kind: Deployment, name: helm-guestbook}
    - {apiVersion: v1, kind: Service, name: helm-guestbook}
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;

/**
 * apps/<env> over apps/base/podinfo, as flux2-kustomize-helm-example writes it: a kustomization (in `namespace`, when
 * given) patching the HelmRelease's chart version and replica count.
 */
function podinfoOverlay(env: string, version: string, replicas: number, namespace?: string): Record<string, string> {
  return {
    [`apps/${env}/kustomization.yaml`]: `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
${namespace === undefined ? '' : `namespace: ${namespace}\n`}resources:
  - ../base/podinfo
patches:
  - path: podinfo-values.yaml
    target:
      kind: HelmRelease
`,
    [`apps/${env}/podinfo-values.yaml`]: `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: podinfo
  namespace: podinfo
spec:
  chart:
    spec:
      version: "${version}"
  values:
    replicaCount: ${replicas}
`,
  };
}

/** apps/base/podinfo with staging and production overlays, each overlay in its own namespace. */
export const PODINFO_OVERLAYS: Record<string, string> = {
  'apps/base/podinfo/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: podinfo
resources:
  - namespace.yaml
  - repository.yaml
  - release.yaml
`,
  'apps/base/podinfo/namespace.yaml': `apiVersion: v1
kind: Namespace
metadata:
  name: podinfo
`,
  'apps/base/podinfo/repository.yaml': `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: podinfo
  namespace: podinfo
spec:
  interval: 5m
  url: https://stefanprodan.github.io/podinfo
`,
  'apps/base/podinfo/release.yaml': `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: podinfo
  namespace: podinfo
spec:
  interval: 50m
  releaseName: podinfo
  chart:
    spec:
      chart: podinfo
      sourceRef:
        kind: HelmRepository
        name: podinfo
  values:
    replicaCount: 1
`,
  ...podinfoOverlay('staging', '>=1.0.0-alpha', 1, 'podinfo-staging'),
  ...podinfoOverlay('production', '>=1.0.0', 3, 'podinfo-production'),
};

/**
 * flux2-kustomize-helm-example's shape as it is: apps/staging and apps/production over apps/base/podinfo, both in the
 * base's namespace (the same Namespace, HelmRepository and HelmRelease), each scoped by its flotilla-unit.yaml:
 * staging by clusterNames, production by labelSelector. Clusters `staging` and `production` (env labels) are
 * registered; a ClusterPropagationPolicy selects all three kinds.
 */
export function scopedPodinfo(
  values = { staging: 1, production: 3 },
  stagingScope = 'clusterNames: [staging]',
): Record<string, string> {
  const base = Object.fromEntries(Object.entries(PODINFO_OVERLAYS).filter(([p]) => p.startsWith('apps/base/')));
  return {
    ...base,
    ...podinfoOverlay('staging', '>=1.0.0-alpha', values.staging),
    ...podinfoOverlay('production', '>=1.0.0', values.production),
    'apps/staging/flotilla-unit.yaml': `apiVersion: flotilla.io/v1alpha1
kind: KustomizeUnit
spec:
  clusterAffinity:
    ${stagingScope}
`,
    'apps/production/flotilla-unit.yaml': `apiVersion: flotilla.io/v1alpha1
kind: KustomizeUnit
spec:
  clusterAffinity:
    labelSelector:
      matchLabels: {env: production}
`,
    'clusters/staging.yaml': clusterYaml('staging', { labels: { env: 'staging' } }),
    'clusters/production.yaml': clusterYaml('production', { labels: { env: 'production' } }),
    'policies/podinfo.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: podinfo
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: Namespace, name: podinfo}
    - {apiVersion: source.toolkit.fluxcd.io/v1, kind: HelmRepository, name: podinfo}
    - {apiVersion: helm.toolkit.fluxcd.io/v2, kind: HelmRelease, name: podinfo}
`,
  };
}

/** A chart packed as `helm package` packs it (pure): a gzipped ustar of `files`, each under the folder `name/`. */
export function packedChart(name: string, files: Record<string, string>): Uint8Array {
  const blocks: Buffer[] = [];
  for (const [file, text] of Object.entries(files)) {
    const body = Buffer.from(text);
    const h = Buffer.alloc(512);
    h.write(`${name}/${file}`, 0);
    h.write('0000644\0', 100);
    h.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
    h.write('        ', 148);
    h.write('0', 156);
    h.write('ustar\x0000', 257);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}
