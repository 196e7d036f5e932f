import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyText } from '../helpers/classifyText.ts';

// Karmada's ResourceInterpreterWebhookConfiguration webhook (pkg/webhook/configuration/validating_test.go's cases).

const configuration = (webhooks: string) =>
  `apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterWebhookConfiguration\nmetadata:\n  name: examples\nwebhooks:\n${webhooks}`;

const valid = `  - name: workloads.example.com
    rules:
      - operations: [InterpretReplica, ReviseReplica, Retain, AggregateStatus, InterpretHealth, InterpretStatus, InterpretDependency]
        apiGroups: [workload.example.io]
        apiVersions: [v1alpha1]
        kinds: [Workload]
    clientConfig:
      url: https://interpreter.example.com:443/interpreter-workload
    interpreterContextVersions: [v1alpha1]
    timeoutSeconds: 3
  - name: components.example.com.
    rules: [{operations: ["*"], apiGroups: [""], apiVersions: ["*"], kinds: ["*"]}]
    clientConfig:
      service: {namespace: karmada-system, name: interpreter, path: /interpreter/workload}
    interpreterContextVersions: [v1beta1, v1alpha1]
`;

test('a ResourceInterpreterWebhookConfiguration Karmada admits is counted as a control-plane object', () => {
  const file = classifyText('policies/interpreter.yaml', configuration(valid));
  assert.equal(file.problems, []);
  assert.is(file.templates.length, 1);
});

test("a ResourceInterpreterWebhookConfiguration is refused at its line for each rule of Karmada's webhook", () => {
  const file = classifyText(
    'policies/interpreter.yaml',
    configuration(`  - name: workloads
    rules:
      - operations: ["*", InterpretReplica, Prune]
        apiGroups: [apps, "*"]
        apiVersions: []
        kinds: [Workload, ""]
    clientConfig:
      url: http://user@interpreter.example.com/x?a=b
    timeoutSeconds: 31
    interpreterContextVersions: [v1beta1, v1beta1, Bad_]
  - name: workloads
    clientConfig: {url: https://a.example.com, service: {namespace: a, name: b}}
    interpreterContextVersions: [v1alpha1]
  - name: svc.example.com
    clientConfig: {service: {namespace: "", name: b, port: 70000, path: "relative//Upper"}}
    interpreterContextVersions: []
`),
  );
  assert.equal(
    file.problems.map((p) => `${p.line} ${p.message}`),
    [
      '6 webhooks[0].name "workloads": should be a domain with at least two segments separated by dots',
      "8 webhooks[0].rules[0].operations has '*' with other operations",
      '8 webhooks[0].rules[0].operations[2] is "Prune", not an operation Karmada supports ("*", "AggregateStatus", "InterpretComponent", "InterpretDependency", "InterpretHealth", "InterpretReplica", "InterpretStatus", "Retain", "ReviseReplica")',
      `9 webhooks[0].rules[0].apiGroups has '*' with other API groups ("" for the core group)`,
      '10 webhooks[0].rules[0].apiVersions is empty',
      '11 webhooks[0].rules[0].kinds[1] is empty',
      '14 webhooks[0].timeoutSeconds is 31: Karmada takes 1 to 30 seconds',
      `13 webhooks[0].clientConfig.url "http://user@interpreter.example.com/x?a=b": 'https' is the only allowed URL scheme`,
      '13 webhooks[0].clientConfig.url "http://user@interpreter.example.com/x?a=b": user information is not permitted in the URL',
      '13 webhooks[0].clientConfig.url "http://user@interpreter.example.com/x?a=b": query parameters are not permitted in the URL',
      '15 webhooks[0].interpreterContextVersions[1] "v1beta1" is listed twice',
      '15 webhooks[0].interpreterContextVersions[2] "Bad_" is not a version name (lower case letters, digits and "-", starting with a letter, at most 63)',
      '15 webhooks[0].interpreterContextVersions must include v1alpha1: the only ResourceInterpreterContext version Karmada sends',
      '16 webhooks[1].name "workloads": should be a domain with at least two segments separated by dots',
      '17 webhooks[1].clientConfig needs exactly one of url or service, not both',
      '16 webhooks[1].name "workloads" is also an earlier webhook\'s: names must be unique in a configuration',
      '20 webhooks[2].clientConfig.service.namespace is required',
      '20 webhooks[2].clientConfig.service.port 70000 is not a port (1 to 65535)',
      `20 webhooks[2].clientConfig.service.path "relative//Upper": must start with a '/'`,
      '20 webhooks[2].clientConfig.service.path "relative//Upper": segment[1] may not be empty',
      '20 webhooks[2].clientConfig.service.path "relative//Upper": segment[2] "Upper" is not a lower-case DNS subdomain',
      '21 webhooks[2].interpreterContextVersions is empty',
    ],
  );
  assert.equal(file.templates, []);
  assert.equal(
    file.broken.map((b) => b.kind),
    ['ResourceInterpreterWebhookConfiguration'],
  );
});

test.run();
