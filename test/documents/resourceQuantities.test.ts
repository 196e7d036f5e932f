import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyText } from './helpers/classifyText.ts';

test('a resource quantity kube-apiserver cannot decode is an error at its line: containers, claims, quotas', () => {
  const file = classifyText(
    'templates/app.yaml',
    `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: db
          image: postgres
          resources:
            requests: {cpu: 500m, memory: 1e3Mi}
            limits: {memory: 1 Gi}
      volumes:
        - name: scratch
          emptyDir: {sizeLimit: 1GB}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10gi}}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec:
  hard: {pods: "10", requests.cpu: 4, limits.memory: lots}
`,
  );
  assert.equal(
    file.problems.map((p) => `${p.line} ${p.code} ${p.message.split(' is not')[0]}`),
    [
      '14 INVALID_VALUE memory "1e3Mi"',
      '15 INVALID_VALUE memory "1 Gi"',
      '18 INVALID_VALUE sizeLimit "1GB"',
      '21 INVALID_VALUE storage "10gi"',
      '27 INVALID_VALUE limits.memory "lots"',
    ],
  );
  assert.match(file.problems[0]!.fix, '1Gi');
  assert.equal(file.templates, []);
});

test('quantities as kubectl sends them decode: numbers, exponents, every suffix', () => {
  const file = classifyText(
    'templates/ok.yaml',
    `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: a
      image: a
      resources:
        requests: {cpu: 0.5, memory: 1e9, ephemeral-storage: 1Ki, nvidia.com/gpu: 1}
        limits: {cpu: "2", memory: 1Gi, hugepages-2Mi: 100M}
`,
  );
  assert.equal(file.problems, []);
});

test.run();
