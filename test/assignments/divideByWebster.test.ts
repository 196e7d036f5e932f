import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fnv1a32 } from '../../src/hashing/fnv1a32.ts';
import {
  allocateWebsterSeats,
  divideByWebster,
  tieBreakerByUid,
  type TieBreaker,
} from '../../src/assignments/divideByWebster.ts';
import { sameTargets, show, targets } from './helpers.ts';

// Karmada pkg/util/helper/webstermethod_test.go: the Sainte-Laguë example (230,000 voters, 8 seats), round by round.
const classicVotes = new Map([
  ['PartyA', 100000],
  ['PartyB', 80000],
  ['PartyC', 30000],
  ['PartyD', 20000],
]);
const classicRounds: [seats: number, expected: string][] = [
  [1, 'PartyA=1 PartyB=0 PartyC=0 PartyD=0'],
  [2, 'PartyA=1 PartyB=1 PartyC=0 PartyD=0'],
  [3, 'PartyA=2 PartyB=1 PartyC=0 PartyD=0'],
  [4, 'PartyA=2 PartyB=1 PartyC=1 PartyD=0'],
  [5, 'PartyA=2 PartyB=2 PartyC=1 PartyD=0'],
  [6, 'PartyA=2 PartyB=2 PartyC=1 PartyD=1'],
  [7, 'PartyA=3 PartyB=2 PartyC=1 PartyD=1'],
  [8, 'PartyA=3 PartyB=3 PartyC=1 PartyD=1'],
];
for (const [seats, expected] of classicRounds) {
  test(`Webster classic example after ${seats} seat(s): ${expected}`, () => {
    const parties = allocateWebsterSeats(seats, classicVotes) ?? [];
    assert.is(parties.map((p) => `${p.name}=${p.seats}`).join(' '), expected);
  });
}

interface SeatCase {
  name: string;
  seats: number;
  votes: Record<string, number>;
  initial?: Record<string, number>;
  tieBreaker?: TieBreaker;
  expected: string | undefined; // name=votes/seats, sorted by name
}
const seatCases: SeatCase[] = [
  {
    name: 'three parties, 4 seats (package example)',
    seats: 4,
    votes: { Alpha: 1200, Beta: 900, Gamma: 400 },
    expected: 'Alpha=1200/2 Beta=900/1 Gamma=400/1',
  },
  { name: 'no parties gives no result', seats: 1, votes: {}, expected: undefined },
  {
    name: 'zero new seats leaves every party at 0',
    seats: 0,
    votes: { PartyA: 100, PartyB: 200 },
    expected: 'PartyA=100/0 PartyB=200/0',
  },
  { name: 'no parties and no seats gives no result', seats: 0, votes: {}, expected: undefined },
  {
    name: 'equal priority goes to the party with fewer seats',
    seats: 1,
    votes: { PartyA: 3, PartyB: 1 },
    initial: { PartyA: 1, PartyB: 0 },
    expected: 'PartyA=3/1 PartyB=1/1',
  },
  {
    name: 'equal priority and seats goes to the smaller name',
    seats: 1,
    votes: { PartyA: 1, PartyB: 1 },
    expected: 'PartyA=1/1 PartyB=1/0',
  },
  {
    name: 'a tie-breaker preferring smaller names decides',
    seats: 1,
    votes: { PartyA: 1, PartyB: 1 },
    tieBreaker: (a, b) => a.name < b.name,
    expected: 'PartyA=1/1 PartyB=1/0',
  },
  {
    name: 'a tie-breaker preferring larger names decides',
    seats: 1,
    votes: { PartyA: 1, PartyB: 1 },
    tieBreaker: (a, b) => a.name > b.name,
    expected: 'PartyA=1/0 PartyB=1/1',
  },
  {
    name: 'a held party without votes gets no new seats',
    seats: 2,
    votes: { NewParty1: 1, NewParty2: 1 },
    initial: { OldParty: 0 },
    expected: 'NewParty1=1/1 NewParty2=1/1 OldParty=0/0',
  },
  {
    name: 'held and new parties compete for new seats',
    seats: 2,
    votes: { OldParty: 1, NewParty: 1 },
    initial: { OldParty: 1 },
    expected: 'NewParty=1/2 OldParty=1/1',
  },
  {
    name: 'held seats of a party not voted for are kept',
    seats: 2,
    votes: { PartyA: 100 },
    initial: { PartyB: 3 },
    expected: 'PartyA=100/2 PartyB=0/3',
  },
];
for (const c of seatCases) {
  test(`allocateWebsterSeats: ${c.name}`, () => {
    const parties = allocateWebsterSeats(
      c.seats,
      new Map(Object.entries(c.votes)),
      new Map(Object.entries(c.initial ?? {})),
      c.tieBreaker,
    );
    assert.is(parties?.map((p) => `${p.name}=${p.votes}/${p.seats}`).join(' '), c.expected);
  });
}

// Karmada pkg/util/helper/binding_test.go (Test_dispenser_AllocateByWeight): weights, held seats and UIDs.
const EVEN_UID = '4858ca61-3ff8-4095-8267-f3d059d8074c';
const ODD_UID = 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c';
interface DispenserCase {
  name: string;
  replicas: number;
  held?: string;
  weights: string; // name=weight
  uid?: string;
  expected: string;
}
const dispenserCases: DispenserCase[] = [
  {
    name: 'scale up 6 on 1:2:3 holding 1/2/3',
    replicas: 6,
    held: 'A=1 B=2 C=3',
    weights: 'A=1 B=2 C=3',
    expected: 'A=2 B=4 C=6',
  },
  {
    name: 'scale up 3 on 1:2:3 holding 1/2/3',
    replicas: 3,
    held: 'A=1 B=2 C=3',
    weights: 'A=1 B=2 C=3',
    expected: 'A=2 B=3 C=4',
  },
  {
    name: 'scale up 2 on 1:2:3 holding 1/2/3',
    replicas: 2,
    held: 'A=1 B=2 C=3',
    weights: 'A=1 B=2 C=3',
    expected: 'A=1 B=3 C=4',
  },
  { name: 'HA 2:1, 1 replica', replicas: 1, weights: 'A=2 B=1', expected: 'A=1 B=0' },
  { name: 'HA 2:1, 2 replicas', replicas: 2, weights: 'A=2 B=1', expected: 'A=1 B=1' },
  { name: 'HA 2:1, 3 replicas', replicas: 3, weights: 'A=2 B=1', expected: 'A=2 B=1' },
  { name: 'new 5 on 170:110:60', replicas: 5, weights: 'A=170 B=110 C=60', expected: 'A=2 B=2 C=1' },
  { name: 'new 6 on 170:110:60', replicas: 6, weights: 'A=170 B=110 C=60', expected: 'A=3 B=2 C=1' },
  {
    name: 'new 5 on 1:1 with an odd UID favours the larger name',
    replicas: 5,
    weights: 'A=1 B=1',
    uid: ODD_UID,
    expected: 'A=2 B=3',
  },
  {
    name: 'new 5 on 1:1 with an even UID favours the smaller name',
    replicas: 5,
    weights: 'A=1 B=1',
    uid: EVEN_UID,
    expected: 'A=3 B=2',
  },
];
for (const c of dispenserCases) {
  test(`divideByWebster: ${c.name}`, () => {
    const held = new Map(targets(c.held ?? '').map((t) => [t.name, t.replicas]));
    const weights = targets(c.weights).map((t) => ({
      name: t.name,
      weight: t.replicas,
      ...(held.has(t.name) ? { seats: held.get(t.name) } : {}),
    }));
    const got = divideByWebster(c.replicas, weights, c.uid ?? '');
    assert.ok(sameTargets(got, targets(c.expected)), `got ${show(got)}, want ${c.expected}`);
  });
}

// Karmada binding_test.go (TestDispenseReplicasByTargetClusters): spreading a sum by current replicas
// (also how Job completions are split); several answers are acceptable when the division is a tie.
const spreadCases: { name: string; clusters: string; sum: number; wants: string[] }[] = [
  { name: 'no clusters', clusters: '', sum: 10, wants: [''] },
  { name: '1 cluster, 10 over 5', clusters: 'member1=5', sum: 10, wants: ['member1=10'] },
  {
    name: '3 clusters 1:1:1, 12',
    clusters: 'member1=5 member2=5 member3=5',
    sum: 12,
    wants: ['member1=4 member2=4 member3=4'],
  },
  {
    name: '3 clusters 1:1:1, 10',
    clusters: 'member1=5 member2=5 member3=5',
    sum: 10,
    wants: ['member1=4 member2=3 member3=3', 'member1=3 member2=4 member3=3', 'member1=3 member2=3 member3=4'],
  },
  {
    name: '3 clusters 1:2:3, 13',
    clusters: 'member1=1 member2=2 member3=3',
    sum: 13,
    wants: ['member1=2 member2=4 member3=7'],
  },
];
for (const c of spreadCases) {
  test(`divideByWebster spreads by replicas: ${c.name}`, () => {
    const got = divideByWebster(
      c.sum,
      targets(c.clusters).map((t) => ({ name: t.name, weight: t.replicas })),
      '',
    );
    assert.ok(
      c.wants.some((w) => sameTargets(got, targets(w))),
      `got ${show(got)}`,
    );
  });
}

test('an empty UID ties by ascending name; the two sample UIDs hash even and odd', () => {
  assert.is(fnv1a32(EVEN_UID) & 1, 0);
  assert.is(fnv1a32(ODD_UID) & 1, 1);
  const asc = tieBreakerByUid('');
  assert.ok(asc({ name: 'a', votes: 1, seats: 0 }, { name: 'b', votes: 1, seats: 0 }));
  const desc = tieBreakerByUid(ODD_UID);
  assert.ok(desc({ name: 'b', votes: 1, seats: 0 }, { name: 'a', votes: 1, seats: 0 }));
  assert.ok(desc({ name: 'a', votes: 1, seats: 0 }, { name: 'b', votes: 1, seats: 1 }), 'fewer seats first');
});

test('FNV-1a-32 matches the reference vectors', () => {
  assert.is(fnv1a32(''), 0x811c9dc5);
  assert.is(fnv1a32('a'), 0xe40c292c);
  assert.is(fnv1a32('foobar'), 0xbf9cf968);
});

test('divideByWebster with all weights 0 returns only the held seats', () => {
  assert.equal(
    divideByWebster(
      4,
      [
        { name: 'a', weight: 0, seats: 2 },
        { name: 'b', weight: 0 },
      ],
      '',
    ),
    [{ name: 'a', replicas: 2 }],
  );
});

test.run();
