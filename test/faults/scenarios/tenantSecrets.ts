// Tenant rows for Secrets: a change may take over a member's Secret it names, but never read its values back
// through the status branch, the logs or the rendered branch.
import { sendRequest } from '../../../src/deliveries/sendRequest.ts';
import type { Scenario } from '../helpers/frame.ts';
import { STATUS_REF, withPipeline } from '../helpers/pipeline.ts';

const PASSWORD = 'cGxhbnQtcGFzc3dvcmQtOTE3'; // base64 of the member's own value, never in Git

export const tenantSecretScenarios: readonly Scenario[] = [
  {
    group: 'tenant',
    name: 'Secrets are not read through status',
    speed: 'fast',
    injected:
      "a change taking over a member's Secret (conflict-resolution overwrite, one harmless key) with statusReflection and a health rule on its data",
    run: (expect) =>
      withPipeline(async (p) => {
        await p.reconcile();
        // The member's own Secret, made there by hand: Git has never seen its password.
        const made = await sendRequest(p.kubes.get('member1')!, {
          method: 'POST',
          path: '/api/v1/namespaces/default/secrets',
          contentType: 'application/json',
          body: JSON.stringify({
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 'db', namespace: 'default' },
            type: 'Opaque',
            data: { password: PASSWORD },
          }),
        });
        expect.equal(made.status, 201, 'the member Secret was created');
        p.fleet.work.commit(
          {
            'interpreters/secrets.yaml': `apiVersion: flotilla.io/v1alpha1
kind: InterpreterCustomization
metadata: {name: secrets}
spec:
  target: {apiVersion: v1, kind: Secret}
  customizations:
    statusReflection: {paths: [data, status]}
    healthInterpretation:
      rules: [{field: data.password, op: "==", value: ${PASSWORD}}]
`,
            'templates/db.yaml': `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
  annotations: {work.karmada.io/conflict-resolution: overwrite}
type: Opaque
data: {note: aGk=}
`,
            'policies/secrets.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: secrets, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Secret, name: db}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`,
          },
          'Reflect the db Secret',
        );
        await p.reconcile();
        await p.reconcile();
        const status = p.fleet.work.git('log', '-p', '--format=%B', STATUS_REF.replace('refs/heads/', ''));
        const written = [
          status,
          p.fleet.work.git('log', '-p', '--format=%B', 'flotilla/rendered'),
          JSON.stringify(p.logs),
        ].join('\n');
        const taken =
          (
            p.live('member1', { apiVersion: 'v1', kind: 'Secret', namespace: 'default', name: 'db' }) as
              | { data?: Record<string, string> }
              | undefined
          )?.data ?? {};
        expect.that(
          taken.password === PASSWORD,
          "the taken-over Secret still holds the member's password (server-side apply merged the keys)",
        );
        expect.that(!written.includes(PASSWORD), "the member's password appears in the branches or the logs");
        expect.that(status.includes('templates/default/secret_db.yaml'), 'the Secret has a status file');
        expect.that(written.includes('statusReflection on Secrets'), 'the output commit names the rejected hook');
        const lost = p.lost(await p.expected());
        return {
          outcome: `taken over on member1, status written without its data; the customization was rejected at its line`,
          lost: lost.length + (written.includes(PASSWORD) ? 1 : 0),
        };
      }),
  },
];
