import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  allocateWebsterSeats,
  divideByWebster,
  tieBreakerByUid,
  type Party,
  type TieBreaker,
} from '../../src/assignments/divideByWebster.ts';

// Karmada's Webster step as it is written (one seat per step, a linear scan for the best party), kept here
// only as the reference the bounded-time division must agree with.
function referenceSeats(
  newSeats: number,
  votes: ReadonlyMap<string, number>,
  initial: ReadonlyMap<string, number>,
  tieBreaker?: TieBreaker,
): Party[] | undefined {
  const parties = new Map<string, Party>();
  for (const [name, seats] of initial) parties.set(name, { name, votes: 0, seats });
  for (const [name, v] of votes) {
    const existing = parties.get(name);
    if (existing) existing.votes = v;
    else parties.set(name, { name, votes: v, seats: 0 });
  }
  if (parties.size === 0) return undefined;
  const all = [...parties.values()];
  const first = (a: Party, b: Party): boolean => {
    const pa = a.votes / (2 * a.seats + 1);
    const pb = b.votes / (2 * b.seats + 1);
    if (pa !== pb) return pa > pb;
    if (tieBreaker) return tieBreaker(a, b);
    if (a.seats !== b.seats) return a.seats < b.seats;
    return a.name < b.name;
  };
  for (let left = newSeats; left > 0; left--) {
    let best = all[0] as Party;
    for (const p of all) if (p !== best && first(p, best)) best = p;
    best.seats++;
  }
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Deterministic PRNG (mulberry32) so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UIDS = ['', '4858ca61-3ff8-4095-8267-f3d059d8074c', 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c'];

function randomCase(seed: number) {
  const r = random(seed);
  const int = (max: number) => Math.floor(r() * (max + 1));
  const count = 1 + int(7);
  // Small vote ranges make many exact ties; large ones exercise rounding of votes / (2s + 1).
  const voteRange = [3, 10, 1000, 2147483647, 2 ** 40][int(4)] as number;
  const votes = new Map<string, number>();
  const initial = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const name = `c${int(9)}`;
    const roll = r();
    if (roll < 0.1) initial.set(name, int(20));
    else {
      votes.set(name, r() < 0.1 ? 0 : 1 + int(voteRange - 1));
      if (roll < 0.4) initial.set(name, int(30));
    }
  }
  const seats = [0, 1, 2, int(10), int(200), int(3000)][int(5)] as number;
  return { votes, initial, seats, uid: UIDS[int(2)] as string };
}

test('allocateWebsterSeats hands out the same seats as the seat-by-seat step over 3000 random cases', () => {
  for (let seed = 1; seed <= 3000; seed++) {
    const c = randomCase(seed);
    if (![...c.votes.values()].some((v) => v > 0)) continue; // no seat can be weighed; divideByWebster never asks
    const tie = tieBreakerByUid(c.uid);
    const want = referenceSeats(c.seats, c.votes, c.initial, tie);
    const got = allocateWebsterSeats(c.seats, c.votes, c.initial, tie);
    assert.equal(got, want, `seed ${seed}: ${JSON.stringify({ ...c, votes: [...c.votes], initial: [...c.initial] })}`);
    const plain = allocateWebsterSeats(c.seats, c.votes, c.initial);
    assert.equal(plain, referenceSeats(c.seats, c.votes, c.initial), `seed ${seed} without a tie-breaker`);
  }
});

test('divideByWebster agrees with the seat-by-seat step on equal weights at every seat count up to 400', () => {
  const weights = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => ({ name, weight: 7 }));
  for (const uid of UIDS) {
    for (let seats = 0; seats <= 400; seats++) {
      const want =
        referenceSeats(seats, new Map(weights.map((w) => [w.name, w.weight])), new Map(), tieBreakerByUid(uid)) ?? [];
      assert.equal(
        divideByWebster(seats, weights, uid),
        want.map((p) => ({ name: p.name, replicas: p.seats })),
        `${seats} seats, uid ${uid}`,
      );
    }
  }
});

test('2147483647 seats over 500 equal parties take a few thousand comparisons, not one step per seat', () => {
  // Equal votes: every comparison of the seat-by-seat step is a tie, so the tie-breaker counts them. The heap hands
  // out fewer seats than there are parties, each in at most 2 log2(500) comparisons, after building it in 2 × 500.
  const bound = 500 * 2 * Math.ceil(Math.log2(500)) + 2 * 500;
  const tie = tieBreakerByUid(UIDS[2] as string);
  let comparisons = 0;
  const counted: TieBreaker = (a, b) => {
    // Thrown rather than counted on: a division that steps seat by seat would compare billions of times.
    if (++comparisons > bound) throw new Error(`more than ${bound} comparisons`);
    return tie(a, b);
  };
  const votes = new Map(Array.from({ length: 500 }, (_, i) => [`member-${String(i).padStart(3, '0')}`, 7]));
  const parties = allocateWebsterSeats(2147483647, votes, new Map(), counted) ?? [];
  assert.ok(comparisons > 0, 'the last seats went one by one, through the tie-breaker');
  assert.is(
    parties.reduce((s, p) => s + p.seats, 0),
    2147483647,
  );
  const fewest = Math.floor(2147483647 / 500);
  assert.ok(
    parties.every((p) => p.seats === fewest || p.seats === fewest + 1),
    'equal votes, seats within one',
  );
});

test('2147483647 replicas over 500 clusters divide in proportion and in full', () => {
  const weights = Array.from({ length: 500 }, (_, i) => ({
    name: `member-${String(i).padStart(3, '0')}`,
    weight: 1 + ((i * 7919) % 1000),
  }));
  const result = divideByWebster(2147483647, weights, UIDS[2] as string);
  assert.is(
    result.reduce((s, tc) => s + tc.replicas, 0),
    2147483647,
  );
  const total = weights.reduce((s, w) => s + w.weight, 0);
  for (const tc of result) {
    const weight = weights.find((w) => w.name === tc.name)?.weight as number;
    assert.ok(Math.abs(tc.replicas - (2147483647 * weight) / total) <= 1, `${tc.name}: ${tc.replicas}`);
  }
});

test.run();
