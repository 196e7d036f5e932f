import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fieldShape, listShape, objectShape } from '../../src/api/listSemantics.ts';
import { listSemanticsModule } from '../../scripts/apiFields/listSemanticsModule.ts';

test("the list table reads Go types' patch tags, list markers and omitempty, embedded structs and key defaults included", () => {
  const go = `package v1

type Widget struct {
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=port
	// +listMapKey=protocol
	Ports []WidgetPort \`json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"port" protobuf:"bytes,1,rep,name=ports"\`
	// +optional
	Finalizers []string \`json:"finalizers,omitempty" patchStrategy:"merge"\`
	// +listType=atomic
	Pulls []string \`json:"pulls,omitempty"\`
	Data []byte \`json:"data,omitempty"\`
	Replicas *int32 \`json:"replicas,omitempty"\`
	Name string \`json:"name"\`
	Mode WidgetMode \`json:"mode,omitempty"\`
	Template WidgetPort \`json:"template,omitempty"\`
}

type WidgetMode string

type WidgetPort struct {
	Port int32 \`json:"port"\`
	// +default="TCP"
	Protocol string \`json:"protocol,omitempty"\`
}

type Gadget struct {
	WidgetCommon \`json:",inline" protobuf:"bytes,1,req"\`
}

type WidgetCommon struct {
	Conditions []Condition \`json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"\`
}
`;
  const module = listSemanticsModule(
    [{ dir: 'core/v1', files: [go] }],
    {
      V1Widget: 'ports:[V1WidgetPort finalizers pulls data replicas name mode template:V1WidgetPort',
      V1WidgetPort: 'port protocol',
      V1Gadget: 'conditions:[V1Condition',
    },
    'test',
  );
  assert.match(module, '"V1Widget": "ports=merge:port/map:port,protocol finalizers=merge/set"');
  assert.match(module, '"V1Gadget": "conditions=merge:type/map:type"');
  assert.match(module, '"V1WidgetPort": "protocol=TCP"');
  // omitempty leaves out empty slices, maps and scalars (named ones too), never a pointer or a struct.
  assert.match(module, '"V1Widget": "ports finalizers pulls data mode"');
});

test('built-in lists merge as kube-apiserver merges them, not by their field name', () => {
  const service = fieldShape(objectShape('v1', 'Service'), 'spec');
  assert.equal(listShape(service, 'ports').apply, {
    list: 'map',
    keys: ['port', 'protocol'],
    defaults: { protocol: 'TCP' },
  });
  assert.equal(listShape(service, 'ports').patch, { merge: 'key', key: 'port' });
  assert.equal(listShape(objectShape('v1', 'ServiceAccount'), 'imagePullSecrets').patch, { merge: 'replace' });
  assert.equal(listShape(objectShape('v1', 'ServiceAccount'), 'secrets').patch, { merge: 'key', key: 'name' });
  assert.equal(listShape(objectShape('discovery.k8s.io/v1', 'EndpointSlice'), 'ports').apply, { list: 'atomic' });
  const podSpec = fieldShape(fieldShape(fieldShape(objectShape('apps/v1', 'Deployment'), 'spec'), 'template'), 'spec');
  assert.equal(listShape(podSpec, 'tolerations').apply, { list: 'atomic' });
  assert.equal(listShape(podSpec, 'topologySpreadConstraints').apply, {
    list: 'map',
    keys: ['topologyKey', 'whenUnsatisfiable'],
    defaults: {},
  });
  assert.equal(listShape(fieldShape(objectShape('v1', 'Pod'), 'metadata'), 'finalizers').apply, { list: 'set' });
});

test.run();
