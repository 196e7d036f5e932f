// text/template's execution (text/template/exec.go and funcs.go) over the Go values of goValues.ts: fields of maps,
// the pipeline's unwrapping of interface values, Go's truth, variables, range over slices and maps (keys in byte
// order), the builtin functions, and Go's error words with the node they stopped at.
import { byBytes } from '../patches/patchJsonText.ts';
import { goQuote } from '../text/goQuote.ts';
import { formatValue, formatVerb, sprint, sprintf, sprintln } from './goFmt.ts';
import { type GoData, goInt, goTypeName, isUnsigned, utf8Bytes } from './goValues.ts';
import type { GoTemplate } from './parseGoTemplate.ts';
import {
  type BranchNode,
  type CommandNode,
  type Node,
  type NumberNode,
  nodeText,
  type PipeNode,
  type VariableNode,
} from './templateNodes.ts';

/**
 * A reflect.Value: `iface` when its static type is interface{} (a map's or a slice's element), which is how Go
 * tells `nil pointer evaluating interface {}.x` from `can't evaluate field x in type int64`. undefined is the
 * invalid Value: a missing key, nothing.
 */
export type Value = { data: GoData; iface: boolean } | undefined;

/** The type a function's parameter has: reflect.Value (any value, even none), interface{}, or string. */
export type ParamType = 'value' | 'any' | 'string';

/** A function a template can call, as text/template reflects on it: its parameters, and its body. */
export interface GoFunction {
  params: ParamType[];
  /** The last parameter is variadic (`...interface{}`). */
  variadic: boolean;
  /** The result, or an Error whose message Go would give as `error calling NAME: MESSAGE`. */
  call: (args: Value[]) => Value;
}

export interface ExecuteOptions {
  /** text/template's missingkey option: `default` gives <no value>, `error` stops at a missing key. */
  missingKey: 'default' | 'error';
  functions?: Record<string, GoFunction>;
}

/** An execution error, with Go's words: `template: output:1:7: executing "output" at <.a.b>: ...`. */
export class GoTemplateExecError extends Error {
  override name = 'GoTemplateExecError';
}

/** What the template wrote, and the error that stopped it (after the text written before it). Pure. */
export function executeGoTemplate(
  template: GoTemplate,
  data: GoData,
  options: ExecuteOptions,
): { output: string; error?: GoTemplateExecError } {
  const state = new State(template, template.name, options, { data, iface: false });
  try {
    state.walk({ data, iface: false }, template.trees.get(template.name)!);
    return { output: state.output.join('') };
  } catch (err) {
    if (err instanceof GoTemplateExecError) return { output: state.output.join(''), error: err };
    if (err instanceof RangeError)
      return {
        output: state.output.join(''),
        error: new GoTemplateExecError(`template: ${template.name}: exceeded maximum template depth (100000)`),
      };
    throw err;
  }
}

const MISSING = Symbol('missingVal');
type Final = Value | typeof MISSING;

class Signal {
  constructor(readonly kind: 'break' | 'continue') {}
}

class State {
  readonly output: string[];
  private node: Node | undefined;
  private vars: { name: string; value: Value }[];
  private readonly functions: Record<string, GoFunction>;

  constructor(
    private readonly template: GoTemplate,
    private readonly name: string,
    private readonly options: ExecuteOptions,
    dot: Value,
    output: string[] = [],
  ) {
    this.output = output;
    this.vars = [{ name: '$', value: dot }];
    this.functions = { ...BUILTINS, ...options.functions };
  }

  private at(node: Node) {
    this.node = node;
  }

  errorf(message: string): never {
    if (!this.node) throw new GoTemplateExecError(`template: ${this.name}: ${message}`);
    const text = this.template.text;
    const pos = Buffer.byteLength(text.slice(0, this.node.pos));
    const before = Buffer.from(text, 'utf8').subarray(0, pos).toString('utf8');
    const lastNewline = before.lastIndexOf('\n');
    const line = 1 + (before.match(/\n/g)?.length ?? 0);
    const column = lastNewline < 0 ? pos : pos - Buffer.byteLength(before.slice(0, lastNewline + 1));
    throw new GoTemplateExecError(
      `template: ${this.template.name}:${line}:${column}: executing ${goQuote(this.name)} at <${nodeText(this.node)}>: ${message}`,
    );
  }

  private mark() {
    return this.vars.length;
  }
  private pop(mark: number) {
    this.vars.length = mark;
  }
  private setVar(name: string, value: Value) {
    for (let i = this.vars.length - 1; i >= 0; i--)
      if (this.vars[i]!.name === name) {
        this.vars[i]!.value = value;
        return;
      }
    this.errorf(`undefined variable: ${name}`);
  }
  private varValue(name: string): Value {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.name === name) return this.vars[i]!.value;
    this.errorf(`undefined variable: ${name}`);
  }

  walk(dot: Value, node: Node): void {
    this.at(node);
    switch (node.type) {
      case 'action': {
        const value = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, value);
        return;
      }
      case 'break':
      case 'continue':
        throw new Signal(node.type);
      case 'if':
      case 'with':
        return this.walkIfOrWith(dot, node);
      case 'list':
        for (const n of node.nodes) this.walk(dot, n);
        return;
      case 'range':
        return this.walkRange(dot, node);
      case 'template':
        return this.walkTemplate(dot, node);
      case 'text':
        this.output.push(node.text);
        return;
      default:
        this.errorf(`unknown node: ${nodeText(node)}`);
    }
  }

  private walkIfOrWith(dot: Value, node: BranchNode) {
    const mark = this.mark();
    try {
      const value = this.evalPipeline(dot, node.pipe);
      if (truth(value)) this.walk(node.type === 'with' ? value : dot, node.list);
      else if (node.elseList) this.walk(dot, node.elseList);
    } finally {
      this.pop(mark);
    }
  }

  private walkRange(dot: Value, node: BranchNode) {
    this.at(node);
    const outer = this.mark();
    try {
      const value = indirect(this.evalPipeline(dot, node.pipe)).value;
      const mark = this.mark();
      const decl = node.pipe.decl.length;
      const oneIteration = (index: Value, elem: Value): boolean => {
        if (decl > 0) this.vars[this.vars.length - 1]!.value = elem;
        if (decl > 1) this.vars[this.vars.length - 2]!.value = index;
        try {
          this.walk(elem, node.list);
        } catch (err) {
          if (!(err instanceof Signal)) throw err;
          if (err.kind === 'break') return false;
        } finally {
          this.pop(mark);
        }
        return true;
      };
      const data = value?.data;
      if (value && data !== null && typeof data === 'object' && (data.kind === 'slice' || data.kind === 'map')) {
        if (data.kind === 'slice' && data.items.length > 0) {
          data.items.every((item, i) => oneIteration({ data: goInt(i), iface: false }, { data: item, iface: true }));
          return;
        }
        if (data.kind === 'map' && data.entries.size > 0) {
          [...data.entries.keys()]
            .sort(byBytes)
            .every((key) => oneIteration({ data: key, iface: false }, { data: data.entries.get(key)!, iface: true }));
          return;
        }
      } else if (value !== undefined) this.errorf(`range can't iterate over ${formatReflect(value)}`);
      if (node.elseList) this.walk(dot, node.elseList);
    } finally {
      this.pop(outer);
    }
  }

  private walkTemplate(dot: Value, node: Extract<Node, { type: 'template' }>) {
    this.at(node);
    const tree = this.template.trees.get(node.name);
    if (!tree) this.errorf(`template ${goQuote(node.name)} not defined`);
    const value = this.evalPipeline(dot, node.pipe);
    new State(this.template, node.name, this.options, value, this.output).walk(value, tree);
  }

  private evalPipeline(dot: Value, pipe: PipeNode | undefined): Value {
    if (!pipe) return undefined;
    this.at(pipe);
    let value: Final = MISSING;
    for (const cmd of pipe.cmds) {
      value = this.evalCommand(dot, cmd, value);
      // An interface{} is the value it holds (nil: none), as text/template's "lovely!" line has it.
      value = indirectInterface(value);
    }
    const result = value as Value;
    for (const variable of pipe.decl) {
      if (pipe.isAssign) this.setVar(variable.ident[0]!, result);
      else this.vars.push({ name: variable.ident[0]!, value: result });
    }
    return result;
  }

  private notAFunction(args: readonly Node[], final: Final) {
    if (args.length > 1 || final !== MISSING) this.errorf(`can't give argument to non-function ${nodeText(args[0]!)}`);
  }

  private evalCommand(dot: Value, cmd: CommandNode, final: Final): Value {
    const first = cmd.args[0]!;
    switch (first.type) {
      case 'field':
        return this.evalFieldNode(dot, first, cmd.args, final);
      case 'chain':
        return this.evalChainNode(dot, first, cmd.args, final);
      case 'identifier':
        return this.evalFunction(dot, first, cmd, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first);
      case 'variable':
        return this.evalVariableNode(first, cmd.args, final);
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.type) {
      case 'bool':
        return { data: first.value, iface: false };
      case 'dot':
        return dot;
      case 'nil':
        this.errorf('nil is not a command');
        break;
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return { data: first.text, iface: false };
    }
    this.errorf(`can't evaluate command ${goQuote(nodeText(first))}`);
  }

  private idealConstant(constant: NumberNode): Value {
    this.at(constant);
    const isRune = constant.text.startsWith("'");
    const isHexInt = /^0[xX]/.test(constant.text) && !/[pP]/.test(constant.text);
    if (constant.isFloat && !isHexInt && !isRune && /[.eEpP]/.test(constant.text))
      return { data: { kind: 'float64', value: constant.float64 }, iface: false };
    if (constant.isInt) return { data: goInt(constant.int64), iface: false };
    if (constant.isUint) this.errorf(`${constant.text} overflows int`);
    return undefined;
  }

  private evalFieldNode(dot: Value, field: Extract<Node, { type: 'field' }>, args: readonly Node[], final: Final) {
    this.at(field);
    return this.evalFieldChain(dot, field.ident, args, final);
  }

  private evalChainNode(dot: Value, chain: Extract<Node, { type: 'chain' }>, args: readonly Node[], final: Final) {
    this.at(chain);
    if (chain.node.type === 'nil') this.errorf(`indirection through explicit nil in ${nodeText(chain)}`);
    const pipe = this.evalArg(dot, undefined, chain.node);
    return this.evalFieldChain(pipe, chain.field, args, final);
  }

  private evalVariableNode(variable: VariableNode, args: readonly Node[] | undefined, final: Final) {
    this.at(variable);
    const value = this.varValue(variable.ident[0]!);
    if (variable.ident.length === 1) {
      this.notAFunction(args ?? [variable], final);
      return value;
    }
    return this.evalFieldChain(value, variable.ident.slice(1), args ?? [], final);
  }

  private evalFieldChain(receiver: Value, ident: readonly string[], args: readonly Node[], final: Final): Value {
    let value = receiver;
    for (let i = 0; i < ident.length - 1; i++) value = this.evalField(ident[i]!, [], MISSING, value);
    return this.evalField(ident.at(-1)!, args, final, value);
  }

  private evalField(fieldName: string, args: readonly Node[], final: Final, receiver: Value): Value {
    if (!receiver) {
      if (this.options.missingKey === 'error') this.errorf(`nil data; no entry for key ${goQuote(fieldName)}`);
      return undefined;
    }
    const typ = receiver.iface ? 'interface {}' : goTypeName(receiver.data);
    const { value, isNil } = indirect(receiver);
    if (isNil) this.errorf(`nil pointer evaluating ${typ}.${fieldName}`);
    const data = value!.data;
    if (data !== null && typeof data === 'object' && data.kind === 'map') {
      if (args.length > 1 || final !== MISSING) this.errorf(`${fieldName} is not a method but has arguments`);
      if (data.entries.has(fieldName)) return { data: data.entries.get(fieldName)!, iface: true };
      if (this.options.missingKey === 'error') this.errorf(`map has no entry for key ${goQuote(fieldName)}`);
      return undefined;
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${typ}`);
  }

  private evalFunction(
    dot: Value,
    node: Extract<Node, { type: 'identifier' }>,
    cmd: Node,
    args: readonly Node[] | undefined,
    final: Final,
  ): Value {
    this.at(node);
    const fn = this.functions[node.ident];
    if (!fn) this.errorf(`${goQuote(node.ident)} is not a defined function`);
    return this.evalCall(dot, fn, cmd, node.ident, args, final);
  }

  private evalCall(
    dot: Value,
    fn: GoFunction,
    node: Node,
    name: string,
    allArgs: readonly Node[] | undefined,
    final: Final,
  ): Value {
    const args = allArgs ? allArgs.slice(1) : [];
    const numParams = fn.params.length;
    const numIn = args.length + (final !== MISSING ? 1 : 0);
    let numFixed = args.length;
    if (fn.variadic) {
      numFixed = numParams - 1;
      if (numIn < numFixed)
        this.errorf(`wrong number of args for ${name}: want at least ${numParams - 1} got ${args.length}`);
    } else if (numIn !== numParams) this.errorf(`wrong number of args for ${name}: want ${numParams} got ${numIn}`);
    if (name === 'and' || name === 'or') {
      let v: Value;
      for (const arg of args) {
        v = this.evalArg(dot, 'value', arg);
        if (truth(v) === (name === 'or')) return v;
      }
      if (final !== MISSING) v = this.validateType(final, 'value');
      return v;
    }
    const argv: Value[] = [];
    let i = 0;
    for (; i < numFixed && i < args.length; i++) argv.push(this.evalArg(dot, fn.params[i], args[i]!));
    if (fn.variadic) for (; i < args.length; i++) argv.push(this.evalArg(dot, fn.params.at(-1), args[i]!));
    if (final !== MISSING) {
      const type = fn.variadic && numIn - 1 < numFixed ? fn.params[numIn - 1] : fn.params.at(-1);
      argv.push(this.validateType(final, type));
    }
    let result: Value;
    try {
      // Go's call names the function it was given, as written.
      if (name === 'call') callError(argv[0], args[0] ? nodeText(args[0]) : '');
      result = fn.call(argv);
    } catch (err) {
      if (!(err instanceof Error) || err instanceof GoTemplateExecError || err instanceof RangeError) throw err;
      this.at(node);
      this.errorf(`error calling ${name}: ${err.message}`);
    }
    return result;
  }

  private validateType(value: Value, type: ParamType | undefined): Value {
    if (!value) {
      if (type === undefined || type === 'value') return undefined;
      if (type === 'any') return { data: null, iface: true };
      this.errorf(`invalid value; expected ${type}`);
    }
    if (type === 'string' && typeof value.data !== 'string') {
      if (value.iface && value.data !== null)
        this.errorf(`wrong type for value; expected string; got ${goTypeName(value.data)}`);
      this.errorf(
        `wrong type for value; expected string; got ${value.iface ? 'interface {}' : goTypeName(value.data)}`,
      );
    }
    if (type === 'string') return { data: value.data, iface: false };
    return value;
  }

  private evalArg(dot: Value, type: ParamType | undefined, n: Node): Value {
    this.at(n);
    switch (n.type) {
      case 'dot':
        return this.validateType(dot, type);
      case 'nil':
        if (type === 'value') return undefined;
        if (type === 'any') return { data: null, iface: true };
        this.errorf(`cannot assign nil to ${type}`);
        break;
      case 'field':
        return this.validateType(this.evalFieldNode(dot, n, [n], MISSING), type);
      case 'variable':
        return this.validateType(this.evalVariableNode(n, undefined, MISSING), type);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, n), type);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, n, n, undefined, MISSING), type);
      case 'chain':
        return this.validateType(this.evalChainNode(dot, n, [], MISSING), type);
    }
    if (type === 'string') {
      this.at(n);
      if (n.type === 'string') return { data: n.text, iface: false };
      this.errorf(`expected string; found ${nodeText(n)}`);
    }
    return this.evalEmptyInterface(n);
  }

  private evalEmptyInterface(n: Node): Value {
    this.at(n);
    switch (n.type) {
      case 'bool':
        return { data: n.value, iface: false };
      case 'number':
        return this.idealConstant(n);
      case 'string':
        return { data: n.text, iface: false };
    }
    this.errorf(`can't handle assignment of ${nodeText(n)} to empty interface argument`);
  }

  private printValue(node: Node, value: Value) {
    this.at(node);
    this.output.push(value ? formatValue(value.data) : '<no value>');
  }
}

/** fmt's %v of a reflect.Value as Go's errors print one: the value it holds, <invalid reflect.Value> for none. */
function formatReflect(value: Value): string {
  return value ? formatValue(value.data) : '<invalid reflect.Value>';
}

function indirect(value: Value): { value: Value; isNil: boolean } {
  if (value?.iface)
    return value.data === null ? { value, isNil: true } : { value: { data: value.data, iface: false }, isNil: false };
  return { value, isNil: false };
}

function indirectInterface(value: Value): Value {
  if (!value?.iface) return value;
  return value.data === null ? undefined : { data: value.data, iface: false };
}

/** Go's truth: false, 0, nil, and an empty string, map or slice are false (every Go value here has one). */
function isTrue(value: Value): boolean {
  if (!value) return false;
  const data = value.data;
  if (data === null) return false;
  if (typeof data === 'string') return data.length > 0;
  if (typeof data === 'boolean') return data;
  switch (data.kind) {
    case 'int':
      return data.value !== 0n;
    case 'float64':
      return data.value !== 0;
    case 'map':
      return data.entries.size > 0;
    case 'slice':
      return data.items.length > 0;
  }
}

const truth = (value: Value) => isTrue(indirectInterface(value));

const concrete = (data: GoData): Value => ({ data, iface: false });

type BasicKind = 'bool' | 'int' | 'uint' | 'float' | 'string' | undefined;

function basicKind(value: Value): BasicKind {
  if (!value) return undefined;
  const data = value.data;
  if (typeof data === 'boolean') return 'bool';
  if (typeof data === 'string') return 'string';
  if (data === null || value.iface) return undefined;
  if (data.kind === 'int') return isUnsigned(data.type) ? 'uint' : 'int';
  if (data.kind === 'float64') return 'float';
  return undefined;
}

const numberOf = (value: Value): bigint | number | string | boolean => {
  const data = value!.data;
  if (typeof data === 'string' || typeof data === 'boolean') return data;
  return (data as { value: bigint | number }).value;
};

function eq(arg1: Value, ...rest: Value[]): boolean {
  const a = indirectInterface(arg1);
  if (rest.length === 0) throw new Error('missing argument for comparison');
  const k1 = basicKind(a);
  for (const arg of rest) {
    const b = indirectInterface(arg);
    const k2 = basicKind(b);
    let truth = false;
    if (k1 !== k2) {
      if ((k1 === 'int' && k2 === 'uint') || (k1 === 'uint' && k2 === 'int')) truth = numberOf(a) === numberOf(b);
      else if (a && b) throw new Error('incompatible types for comparison');
    } else if (k1 !== undefined) truth = numberOf(a) === numberOf(b);
    else {
      // Maps, slices and nothing: only nil equals nil.
      const nil = (v: Value) => !v || v.data === null;
      const kindOf = (v: Value) => (v ? goTypeName(v.data) : 'invalid');
      if (a && b && kindOf(a) !== kindOf(b))
        throw new Error(
          `non-comparable types ${formatVerb(a.data, 's')}: ${goTypeName(a.data)}, ${goTypeName(b.data)}: ${formatValue(b.data)}`,
        );
      if (a && b && !nil(a) && !nil(b))
        throw new Error(`non-comparable type ${formatVerb(b.data, 's')}: ${goTypeName(b.data)}`);
      truth = nil(a) === nil(b);
    }
    if (truth) return true;
  }
  return false;
}

function lt(arg1: Value, arg2: Value): boolean {
  const a = indirectInterface(arg1);
  const b = indirectInterface(arg2);
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === undefined || k2 === undefined) throw new Error('invalid type for comparison');
  if (k1 !== k2) {
    if ((k1 === 'int' && k2 === 'uint') || (k1 === 'uint' && k2 === 'int')) return numberOf(a)! < numberOf(b)!;
    throw new Error('incompatible types for comparison');
  }
  if (k1 === 'bool') throw new Error('invalid type for comparison');
  const x = numberOf(a);
  const y = numberOf(b);
  if (typeof x === 'string' && typeof y === 'string') return byBytes(x, y) < 0;
  return x < y;
}

const le = (a: Value, b: Value) => lt(a, b) || eq(a, b);

function indexArg(index: Value, cap: number): number {
  if (!index) throw new Error('cannot index slice/array with nil');
  const data = index.data;
  if (data === null || typeof data !== 'object' || data.kind !== 'int')
    throw new Error(`cannot index slice/array with type ${index.iface ? 'interface {}' : goTypeName(data)}`);
  const x = data.value;
  if (x < 0n || x > BigInt(cap)) throw new Error(`index out of range: ${x}`);
  return Number(x);
}

function index(item: Value, ...indexes: Value[]): Value {
  let current = indirectInterface(item);
  if (!current) throw new Error('index of untyped nil');
  for (const raw of indexes) {
    const idx = indirectInterface(raw);
    const { value, isNil } = indirect(current);
    if (isNil) throw new Error('index of nil pointer');
    const data = value!.data;
    if (typeof data === 'string') {
      const bytes = utf8Bytes(data);
      const x = indexArg(idx, bytes.length);
      if (x >= bytes.length) throw new Error('reflect: string index out of range');
      current = concrete(goInt(bytes[x]!, 'uint8'));
    } else if (data !== null && typeof data === 'object' && data.kind === 'slice') {
      const x = indexArg(idx, data.items.length);
      if (x >= data.items.length) throw new Error('reflect: slice index out of range');
      current = { data: data.items[x]!, iface: true };
    } else if (data !== null && typeof data === 'object' && data.kind === 'map') {
      if (!idx) current = { data: data.entries.get('') ?? null, iface: true };
      else if (typeof idx.data !== 'string')
        throw new Error(`value has type ${goTypeName(idx.data)}; should be string`);
      else current = { data: data.entries.has(idx.data) ? data.entries.get(idx.data)! : null, iface: true };
    } else throw new Error(`can't index item of type ${goTypeName(data)}`);
  }
  return current;
}

function slice(item: Value, ...indexes: Value[]): Value {
  const value = indirectInterface(item);
  if (!value) throw new Error('slice of untyped nil');
  if (indexes.length > 3) throw new Error(`too many slice indexes: ${indexes.length}`);
  const data = value.data;
  let length: number;
  if (typeof data === 'string') {
    if (indexes.length === 3) throw new Error('cannot 3-index slice a string');
    length = utf8Bytes(data).length;
  } else if (data !== null && typeof data === 'object' && data.kind === 'slice') length = data.items.length;
  else throw new Error(`can't slice item of type ${goTypeName(data)}`);
  const idx = [0, length, length];
  indexes.forEach((index, i) => {
    idx[i] = indexArg(index, length);
  });
  if (idx[0]! > idx[1]!) throw new Error(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (indexes.length === 3 && idx[1]! > idx[2]!) throw new Error(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (typeof data === 'string') return concrete(utf8Bytes(data).subarray(idx[0], idx[1]).toString('utf8'));
  return concrete({ kind: 'slice', items: (data as { items: GoData[] }).items.slice(idx[0], idx[1]) });
}

function length(item: Value): Value {
  const { value, isNil } = indirect(item);
  if (isNil) throw new Error('len of nil pointer');
  if (!value) throw new Error('reflect: call of reflect.Value.Type on zero Value');
  const data = value.data;
  if (typeof data === 'string') return concrete(goInt(utf8Bytes(data).length));
  if (data !== null && typeof data === 'object' && data.kind === 'map') return concrete(goInt(data.entries.size));
  if (data !== null && typeof data === 'object' && data.kind === 'slice') return concrete(goInt(data.items.length));
  throw new Error(`len of type ${goTypeName(data)}`);
}

/** html, js and urlquery's reading of their operands: one string as it is, else fmt.Sprint of them (none: <no value>). */
function evalArgs(args: Value[]): string {
  if (args.length === 1 && typeof args[0]?.data === 'string') return args[0].data;
  return sprint(args.map((arg) => (!arg || arg.data === null ? '<no value>' : arg.data)));
}

function htmlEscape(s: string): string {
  return s.replace(/[\0"'&<>]/g, (c) =>
    c === '\0'
      ? '\uFFFD'
      : c === '"'
        ? '&#34;'
        : c === "'"
          ? '&#39;'
          : c === '&'
            ? '&amp;'
            : c === '<'
              ? '&lt;'
              : '&gt;',
  );
}

function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const r = ch.codePointAt(0)!;
    const named: Record<string, string> = {
      '\\': '\\\\',
      "'": "\\'",
      '"': '\\"',
      '<': '\\u003C',
      '>': '\\u003E',
      '&': '\\u0026',
      '=': '\\u003D',
    };
    if (named[ch]) out += named[ch];
    else if (r < 0x20) out += `\\u00${r.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (r < 0x80 || /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) out += ch;
    else out += `\\u${r.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

/** url.QueryEscape: unreserved bytes kept, spaces as +, the rest %XX. */
function queryEscape(s: string): string {
  let out = '';
  for (const b of utf8Bytes(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function callError(fn: Value, name: string): never {
  const f = indirectInterface(fn);
  throw new Error(f ? `non-function ${name} of type ${goTypeName(f.data)}` : 'call of nil');
}

const dataOf = (args: Value[]) => args.map((a) => (a ? a.data : null));
const bool = (b: boolean) => concrete(b);

/** text/template's builtins (funcs.go), each with the parameter types Go reflects on. */
const BUILTINS: Record<string, GoFunction> = {
  and: { params: ['value', 'value'], variadic: true, call: () => undefined },
  or: { params: ['value', 'value'], variadic: true, call: () => undefined },
  call: {
    params: ['value', 'value'],
    variadic: true,
    call: ([fn]) => callError(fn, ''),
  },
  html: { params: ['any'], variadic: true, call: (args) => concrete(htmlEscape(evalArgs(args))) },
  js: { params: ['any'], variadic: true, call: (args) => concrete(jsEscape(evalArgs(args))) },
  urlquery: { params: ['any'], variadic: true, call: (args) => concrete(queryEscape(evalArgs(args))) },
  index: { params: ['value', 'value'], variadic: true, call: ([item, ...indexes]) => index(item, ...indexes) },
  slice: { params: ['value', 'value'], variadic: true, call: ([item, ...indexes]) => slice(item, ...indexes) },
  len: { params: ['value'], variadic: false, call: ([item]) => length(item) },
  not: { params: ['value'], variadic: false, call: ([arg]) => bool(!truth(arg)) },
  print: { params: ['any'], variadic: true, call: (args) => concrete(sprint(dataOf(args))) },
  printf: {
    params: ['string', 'any'],
    variadic: true,
    call: ([format, ...args]) => concrete(sprintf(format!.data as string, dataOf(args))),
  },
  println: { params: ['any'], variadic: true, call: (args) => concrete(sprintln(dataOf(args))) },
  eq: { params: ['value', 'value'], variadic: true, call: ([a, ...rest]) => bool(eq(a, ...rest)) },
  ne: { params: ['value', 'value'], variadic: false, call: ([a, b]) => bool(!eq(a, b)) },
  lt: { params: ['value', 'value'], variadic: false, call: ([a, b]) => bool(lt(a, b)) },
  le: { params: ['value', 'value'], variadic: false, call: ([a, b]) => bool(le(a, b)) },
  gt: { params: ['value', 'value'], variadic: false, call: ([a, b]) => bool(!le(a, b)) },
  ge: { params: ['value', 'value'], variadic: false, call: ([a, b]) => bool(!lt(a, b)) },
};

export { indirect, indirectInterface };
