// Go's sort.Sort and sort.Slice (pattern-defeating quicksort, Go 1.22 and later): an unstable sort whose order of
// equal elements is still fully determined by the input. Karmada breaks some ties only by where this sort leaves
// equal elements (an Aggregated division keeps the first clusters of a list sorted by free replicas), so reproducing
// its results needs the same algorithm, step for step; a stable sort agrees only up to 12 elements, where Go runs
// an insertion sort.

/** `less(a, b)`: a sorts before b. Must be a strict weak order, as Go requires. */
export type Less<T> = (a: T, b: T) => boolean;

/** Sorts `data` in place exactly as Go's sort.Sort would with the same Less. */
export function goSort<T>(data: T[], less: Less<T>): void {
  if (data.length <= 1) return;
  new GoSorter(data, less).run();
}

const INSERTION_MAX = 12;
const NINTHER_MIN = 50;
const SHIFTING_MIN = 50;
const PARTIAL_STEPS = 5;
const MAX_SWAPS = 12;
const U64 = (1n << 64n) - 1n;

type Hint = 'unknown' | 'increasing' | 'decreasing';

class GoSorter<T> {
  constructor(
    private readonly data: T[],
    private readonly lessThan: Less<T>,
  ) {}

  run(): void {
    this.pdqsort(0, this.data.length, bitLength(this.data.length));
  }

  private less(i: number, j: number): boolean {
    return this.lessThan(this.data[i] as T, this.data[j] as T);
  }

  private swap(i: number, j: number): void {
    const t = this.data[i] as T;
    this.data[i] = this.data[j] as T;
    this.data[j] = t;
  }

  private pdqsort(a: number, b: number, limit: number): void {
    let balanced = true;
    let partitioned = true;
    for (;;) {
      const length = b - a;
      if (length <= INSERTION_MAX) {
        this.insertionSort(a, b);
        return;
      }
      if (limit === 0) {
        this.heapSort(a, b);
        return;
      }
      if (!balanced) {
        this.breakPatterns(a, b);
        limit--;
      }
      let [pivot, hint] = this.choosePivot(a, b);
      if (hint === 'decreasing') {
        this.reverse(a, b);
        pivot = b - 1 - (pivot - a);
        hint = 'increasing';
      }
      if (balanced && partitioned && hint === 'increasing' && this.partialInsertionSort(a, b)) return;
      // Nothing in [a, b) is below the element before it: the pivot's equals go first and need no more sorting.
      if (a > 0 && !this.less(a - 1, pivot)) {
        a = this.partitionEqual(a, b, pivot);
        continue;
      }
      const [mid, already] = this.partition(a, b, pivot);
      partitioned = already;
      const left = mid - a;
      const right = b - mid;
      const threshold = Math.trunc(length / 8);
      if (left < right) {
        balanced = left >= threshold;
        this.pdqsort(a, mid, limit);
        a = mid + 1;
      } else {
        balanced = right >= threshold;
        this.pdqsort(mid + 1, b, limit);
        b = mid;
      }
    }
  }

  private insertionSort(a: number, b: number): void {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && this.less(j, j - 1); j--) this.swap(j, j - 1);
  }

  private siftDown(root: number, hi: number, first: number): void {
    for (;;) {
      let child = 2 * root + 1;
      if (child >= hi) return;
      if (child + 1 < hi && this.less(first + child, first + child + 1)) child++;
      if (!this.less(first + root, first + child)) return;
      this.swap(first + root, first + child);
      root = child;
    }
  }

  private heapSort(a: number, b: number): void {
    const hi = b - a;
    for (let i = Math.trunc((hi - 1) / 2); i >= 0; i--) this.siftDown(i, hi, a);
    for (let i = hi - 1; i >= 0; i--) {
      this.swap(a, a + i);
      this.siftDown(0, i, a);
    }
  }

  private partition(a: number, b: number, pivot: number): [number, boolean] {
    this.swap(a, pivot);
    let i = a + 1;
    let j = b - 1;
    while (i <= j && this.less(i, a)) i++;
    while (i <= j && !this.less(j, a)) j--;
    if (i > j) {
      this.swap(j, a);
      return [j, true];
    }
    this.swap(i, j);
    i++;
    j--;
    for (;;) {
      while (i <= j && this.less(i, a)) i++;
      while (i <= j && !this.less(j, a)) j--;
      if (i > j) break;
      this.swap(i, j);
      i++;
      j--;
    }
    this.swap(j, a);
    return [j, false];
  }

  private partitionEqual(a: number, b: number, pivot: number): number {
    this.swap(a, pivot);
    let i = a + 1;
    let j = b - 1;
    for (;;) {
      while (i <= j && !this.less(a, i)) i++;
      while (i <= j && this.less(a, j)) j--;
      if (i > j) return i;
      this.swap(i, j);
      i++;
      j--;
    }
  }

  private partialInsertionSort(a: number, b: number): boolean {
    let i = a + 1;
    for (let step = 0; step < PARTIAL_STEPS; step++) {
      while (i < b && !this.less(i, i - 1)) i++;
      if (i === b) return true;
      if (b - a < SHIFTING_MIN) return false;
      this.swap(i, i - 1);
      // Go's loop runs down to index 1 of the whole slice, not to a: kept, as it decides where equals end up.
      if (i - a >= 2) {
        for (let j = i - 1; j >= 1 && this.less(j, j - 1); j--) this.swap(j, j - 1);
      }
      if (b - i >= 2) {
        for (let j = i + 1; j < b && this.less(j, j - 1); j++) this.swap(j, j - 1);
      }
    }
    return false;
  }

  /**
   * Go's xorshift seeded with the length (shifts 13, 7, 17 since Go 1.22) picks the three elements to move. Go's guard
   * for fewer than 8 elements is left out: pdqsort gets here only with more than INSERTION_MAX.
   */
  private breakPatterns(a: number, b: number): void {
    const length = b - a;
    let state = BigInt(length);
    const mask = BigInt(2 ** bitLength(length) - 1);
    for (let idx = a + Math.trunc(length / 4) * 2 - 1; idx <= a + Math.trunc(length / 4) * 2 + 1; idx++) {
      state ^= (state << 13n) & U64;
      state ^= state >> 7n;
      state ^= (state << 17n) & U64;
      let other = Number(state & mask);
      if (other >= length) other -= length;
      this.swap(idx, a + other);
    }
  }

  /** Go's static pivot below 8 elements is left out: pdqsort gets here only with more than INSERTION_MAX. */
  private choosePivot(a: number, b: number): [number, Hint] {
    const l = b - a;
    const quarter = Math.trunc(l / 4);
    const swaps = { count: 0 };
    let i = a + quarter;
    let j = a + quarter * 2;
    let k = a + quarter * 3;
    if (l >= NINTHER_MIN) {
      i = this.median(i - 1, i, i + 1, swaps);
      j = this.median(j - 1, j, j + 1, swaps);
      k = this.median(k - 1, k, k + 1, swaps);
    }
    j = this.median(i, j, k, swaps);
    if (swaps.count === 0) return [j, 'increasing'];
    return [j, swaps.count === MAX_SWAPS ? 'decreasing' : 'unknown'];
  }

  private median(a: number, b: number, c: number, swaps: { count: number }): number {
    [a, b] = this.order2(a, b, swaps);
    [b, c] = this.order2(b, c, swaps);
    [a, b] = this.order2(a, b, swaps);
    return b;
  }

  private order2(a: number, b: number, swaps: { count: number }): [number, number] {
    if (this.less(b, a)) {
      swaps.count++;
      return [b, a];
    }
    return [a, b];
  }

  private reverse(a: number, b: number): void {
    for (let i = a, j = b - 1; i < j; i++, j--) this.swap(i, j);
  }
}

/** Go's bits.Len for a non-negative int. */
function bitLength(n: number): number {
  let bits = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 2)) bits++;
  return bits;
}
