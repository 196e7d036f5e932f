// Lua patterns as gopher-lua reads and matches them (its pm package), which Karmada's string.find, string.match and
// string.gmatch use. Its grammar is not Lua 5.4's, so the VM's own matcher cannot stand in for it: `%f` and `%g` are
// the letters f and g, a range whose ends are not both plain characters (`[%a-z]`, `[a-c-e]`) matches nothing, a
// malformed pattern is accepted (`%` at the end, `%b` without its characters) or refused with other words ("unexpected
// EOS at 2", "invalid ')' at 0"). Matching is its backtracking machine, run here with an explicit stack so that a long
// subject does not overflow the host's, and with a callback every few thousand steps so the caller's deadline holds.

const EOS = -1;
const UNKNOWN_POSITION = -2;

/** pm.Error: what a pattern was refused for, worded as its Error() method words it. */
export class GopherPatternError extends Error {
  override name = 'GopherPatternError';
  constructor(position: number, reason: string) {
    super(position === EOS ? `${reason} at EOS` : position === UNKNOWN_POSITION ? reason : `${reason} at ${position}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Classes

type CharClass =
  | { kind: 'any' }
  | { kind: 'char'; ch: number }
  /** `%x`: a letter class, or for any other character (EOS included) that character. */
  | { kind: 'single'; ch: number }
  | { kind: 'set'; not: boolean; classes: CharClass[] }
  | { kind: 'range'; begin: CharClass; end: CharClass };

const inRange = (ch: number, low: number, high: number) => low <= ch && ch <= high;

/** ASCII only, as pm's singleClass: bytes past 0x7f belong to no letter class. */
function letterClass(letter: number, ch: number): boolean | undefined {
  switch (String.fromCharCode(letter | 0x20)) {
    case 'a':
      return inRange(ch, 0x41, 0x5a) || inRange(ch, 0x61, 0x7a);
    case 'c':
      return inRange(ch, 0x00, 0x1f) || ch === 0x7f;
    case 'd':
      return inRange(ch, 0x30, 0x39);
    case 'l':
      return inRange(ch, 0x61, 0x7a);
    case 'p':
      return inRange(ch, 0x21, 0x2f) || inRange(ch, 0x3a, 0x40) || inRange(ch, 0x5b, 0x60) || inRange(ch, 0x7b, 0x7e);
    case 's':
      return ch === 0x20 || inRange(ch, 0x09, 0x0d);
    case 'u':
      return inRange(ch, 0x41, 0x5a);
    case 'w':
      return inRange(ch, 0x30, 0x39) || inRange(ch, 0x41, 0x5a) || inRange(ch, 0x61, 0x7a);
    case 'x':
      return inRange(ch, 0x30, 0x39) || inRange(ch, 0x61, 0x66) || inRange(ch, 0x41, 0x46);
    case 'z':
      return ch === 0;
    default:
      return undefined;
  }
}

function matches(c: CharClass, ch: number): boolean {
  switch (c.kind) {
    case 'any':
      return true;
    case 'char':
      return c.ch === ch;
    case 'single': {
      const isLetter = inRange(c.ch, 0x41, 0x5a) || inRange(c.ch, 0x61, 0x7a);
      const result = isLetter ? letterClass(c.ch, ch) : undefined;
      if (result === undefined) return ch === c.ch;
      return inRange(c.ch, 0x41, 0x5a) ? !result : result;
    }
    case 'set':
      return c.classes.some((member) => matches(member, ch)) ? !c.not : c.not;
    case 'range':
      return c.begin.kind === 'char' && c.end.kind === 'char' && c.begin.ch <= ch && ch <= c.end.ch;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Scanner: pm's, whose Peek and position quirks decide where errors are reported and when `$` is an anchor.

class Scanner {
  pos = 0;
  started = false;
  private saved = { pos: 0, started: false };
  constructor(readonly src: Uint8Array) {}

  get length(): number {
    return this.src.length;
  }

  next(): number {
    if (!this.started) {
      this.started = true;
      if (this.src.length === 0) this.pos = EOS;
    } else this.pos = this.nextPos();
    return this.pos === EOS ? EOS : (this.src[this.pos] as number);
  }

  nextPos(): number {
    if (this.pos === EOS || this.pos >= this.src.length - 1) return EOS;
    return this.started ? this.pos + 1 : 0;
  }

  peek(): number {
    const atEnd = this.pos === EOS;
    const ch = this.next();
    if (!atEnd) {
      if (this.pos === EOS) this.pos = this.src.length - 1;
      else {
        this.pos--;
        if (this.pos < 0) {
          this.pos = 0;
          this.started = false;
        }
      }
    }
    return ch;
  }

  save(): void {
    this.saved = { pos: this.pos, started: this.started };
  }

  restore(): void {
    this.pos = this.saved.pos;
    this.started = this.saved.started;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Parser

type Pattern =
  | { kind: 'single'; class: CharClass }
  | { kind: 'seq'; mustHead: boolean; mustTail: boolean; patterns: Pattern[] }
  | { kind: 'repeat'; type: number; class: CharClass }
  | { kind: 'positionCapture' }
  | { kind: 'capture'; pattern: Pattern }
  | { kind: 'backReference'; n: number }
  | { kind: 'balance'; begin: number; end: number };

type Seq = Pattern & { kind: 'seq' };

const code = (c: string) => c.charCodeAt(0);

function parseClass(sc: Scanner, allowSet: boolean): CharClass {
  const ch = sc.next();
  if (ch === code('%')) return { kind: 'single', ch: sc.next() };
  if (ch === code('.') && allowSet) return { kind: 'any' };
  if (ch === code('[') && allowSet) return parseClassSet(sc);
  if (ch === EOS) throw new GopherPatternError(sc.pos, 'unexpected EOS');
  return { kind: 'char', ch };
}

function parseClassSet(sc: Scanner): CharClass {
  const set: CharClass & { kind: 'set' } = { kind: 'set', not: false, classes: [] };
  if (sc.peek() === code('^')) {
    set.not = true;
    sc.next();
  }
  let isRange = false;
  for (;;) {
    const ch = sc.peek();
    if (ch === EOS) throw new GopherPatternError(sc.pos, 'unexpected EOS');
    if (ch === code(']') && set.classes.length > 0) {
      sc.next();
      break;
    }
    if ((ch === code(']') || ch === code('-')) && set.classes.length > 0) {
      sc.next();
      isRange = true;
      continue;
    }
    set.classes.push(parseClass(sc, false));
    if (isRange) {
      const end = set.classes.pop() as CharClass;
      const begin = set.classes.pop() as CharClass;
      set.classes.push({ kind: 'range', begin, end });
      isRange = false;
    }
  }
  if (isRange) set.classes.push({ kind: 'char', ch: code('-') });
  return set;
}

function parsePattern(sc: Scanner, topLevel: boolean): Seq {
  const pat: Seq = { kind: 'seq', mustHead: false, mustTail: false, patterns: [] };
  if (topLevel && sc.peek() === code('^')) {
    sc.next();
    pat.mustHead = true;
  }
  for (;;) {
    const ch = sc.peek();
    switch (ch) {
      case code('%'): {
        sc.save();
        sc.next();
        const after = sc.peek();
        if (after === code('0')) throw new GopherPatternError(sc.pos, 'invalid capture index');
        if (inRange(after, code('1'), code('9'))) pat.patterns.push({ kind: 'backReference', n: sc.next() - 48 });
        else if (after === code('b')) {
          sc.next();
          const begin = sc.next();
          pat.patterns.push({ kind: 'balance', begin, end: sc.next() });
        } else {
          sc.restore();
          pat.patterns.push({ kind: 'single', class: parseClass(sc, true) });
        }
        break;
      }
      case code('.'):
      case code('['):
      case code(']'):
        pat.patterns.push({ kind: 'single', class: parseClass(sc, true) });
        break;
      case code(')'):
        if (topLevel) throw new GopherPatternError(sc.pos, "invalid ')'");
        return pat;
      case code('('):
        sc.next();
        if (sc.peek() === code(')')) {
          sc.next();
          pat.patterns.push({ kind: 'positionCapture' });
        } else {
          const inner = parsePattern(sc, false);
          if (sc.peek() !== code(')')) throw new GopherPatternError(sc.pos, 'unfinished capture');
          sc.next();
          pat.patterns.push({ kind: 'capture', pattern: inner });
        }
        break;
      case code('*'):
      case code('+'):
      case code('-'):
      case code('?'): {
        sc.next();
        const last = pat.patterns[pat.patterns.length - 1];
        if (last?.kind === 'single')
          pat.patterns[pat.patterns.length - 1] = { kind: 'repeat', type: ch, class: last.class };
        else pat.patterns.push({ kind: 'single', class: { kind: 'char', ch } });
        break;
      }
      case code('$'):
        if (topLevel && (sc.nextPos() === sc.length - 1 || sc.nextPos() === EOS)) pat.mustTail = true;
        else pat.patterns.push({ kind: 'single', class: { kind: 'char', ch } });
        sc.next();
        break;
      case EOS:
        sc.next();
        return pat;
      default:
        sc.next();
        pat.patterns.push({ kind: 'single', class: { kind: 'char', ch } });
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Compiler

const Op = {
  Char: 0,
  Match: 1,
  TailMatch: 2,
  Jmp: 3,
  Split: 4,
  Save: 5,
  PositionSave: 6,
  Balance: 7,
  BackReference: 8,
} as const;
type OpCode = (typeof Op)[keyof typeof Op];

interface Inst {
  op: OpCode;
  class?: CharClass;
  a: number;
  b: number;
}

/** A class as the bytes it matches, so the machine's inner loop is a lookup. */
function byteTable(c: CharClass): Uint8Array {
  const table = new Uint8Array(256);
  for (let ch = 0; ch < 256; ch++) table[ch] = matches(c, ch) ? 1 : 0;
  return table;
}

function compile(top: Seq): Inst[] {
  const insts: Inst[] = [{ op: Op.Save, a: 0, b: -1 }];
  let capture = 2;
  const emit = (p: Pattern): void => {
    const at = insts.length;
    switch (p.kind) {
      case 'single':
        insts.push({ op: Op.Char, class: p.class, a: -1, b: -1 });
        break;
      case 'seq':
        for (const inner of p.patterns) emit(inner);
        break;
      case 'repeat':
        if (p.type === code('*'))
          insts.push(
            { op: Op.Split, a: at + 1, b: at + 3 },
            { op: Op.Char, class: p.class, a: -1, b: -1 },
            { op: Op.Jmp, a: at, b: -1 },
          );
        else if (p.type === code('+'))
          insts.push({ op: Op.Char, class: p.class, a: -1, b: -1 }, { op: Op.Split, a: at, b: at + 2 });
        else if (p.type === code('-'))
          insts.push(
            { op: Op.Split, a: at + 3, b: at + 1 },
            { op: Op.Char, class: p.class, a: -1, b: -1 },
            { op: Op.Jmp, a: at, b: -1 },
          );
        else insts.push({ op: Op.Split, a: at + 1, b: at + 2 }, { op: Op.Char, class: p.class, a: -1, b: -1 });
        break;
      case 'positionCapture':
        insts.push({ op: Op.PositionSave, a: capture, b: -1 });
        capture += 2;
        break;
      case 'capture': {
        const start = capture;
        capture += 2;
        insts.push({ op: Op.Save, a: start, b: -1 });
        emit(p.pattern);
        insts.push({ op: Op.Save, a: start + 1, b: -1 });
        break;
      }
      case 'balance':
        insts.push({ op: Op.Balance, a: p.begin, b: p.end });
        break;
      case 'backReference':
        insts.push({ op: Op.BackReference, a: p.n, b: -1 });
        break;
    }
  };
  emit(top);
  if (top.mustTail) insts.push({ op: Op.Save, a: 1, b: -1 }, { op: Op.TailMatch, a: -1, b: -1 });
  insts.push({ op: Op.Save, a: 1, b: -1 }, { op: Op.Match, a: -1, b: -1 });
  return insts;
}

// ---------------------------------------------------------------------------------------------------------------
// Machine

/**
 * One match's capture slots as pm's MatchData keeps them: slot 2k and 2k+1 are capture k's start and end (k = 0 is
 * the whole match), each stored as position * 2, plus 1 for a position capture `()`. Slots a failed branch added
 * stay, reset to 0, as pm's slice keeps its length.
 */
export type CaptureSlots = number[];

export const isPositionCapture = (slots: CaptureSlots, i: number): boolean => ((slots[i] as number) & 1) === 1;
export const capturePosition = (slots: CaptureSlots, i: number): number => Math.floor((slots[i] as number) / 2);

const ALTERNATIVE = 0;
const RESTORE = 1;
/** Steps between two calls of the caller's check (its deadline). */
const STEPS_PER_CHECK = 1 << 14;

/** What every attempt of one search shares: the step count and the backtracking stack, grown as needed. */
interface Machine {
  steps: number;
  check: () => void;
  stack: Int32Array;
}

function setSlot(slots: CaptureSlots, slot: number, value: number): number {
  while (slot >= slots.length) slots.push(0);
  const old = slots[slot] as number;
  slots[slot] = value;
  return old;
}

/** recursiveVM from pc 0 at sp, with its recursion as an explicit stack: the end of the match, or -1. */
function run(
  src: Uint8Array,
  insts: Inst[],
  tables: (Uint8Array | undefined)[],
  start: number,
  slots: CaptureSlots,
  machine: Machine,
): number {
  let stack = machine.stack;
  let top = 0;
  let pc = 0;
  let sp = start;
  for (;;) {
    if (++machine.steps >= STEPS_PER_CHECK) {
      machine.steps = 0;
      machine.check();
    }
    const inst = insts[pc] as Inst;
    let failed = false;
    switch (inst.op) {
      case Op.Char:
        if (sp >= src.length || (tables[pc] as Uint8Array)[src[sp] as number] === 0) failed = true;
        else {
          pc++;
          sp++;
        }
        break;
      case Op.Match:
        return sp;
      case Op.TailMatch:
        if (sp >= src.length) return sp;
        failed = true;
        break;
      case Op.Jmp:
        pc = inst.a;
        break;
      case Op.Split:
      case Op.Save:
        if (top + 3 > stack.length) {
          const grown = new Int32Array(stack.length * 2);
          grown.set(stack);
          stack = grown;
          machine.stack = grown;
        }
        if (inst.op === Op.Split) {
          stack[top++] = ALTERNATIVE;
          stack[top++] = inst.b;
          stack[top++] = sp;
          pc = inst.a;
        } else {
          stack[top++] = RESTORE;
          stack[top++] = inst.a;
          stack[top++] = setSlot(slots, inst.a, sp * 2);
          pc++;
        }
        break;
      case Op.PositionSave:
        setSlot(slots, inst.a + 1, 0);
        slots[inst.a] = (sp + 1) * 2 + 1;
        slots[inst.a + 1] = (sp + 1) * 2 + 1;
        pc++;
        break;
      case Op.Balance: {
        if (sp >= src.length || src[sp] !== inst.a) {
          failed = true;
          break;
        }
        let depth = 1;
        let closed = false;
        for (sp = sp + 1; sp < src.length; sp++) {
          if (src[sp] === inst.b) depth--;
          if (depth === 0) {
            closed = true;
            break;
          }
          if (src[sp] === inst.a) depth++;
        }
        if (closed) {
          pc++;
          sp++;
        } else failed = true;
        break;
      }
      case Op.BackReference: {
        const index = inst.a * 2;
        if (index >= slots.length - 1) throw new GopherPatternError(UNKNOWN_POSITION, 'invalid capture index');
        const from = capturePosition(slots, index);
        const to = capturePosition(slots, index + 1);
        // A Go slice from past its end: the runtime's panic, which gopher-lua's protected call reports as is.
        if (from > to) throw new Error(`runtime error: slice bounds out of range [${from}:${to}]`);
        let k = 0;
        while (k < to - from && sp + k < src.length && src[from + k] === src[sp + k]) k++;
        if (k < to - from) failed = true;
        else {
          pc++;
          sp += to - from;
        }
        break;
      }
    }
    if (!failed) continue;
    for (;;) {
      if (top === 0) return -1;
      const value = stack[--top] as number;
      const operand = stack[--top] as number;
      const kind = stack[--top] as number;
      if (kind === RESTORE) slots[operand] = value;
      else {
        pc = operand;
        sp = value;
        break;
      }
    }
  }
}

/**
 * pm.Find: the pattern's matches in src from offset on, at most limit of them (-1 for all). After a match the next
 * search starts where it ended, or one byte further after an empty one; a pattern starting with `^` is tried at the
 * offset only. Throws GopherPatternError for a pattern pm refuses; check is called every few thousand steps.
 */
export function findGopherPattern(
  pattern: Uint8Array,
  src: Uint8Array,
  offset: number,
  limit: number,
  check: () => void = () => {},
): CaptureSlots[] {
  const top = parsePattern(new Scanner(pattern), true);
  const insts = compile(top);
  const tables = insts.map((inst) => (inst.class ? byteTable(inst.class) : undefined));
  const machine: Machine = { steps: 0, check, stack: new Int32Array(96) };
  const found: CaptureSlots[] = [];
  let slots: CaptureSlots = [];
  for (let sp = offset; sp <= src.length; ) {
    const end = run(src, insts, tables, sp, slots, machine);
    sp++;
    if (end >= 0) {
      if (sp < end) sp = end;
      found.push(slots);
      slots = [];
    } else if (slots.length > 0) slots = [];
    if (found.length === limit || top.mustHead) break;
  }
  return found;
}
