// The analysis board's game tree: every line played or imported from one start. A node's first
// child is its main line, the others its variations, in PGN's order.
const nodeOf = (move, parent) => ({ move, parent, children: [], chance: undefined, mistake: '' });
// The child of `node` that plays `move`, made where it lacks one (its new last child).
const childOf = (node, move) =>
  node.children.find(c => c.move === move) ?? node.children[node.children.push(nodeOf(move, node)) - 1];

export class GameTree {
  // `fen`: the start's FEN; `secondSide`: the second side's colour (x/o, white/black), whose turn a
  // FEN names by its first letter.
  constructor(fen, secondSide) {
    this.root = nodeOf(null, null);
    this.fen = fen;
    const fields = fen.trim().split(/\s+/);
    this.fullmove = Math.max(1, parseInt(fields.at(-1), 10) || 1);
    this.offset = fields[1]?.[0] === secondSide[0] ? 1 : 0;  // the first mover is the second side
  }

  // The node at the end of `moves` from the start, made where the tree lacks it (a new last child:
  // a variation, or the main line where its parent had none).
  follow(moves) {
    let node = this.root;
    for (const move of moves) node = childOf(node, move);
    return node;
  }

  // The node at the end of `moves`, or null where the tree lacks it.
  find(moves) {
    let node = this.root;
    for (const move of moves) node = node?.children.find(c => c.move === move);
    return node ?? null;
  }

  static pathOf(node) {
    const moves = [];
    for (; node.parent; node = node.parent) moves.push(node.move);
    return moves.reverse();
  }

  // The nodes from the start to `node`, then its main line to the end.
  static lineThrough(node) {
    const nodes = [];
    for (let n = node; n; n = n.parent) nodes.unshift(n);
    for (let n = node.children[0]; n; n = n.children[0]) nodes.push(n);
    return nodes;
  }

  // The node and everything after it leave the tree; its parent is returned.
  static remove(node) {
    const parent = node.parent;
    parent.children.splice(parent.children.indexOf(node), 1);
    return parent;
  }

  // The line to `node` becomes the main line: each node on it its parent's first child.
  static promote(node) {
    for (let n = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      siblings.unshift(...siblings.splice(siblings.indexOf(n), 1));
    }
  }

  // The move number of a ply from the start, and whether the second side plays it.
  numberOf(ply) {
    const at = ply + this.offset;
    return { number: this.fullmove + Math.floor(at / 2), second: at % 2 === 1 };
  }

  // The tree as PGN's movetext: {move: node, label} for each move ("1.", "1...", or ""), "(" and ")"
  // around each variation, given to `emit` in order.
  walk(emit) {
    const label = (ply, always) => {
      const { number, second } = this.numberOf(ply);
      return !second ? `${number}.` : always ? `${number}...` : '';
    };
    const line = (from, ply, numbered) => {
      for (let node = from; node.children.length; ++ply) {
        const [main, ...others] = node.children;
        emit({ move: main, label: label(ply, numbered) });
        numbered = others.length > 0;
        for (const other of others) {
          emit('(');
          emit({ move: other, label: label(ply, true) });
          line(other, ply + 1, false);
          emit(')');
        }
        node = main;
      }
    };
    line(this.root, 0, true);
  }

  movetext() {
    const parts = [];
    this.walk(t => parts.push(typeof t === 'string' ? t : [t.label, t.move.move].filter(Boolean).join(' ')));
    return parts.join(' ').replaceAll('( ', '(').replaceAll(' )', ')');
  }
}

// A game as PGN: its tags (a value's quotes and backslashes escaped), the Result tag last, then
// the movetext and the result.
export function pgnText(tags, movetext, result) {
  const lines = Object.entries({ ...tags, Result: result }).map(([k, v]) => `[${k} "${v.replace(/[\\"]/g, c => '\\' + c)}"]`);
  return `${lines.join('\n')}\n\n${movetext} ${result}\n`;
}

// A PGN's tags and its movetext's tree of moves (comments, annotations, move numbers and results
// left out): {tags, lines}, each line {move, lines} in the tree's order.
export function parsePgn(text) {
  const tags = {};
  // Tags, comments ({...} and ; to the line's end) and the moves' text, each read where it starts.
  const body = text.replace(/\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]|\{[^}]*\}|;[^\n]*/g, (found, tag, value) => {
    if (tag) tags[tag] = value.replace(/\\(.)/g, '$1');
    return ' ';
  });
  const root = { lines: [] };
  let at = root;     // the node the next move follows
  let before = null; // the node the last move followed: where a variation starts
  const stack = [];
  for (const token of body.match(/[()]|[^\s()]+/g) ?? []) {
    if (token === '(') {
      if (!before) throw new Error('a variation "(" before any move');
      stack.push([at, before]);
      at = before;
    } else if (token === ')') {
      if (!stack.length) throw new Error('a ")" closes no variation');
      [at, before] = stack.pop();
    } else {
      const move = token.replace(/^\d+\.(\.\.)?/, '').replace(/[!?]+$/, '');
      if (!move || /^\$\d+$/.test(move) || /^(1-0|0-1|1\/2-1\/2|\*)$/.test(move)) continue;
      const next = { move, lines: [] };
      at.lines.push(next);
      [before, at] = [at, next];
    }
  }
  if (stack.length) throw new Error('a variation "(" is not closed');
  return { tags, root };
}

// The parsed lines added to a tree, from its root.
export function addLines(tree, parsed) {
  // With a stack of its own: a long game's main line would overflow the call stack.
  const pending = [[tree.root, parsed.root]];
  while (pending.length) {
    const [node, parsedNode] = pending.pop();
    for (const line of parsedNode.lines) pending.push([childOf(node, line.move), line]);
  }
}

// The main line of parsed PGN: its moves' texts.
export function mainLineOf(parsed) {
  const moves = [];
  for (let node = parsed.root; node.lines.length; node = node.lines[0]) moves.push(node.lines[0].move);
  return moves;
}
