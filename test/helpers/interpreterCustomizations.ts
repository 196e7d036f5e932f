// ResourceInterpreterCustomizations the suites share.

/** Karmada's e2e customization (test/e2e/suites/base/resourceinterpreter_test.go, "Retain testing"). */
export const KARMADA_E2E_RETAIN = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: interpreter-customization-retain}
spec:
  target: {apiVersion: apps/v1, kind: Deployment}
  customizations:
    retention:
      luaScript: >
        function Retain(desiredObj, observedObj)
          desiredObj.spec.paused = observedObj.spec.paused
          return desiredObj
        end
`;
