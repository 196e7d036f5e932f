import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyText } from './helpers/classifyText.ts';

const customization = (apiVersion: string) => `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: hpa}
spec:
  target:
    apiVersion: ${apiVersion}
    kind: HorizontalPodAutoscaler
  customizations:
    healthInterpretation: {luaScript: "function InterpretHealth(observedObj) return true end"}
`;

test("a customization of a kind's version Karmada never sees it at is a warning at that version, and kept", () => {
  const file = classifyText('interpreters/hpa.yaml', customization('autoscaling/v1'));
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}`),
    ['6:17 warning INVALID_VALUE'],
  );
  assert.match(file.problems[0]!.message, /every HorizontalPodAutoscaler at autoscaling\/v2/);
  assert.match(file.problems[0]!.fix, /target apiVersion autoscaling\/v2/);
  assert.is(file.interpreterCustomizations.length, 1);
  const preferred = classifyText('interpreters/hpa.yaml', customization('autoscaling/v2'));
  assert.equal(preferred.problems, []);
  assert.is(preferred.interpreterCustomizations.length, 1);
});

test.run();
