// The parse tree of a Go template (text/template/parse/node.go), and each node's text as Go's String() writes it:
// execution errors quote the node they stopped at (`at <.spec.x>`).

export interface NumberNode {
  type: 'number';
  pos: number;
  text: string;
  isInt: boolean;
  isUint: boolean;
  isFloat: boolean;
  isComplex: boolean;
  int64: bigint;
  uint64: bigint;
  float64: number;
}

export interface PipeNode {
  type: 'pipe';
  pos: number;
  isAssign: boolean;
  decl: VariableNode[];
  cmds: CommandNode[];
}

export interface CommandNode {
  type: 'command';
  pos: number;
  args: Node[];
}

export interface VariableNode {
  type: 'variable';
  pos: number;
  ident: string[];
}

export interface ListNode {
  type: 'list';
  pos: number;
  nodes: Node[];
}

export interface BranchNode {
  type: 'if' | 'range' | 'with';
  pos: number;
  pipe: PipeNode;
  list: ListNode;
  elseList: ListNode | undefined;
}

export type Node =
  | ListNode
  | { type: 'text'; pos: number; text: string }
  | { type: 'action'; pos: number; pipe: PipeNode }
  | PipeNode
  | CommandNode
  | { type: 'identifier'; pos: number; ident: string }
  | VariableNode
  | { type: 'dot'; pos: number }
  | { type: 'nil'; pos: number }
  | { type: 'field'; pos: number; ident: string[] }
  | { type: 'chain'; pos: number; node: Node; field: string[] }
  | { type: 'bool'; pos: number; value: boolean }
  | NumberNode
  | { type: 'string'; pos: number; quoted: string; text: string }
  | { type: 'end'; pos: number }
  | { type: 'else'; pos: number }
  | BranchNode
  | { type: 'break' | 'continue'; pos: number }
  | { type: 'template'; pos: number; name: string; pipe: PipeNode | undefined };

/** The node as Go's String() writes it. */
export function nodeText(node: Node): string {
  switch (node.type) {
    case 'list':
      return node.nodes.map(nodeText).join('');
    case 'text':
      return JSON.stringify(node.text);
    case 'action':
      return `{{${nodeText(node.pipe)}}}`;
    case 'pipe':
      return `${node.decl.length > 0 ? `${node.decl.map(nodeText).join(', ')} := ` : ''}${node.cmds.map(nodeText).join(' | ')}`;
    case 'command':
      return node.args.map((arg) => (arg.type === 'pipe' ? `(${nodeText(arg)})` : nodeText(arg))).join(' ');
    case 'identifier':
      return node.ident;
    case 'variable':
      return node.ident.join('.');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'field':
      return node.ident.map((id) => `.${id}`).join('');
    case 'chain':
      return `${node.node.type === 'pipe' ? `(${nodeText(node.node)})` : nodeText(node.node)}${node.field.map((f) => `.${f}`).join('')}`;
    case 'bool':
      return String(node.value);
    case 'number':
      return node.text;
    case 'string':
      return node.quoted;
    case 'end':
      return '{{end}}';
    case 'else':
      return '{{else}}';
    case 'if':
    case 'range':
    case 'with':
      return `{{${node.type} ${nodeText(node.pipe)}}}${nodeText(node.list)}${node.elseList ? `{{else}}${nodeText(node.elseList)}` : ''}{{end}}`;
    case 'break':
    case 'continue':
      return `{{${node.type}}}`;
    case 'template':
      return `{{template ${JSON.stringify(node.name)}${node.pipe ? ` ${nodeText(node.pipe)}` : ''}}}`;
  }
}
