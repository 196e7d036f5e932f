// A Service's load-balancer ingresses gathered from its members, case by case, as Karmada's
// helper.DedupeAndSortServiceLoadBalancerIngress merges them (cases after pkg/util/helper/service_test.go at f8fdd02).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeLoadBalancerIngress } from '../../src/interpreters/mergeLoadBalancerIngress.ts';

const cases: [string, unknown[], unknown[]][] = [
  [
    'hostnames sort',
    [{ hostname: 'hostname-2' }, { hostname: 'hostname-1' }],
    [{ hostname: 'hostname-1' }, { hostname: 'hostname-2' }],
  ],
  ['IPs sort', [{ ip: '2.2.2.2' }, { ip: '1.1.1.1' }], [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }]],
  [
    'a hostname goes before an IP',
    [{ ip: '1.1.1.1' }, { hostname: 'hostname-1' }],
    [{ hostname: 'hostname-1' }, { ip: '1.1.1.1' }],
  ],
  [
    'ipModes sort',
    [
      { ip: '1.1.1.1', ipMode: 'Proxy' },
      { ip: '1.1.1.1', ipMode: 'VIP' },
    ],
    [
      { ip: '1.1.1.1', ipMode: 'Proxy' },
      { ip: '1.1.1.1', ipMode: 'VIP' },
    ],
  ],
  [
    'the same ipMode merges',
    [
      { ip: '1.1.1.1', ipMode: 'VIP' },
      { ip: '1.1.1.1', ipMode: 'VIP' },
    ],
    [{ ip: '1.1.1.1', ipMode: 'VIP' }],
  ],
  [
    'repeated hostnames and IPs merge',
    [
      { ip: '1.1.1.1' },
      { hostname: 'hostname-1' },
      { ip: '1.1.1.1' },
      { hostname: 'hostname-1' },
      { ip: '1.1.1.1' },
      { hostname: 'hostname-1' },
    ],
    [{ hostname: 'hostname-1' }, { ip: '1.1.1.1' }],
  ],
  [
    'ports merge and sort',
    [
      { hostname: 'hostname-1', ports: [{ port: 80, protocol: 'TCP' }] },
      { hostname: 'hostname-1', ports: [{ port: 81, protocol: 'TCP' }] },
      { hostname: 'hostname-1', ports: [{ port: 80, protocol: 'TCP' }] },
    ],
    [
      {
        hostname: 'hostname-1',
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 81, protocol: 'TCP' },
        ],
      },
    ],
  ],
  [
    'port errors merge and sort, no error first',
    [
      { hostname: 'hostname-1', ports: [{ port: 80, protocol: 'TCP', error: 'error-1' }] },
      { hostname: 'hostname-1', ports: [{ port: 80, protocol: 'TCP', error: 'error-1' }] },
      { hostname: 'hostname-1', ports: [{ port: 80, protocol: 'TCP', error: 'error-2' }] },
      { hostname: 'hostname-1', ports: [{ port: 80, protocol: 'TCP' }] },
    ],
    [
      {
        hostname: 'hostname-1',
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 80, protocol: 'TCP', error: 'error-1' },
          { port: 80, protocol: 'TCP', error: 'error-2' },
        ],
      },
    ],
  ],
];

for (const [name, ingresses, want] of cases)
  test(`load-balancer ingresses from members: ${name}`, () => {
    assert.equal(mergeLoadBalancerIngress([ingresses]), want);
    // The same entries spread over several members' lists, in reverse: the same answer.
    assert.equal(mergeLoadBalancerIngress(ingresses.map((i) => [i]).reverse()), want);
  });

test.run();
