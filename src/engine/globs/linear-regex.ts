// A regular-expression matcher that cannot backtrack: the `ignore` package's expressions (and any
// other expression in the same small dialect) run as a Pike VM, a breadth-first simulation of the
// expression's automaton, so one test costs O(input length × expression size) whatever the pattern.
// JavaScript's own engine backtracks: `**/x/**/x/**/x/**/y` against a path 60 folders deep takes
// seconds there, and nested `*`s take longer than the universe.
//
// The dialect: literals and escapes (`\/`, `\.`, `\s`, `\S`, `\d`, `\w`, `\t`, `\xHH`, `\uHHHH`, ...),
// classes (`[...]`, `[^...]`, ranges), `.`, `^`, `$`, groups `(?:...)`, lookaheads `(?=...)` and
// `(?!...)`, alternation, and the quantifiers `*`, `+`, `?` (greedy or lazy: `test` does not care).
// Flags: `i` (without `u`: JavaScript's non-Unicode case folding). Anything else is refused
// (`compileLinear` returns undefined) and the caller decides.

type CharTest = (c: number) => boolean;

type Node =
  | { k: 'char'; t: CharTest }
  | { k: 'seq'; items: Node[] }
  | { k: 'alt'; alts: Node[] }
  | { k: 'star' | 'plus' | 'opt'; n: Node }
  | { k: 'bol' | 'eol' }
  | { k: 'look'; neg: boolean; n: Node };

class Unsupported extends Error {}

/** JavaScript's non-Unicode case canonicalisation of one code unit (the `i` flag without `u`) */
const canonCache = new Int32Array(0x10000).fill(-1);
function canon(c: number): number {
  const hit = canonCache[c]!;
  if (hit >= 0) return hit;
  return (canonCache[c] = canonOf(c));
}
function canonOf(c: number): number {
  const s = String.fromCharCode(c);
  const u = s.toUpperCase();
  if (u.length !== 1) return c;
  const uc = u.charCodeAt(0);
  return c >= 128 && uc < 128 ? c : uc;
}

/** the code units that fold to the same canonical unit as `c` (the ones a case-insensitive test must try) */
function variants(c: number): number[] {
  const k = canon(c);
  const out = new Set<number>([c, k]);
  for (const x of [String.fromCharCode(k).toLowerCase(), String.fromCharCode(c).toLowerCase()]) if (x.length === 1 && canon(x.charCodeAt(0)) === k) out.add(x.charCodeAt(0));
  return [...out];
}

const SPACE_RANGES: [number, number][] = [
  [9, 13], [32, 32], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
const DIGIT: [number, number][] = [[48, 57]];
const WORD: [number, number][] = [[48, 57], [65, 90], [95, 95], [97, 122]];

function inRanges(r: readonly [number, number][], c: number): boolean {
  for (const [lo, hi] of r) if (c >= lo && c <= hi) return true;
  return false;
}

function complement(r: [number, number][]): [number, number][] {
  const sorted = [...r].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 0xffff) out.push([next, 0xffff]);
  return out;
}

class Parser {
  i = 0;
  looks = 0;
  constructor(
    readonly src: string,
    readonly ignoreCase: boolean,
  ) {}

  parse(): Node {
    const n = this.alt();
    if (this.i !== this.src.length) throw new Unsupported(`unexpected ${this.src[this.i]}`);
    return n;
  }

  private alt(): Node {
    const alts = [this.seq()];
    while (this.src[this.i] === '|') {
      this.i++;
      alts.push(this.seq());
    }
    return alts.length === 1 ? alts[0]! : { k: 'alt', alts };
  }

  private seq(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      let atom = this.atom();
      const q = this.src[this.i];
      if (q === '*' || q === '+' || q === '?') {
        if (atom.k === 'bol' || atom.k === 'eol' || atom.k === 'look') throw new Unsupported('quantified assertion');
        this.i++;
        if (this.src[this.i] === '?') this.i++; // lazy: the same language
        atom = { k: q === '*' ? 'star' : q === '+' ? 'plus' : 'opt', n: atom };
      } else if (q === '{' && /^\{\d/.test(this.src.slice(this.i, this.i + 2))) {
        // `{n}`, `{n,}`, `{n,m}`: spelled out (n copies, then m - n optional ones or a star)
        const m = /^\{(\d{1,3})(,(\d{0,3}))?\}\??/.exec(this.src.slice(this.i));
        if (!m || atom.k === 'bol' || atom.k === 'eol' || atom.k === 'look') throw new Unsupported('counted repetition');
        this.i += m[0].length;
        const lo = Number(m[1]);
        const hi = m[2] === undefined ? lo : m[3] === '' ? Infinity : Number(m[3]);
        if (hi < lo || lo > 100 || (hi !== Infinity && hi > 100)) throw new Unsupported('counted repetition');
        const parts: Node[] = Array.from({ length: lo }, () => atom);
        if (hi === Infinity) parts.push({ k: 'star', n: atom });
        else for (let j = lo; j < hi; j++) parts.push({ k: 'opt', n: atom });
        atom = { k: 'seq', items: parts };
      }
      items.push(atom);
    }
    return items.length === 1 ? items[0]! : { k: 'seq', items };
  }

  private lit(c: number): Node {
    if (!this.ignoreCase) return { k: 'char', t: (x) => x === c };
    const k = canon(c);
    return { k: 'char', t: (x) => x === c || canon(x) === k };
  }

  private ranges(r: [number, number][], neg: boolean): Node {
    if (!this.ignoreCase) return { k: 'char', t: neg ? (x) => !inRanges(r, x) : (x) => inRanges(r, x) };
    // per code unit below 128 the answer is kept (names are mostly ASCII)
    const ascii = new Int8Array(128).fill(-1);
    const any = (x: number): boolean => {
      if (x < 128) {
        const h = ascii[x]!;
        if (h >= 0) return h === 1;
      }
      const v = variants(x).some((u) => inRanges(r, u));
      if (x < 128) ascii[x] = v ? 1 : 0;
      return v;
    };
    return { k: 'char', t: neg ? (x) => !any(x) : any };
  }

  private atom(): Node {
    const s = this.src;
    const c = s[this.i]!;
    if (c === '(') {
      this.i++;
      let look: 'pos' | 'neg' | undefined;
      if (s[this.i] === '?') {
        const m = s[this.i + 1];
        if (m === ':') this.i += 2;
        else if (m === '=' || m === '!') {
          look = m === '=' ? 'pos' : 'neg';
          this.i += 2;
        } else throw new Unsupported('group kind');
      } // a capturing group: the same language
      const n = this.alt();
      if (s[this.i] !== ')') throw new Unsupported('unclosed group');
      this.i++;
      if (look) {
        this.looks++;
        return { k: 'look', neg: look === 'neg', n };
      }
      return n;
    }
    if (c === '[') return this.klass();
    if (c === '\\') {
      this.i++;
      const e = this.escape(false);
      if (typeof e === 'number') return this.lit(e);
      return this.ranges(e, false);
    }
    if (c === '*' || c === '+' || c === '?' || c === ')') throw new Unsupported(`nothing to repeat`);
    this.i++;
    if (c === '^') return { k: 'bol' };
    if (c === '$') return { k: 'eol' };
    if (c === '.') return this.ranges([[10, 10], [13, 13], [0x2028, 0x2029]], true);
    return this.lit(c.charCodeAt(0));
  }

  /** after a backslash: a code unit, or a set of ranges for a class escape */
  private escape(inClass: boolean): number | [number, number][] {
    const s = this.src;
    const c = s[this.i];
    if (c === undefined) throw new Unsupported('trailing backslash');
    this.i++;
    switch (c) {
      case 's': return SPACE_RANGES;
      case 'S': return complement(SPACE_RANGES);
      case 'd': return DIGIT;
      case 'D': return complement(DIGIT);
      case 'w': return WORD;
      case 'W': return complement(WORD);
      case 't': return 9;
      case 'n': return 10;
      case 'v': return 11;
      case 'f': return 12;
      case 'r': return 13;
      case '0': if (!/[0-9]/.test(s[this.i] ?? '')) return 0; throw new Unsupported('octal');
      case 'b': if (inClass) return 8; throw new Unsupported('word boundary');
      case 'x':
      case 'u': {
        const len = c === 'x' ? 2 : 4;
        const hex = s.slice(this.i, this.i + len);
        if (new RegExp(`^[0-9A-Fa-f]{${len}}$`).test(hex)) {
          this.i += len;
          return parseInt(hex, 16);
        }
        return c.charCodeAt(0);
      }
      default:
        if (/[1-9BkcpP]/.test(c)) throw new Unsupported(`escape \\${c}`);
        return c.charCodeAt(0);
    }
  }

  private klass(): Node {
    const s = this.src;
    this.i++;
    let neg = false;
    if (s[this.i] === '^') {
      neg = true;
      this.i++;
    }
    const r: [number, number][] = [];
    const one = (): number | [number, number][] => {
      const ch = s[this.i];
      if (ch === undefined) throw new Unsupported('unclosed class');
      if (ch === '\\') {
        this.i++;
        return this.escape(true);
      }
      this.i++;
      return ch.charCodeAt(0);
    };
    while (s[this.i] !== ']') {
      const a = one();
      if (typeof a !== 'number') {
        r.push(...a);
        continue;
      }
      if (s[this.i] === '-' && s[this.i + 1] !== undefined && s[this.i + 1] !== ']') {
        this.i++;
        const b = one();
        if (typeof b !== 'number') {
          r.push([a, a], [45, 45], ...b);
          continue;
        }
        if (a > b) throw new Unsupported('range out of order');
        r.push([a, b]);
      } else r.push([a, a]);
    }
    this.i++;
    return this.ranges(r, neg);
  }
}

// ---- the program ----------------------------------------------------------------------------------

type Inst =
  | { op: 'char'; t: CharTest; next: number }
  | { op: 'split'; a: number; b: number }
  | { op: 'jmp'; to: number }
  | { op: 'bol' | 'eol'; next: number }
  | { op: 'look'; neg: boolean; prog: Prog; id: number; next: number }
  | { op: 'match' };

interface Prog {
  insts: Inst[];
  /**
   * per instruction, the step that last visited it; kept across tests so that a test costs
   * O(input × states reached), not O(program size) for a fresh array (a 640,000-instruction
   * program tested against every file of a workspace)
   */
  mark?: Int32Array;
  /** the last step number handed out for `mark` */
  step?: number;
}

function compile(root: Node, counter: { looks: number }): Prog {
  const insts: Inst[] = [];
  const emit = (i: Inst): number => insts.push(i) - 1;
  // each builder returns its entry and patches `next` of its exits to the given continuation
  const build = (n: Node, next: number): number => {
    switch (n.k) {
      case 'char': return emit({ op: 'char', t: n.t, next });
      case 'bol':
      case 'eol': return emit({ op: n.k, next });
      case 'look': {
        const prog = compile(n.n, counter);
        return emit({ op: 'look', neg: n.neg, prog, id: counter.looks++, next });
      }
      case 'seq': {
        let at = next;
        for (let j = n.items.length - 1; j >= 0; j--) at = build(n.items[j]!, at);
        return at;
      }
      case 'alt': {
        const entries = n.alts.map((a) => build(a, next));
        let at = entries[entries.length - 1]!;
        for (let j = entries.length - 2; j >= 0; j--) at = emit({ op: 'split', a: entries[j]!, b: at });
        return at;
      }
      case 'opt': {
        const body = build(n.n, next);
        return emit({ op: 'split', a: body, b: next });
      }
      case 'star': {
        const split = emit({ op: 'split', a: -1, b: next });
        const body = build(n.n, split);
        (insts[split] as { a: number }).a = body;
        return split;
      }
      case 'plus': {
        const split = emit({ op: 'split', a: -1, b: next });
        const body = build(n.n, split);
        (insts[split] as { a: number }).a = body;
        return body;
      }
    }
  };
  const entry = emit({ op: 'jmp', to: -1 }); // instruction 0: the simulation begins there
  const match = emit({ op: 'match' });
  (insts[entry] as { to: number }).to = build(root, match);
  return { insts };
}

class Run {
  /** lookahead results per (lookahead, position): each is simulated at most once per position */
  private memo = new Map<number, boolean>();
  constructor(
    readonly s: string,
    readonly looks: number,
  ) {}

  look(id: number, prog: Prog, pos: number): boolean {
    const key = id * (this.s.length + 1) + pos;
    let v = this.memo.get(key);
    if (v === undefined) this.memo.set(key, (v = this.exec(prog, pos, false)));
    return v;
  }

  /** does `prog` match at `from` (anchored), or anywhere from `from` on (search)? */
  exec(prog: Prog, from: number, search: boolean): boolean {
    const s = this.s;
    const n = s.length;
    const insts = prog.insts;
    const size = insts.length;
    const mark = (prog.mark ??= new Int32Array(size));
    if ((prog.step ?? 0) > 0x7fff0000 - n) {
      mark.fill(0);
      prog.step = 0;
    }
    let clist: number[] = [];
    let nlist: number[] = [];
    const stack: number[] = [];
    let gen = 0;
    // follow the epsilon moves from pc at position i; true when the match state is reachable
    const add = (list: number[], pc0: number, i: number): boolean => {
      stack.push(pc0);
      while (stack.length) {
        const pc = stack.pop()!;
        if (mark[pc] === gen) continue;
        mark[pc] = gen;
        const ins = insts[pc]!;
        switch (ins.op) {
          case 'match':
            stack.length = 0;
            return true;
          case 'jmp': stack.push(ins.to); break;
          case 'split': stack.push(ins.b, ins.a); break;
          case 'bol': if (i === 0) stack.push(ins.next); break;
          case 'eol': if (i === n) stack.push(ins.next); break;
          case 'look': if (this.look(ins.id, ins.prog, i) !== ins.neg) stack.push(ins.next); break;
          case 'char': list.push(pc); break;
        }
      }
      return false;
    };
    // step numbers are unique across tests of this program: no mark from an earlier test matches
    const base = (prog.step ?? 0) + 1 - from;
    prog.step = base + n + 1;
    gen = base + from;
    if (add(clist, 0, from)) return true;
    for (let i = from; i < n; i++) {
      const c = s.charCodeAt(i);
      gen = base + i + 1;
      nlist.length = 0;
      for (const pc of clist) {
        const ins = insts[pc] as { t: CharTest; next: number };
        if (ins.t(c) && add(nlist, ins.next, i + 1)) return true;
      }
      if (search && add(nlist, 0, i + 1)) return true;
      if (nlist.length === 0 && !search) return false;
      [clist, nlist] = [nlist, clist];
    }
    return false;
  }
}

export interface LinearRegex {
  readonly test: (s: string) => boolean;
  /** quantifiers (`*`, `+`) in the expression: with one or none, backtracking is harmless */
  readonly quantifiers: number;
}

/** Compile `source` (flags: '' or 'i') into a matcher that cannot backtrack; undefined if outside the dialect. */
export function compileLinear(source: string, flags = ''): LinearRegex | undefined {
  if (!/^i?$/.test(flags)) return undefined;
  let root: Node;
  const p = new Parser(source, flags === 'i');
  try {
    root = p.parse();
  } catch {
    // outside the dialect (Unsupported), or too deep to parse: the caller decides
    return undefined;
  }
  let quantifiers = 0;
  const count = (n: Node): void => {
    if (n.k === 'star' || n.k === 'plus') quantifiers++;
    if ('n' in n) count(n.n);
    if (n.k === 'seq') n.items.forEach(count);
    if (n.k === 'alt') n.alts.forEach(count);
  };
  let prog: Prog;
  try {
    count(root);
    prog = compile(root, { looks: 0 });
  } catch {
    return undefined;
  }
  return {
    quantifiers,
    test: (s: string) => new Run(s, p.looks).exec(prog, 0, true),
  };
}
