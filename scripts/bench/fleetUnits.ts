// Helm charts and Kustomize folders for the bench fleet (alternating), each in a team namespace and labelled so
// that namespace's PropagationPolicy selects its Deployment and Service. Pure: the same index gives the same bytes.

/** How many units each fleet size carries. */
export const UNITS = { S: 4, M: 10, L: 20, XL: 100 } as const;

const deployment = (name: string, ns: string, replicas: string, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
    app.kubernetes.io/part-of: ${ns}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
        - name: app
          image: ${image}
          resources:
            requests: {cpu: 100m, memory: 64Mi}
`;

const service = (name: string, ns: string) => `apiVersion: v1
kind: Service
metadata:
  name: ${name}
  labels:
    app.kubernetes.io/part-of: ${ns}
spec:
  selector: {app: ${name}}
  ports:
    - port: 80
`;

/** Chart `units/<ns>/chart-<i>` or Kustomize folder `units/<ns>/kustomize-<i>`: path → text. */
export function unitFiles(i: number, ns: string): Map<string, string> {
  const files = new Map<string, string>();
  const id = String(i).padStart(3, '0');
  if (i % 2 === 0) {
    const dir = `units/${ns}/chart-${id}`;
    files.set(`${dir}/Chart.yaml`, `apiVersion: v2\nname: chart-${id}\nversion: 0.1.0\n`);
    files.set(`${dir}/values.yaml`, 'replicaCount: 2\nimage: registry.example.com/web:v1\n');
    files.set(
      `${dir}/flotilla-unit.yaml`,
      `apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  namespace: ${ns}\n`,
    );
    files.set(`${dir}/templates/_helpers.tpl`, '{{- define "fullname" -}}{{ .Release.Name }}-web{{- end -}}\n');
    files.set(
      `${dir}/templates/deployment.yaml`,
      deployment('{{ include "fullname" . }}', ns, '{{ .Values.replicaCount }}', '{{ .Values.image }}'),
    );
    files.set(`${dir}/templates/service.yaml`, service('{{ include "fullname" . }}', ns));
  } else {
    const dir = `units/${ns}/kustomize-${id}`;
    files.set(
      `${dir}/kustomization.yaml`,
      `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: ${ns}\nnamePrefix: kustomize-${id}-\nresources:\n  - deployment.yaml\n  - service.yaml\n`,
    );
    files.set(`${dir}/deployment.yaml`, deployment('web', ns, '2', 'registry.example.com/web:v1'));
    files.set(`${dir}/service.yaml`, service('web', ns));
  }
  return files;
}

/** The one-unit edit: the first chart's replicaCount. */
export function unitEdit(ns: string): { path: string; text: string; what: string } {
  return {
    path: `units/${ns}/chart-000/values.yaml`,
    text: 'replicaCount: 3\nimage: registry.example.com/web:v1\n',
    what: `replicaCount of Helm chart units/${ns}/chart-000`,
  };
}
