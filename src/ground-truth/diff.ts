// Line diff for the verify report: Myers' O(ND) algorithm over lines (common prefix and suffix
// trimmed first), rendered as a unified diff with context. Past `maxEdits` differences it gives up
// on a minimal script and reports the middle as one replaced block (still a correct diff).

export type DiffOp = { kind: 'equal' | 'delete' | 'insert'; line: string };

/** the edit script turning `a` into `b` */
export function diffLines(a: string[], b: string[], maxEdits = 2000): DiffOp[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const A = a.slice(pre, a.length - suf);
  const B = b.slice(pre, b.length - suf);
  const head: DiffOp[] = a.slice(0, pre).map((line) => ({ kind: 'equal', line }));
  const tail: DiffOp[] = a.slice(a.length - suf).map((line) => ({ kind: 'equal', line }));
  return [...head, ...myers(A, B, maxEdits), ...tail];
}

function myers(a: string[], b: string[], maxEdits: number): DiffOp[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((line) => ({ kind: 'insert', line }));
  if (m === 0) return a.map((line) => ({ kind: 'delete', line }));
  const max = Math.min(n + m, maxEdits);
  const off = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max; d++) {
    // the frontier before step d, diagonals -d-1 … d+1 only (memory grows with d², not d·(n+m))
    trace.push(v.slice(off - d - 1, off + d + 2));
    const nv = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!)) x = v[off + k + 1]!;
      else x = v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      nv[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    v = nv;
    if (found >= 0) break;
  }
  if (found < 0) {
    // too many differences for a minimal script: one block replaced by the other
    return [...a.map((line): DiffOp => ({ kind: 'delete', line })), ...b.map((line): DiffOp => ({ kind: 'insert', line }))];
  }
  // backtrack through the saved frontiers (trace[d] is the frontier before step d)
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const t = trace[d]!;
    const at = (kk: number) => t[kk + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: 'equal', line: a[--x]! });
      y--;
    }
    if (x === prevX) ops.push({ kind: 'insert', line: b[--y]! });
    else ops.push({ kind: 'delete', line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: 'equal', line: a[--x]! });
    y--;
  }
  return ops.reverse();
}

/** splits text into lines; a final "\n" gives a last empty line, so that it shows in the diff */
export function toLines(s: string): string[] {
  return s.split('\n');
}

/**
 * Unified diff of two texts ('' when equal). `null` stands for "absent" (no startup block, say)
 * and is shown as an empty side with a note in the header.
 */
export function unifiedDiff(expected: string | null, actual: string | null, labels: { a: string; b: string }, context = 3): string {
  if (expected === actual) return '';
  const a = expected === null ? [] : toLines(expected);
  const b = actual === null ? [] : toLines(actual);
  const ops = diffLines(a, b);
  const out = [`--- ${labels.a}${expected === null ? ' (absent)' : ''}`, `+++ ${labels.b}${actual === null ? ' (absent)' : ''}`];
  // group the ops into hunks with `context` lines around each change
  const changed = ops.map((o) => o.kind !== 'equal');
  let i = 0;
  // line numbers (1-based) of each op in a and b
  const an: number[] = [];
  const bn: number[] = [];
  let ai = 0;
  let bi = 0;
  for (const o of ops) {
    an.push(ai + 1);
    bn.push(bi + 1);
    if (o.kind !== 'insert') ai++;
    if (o.kind !== 'delete') bi++;
  }
  while (i < ops.length) {
    if (!changed[i]) {
      i++;
      continue;
    }
    let start = Math.max(0, i - context);
    let end = i;
    // extend while the next change is within 2*context lines
    for (;;) {
      while (end < ops.length && changed[end]) end++;
      let j = end;
      while (j < ops.length && !changed[j] && j - end < 2 * context) j++;
      if (j < ops.length && changed[j] && j - end < 2 * context) end = j;
      else break;
    }
    const stop = Math.min(ops.length, end + context);
    const hunk = ops.slice(start, stop);
    const aLen = hunk.filter((o) => o.kind !== 'insert').length;
    const bLen = hunk.filter((o) => o.kind !== 'delete').length;
    const aStart = aLen === 0 ? an[start]! - 1 : an[start]!;
    const bStart = bLen === 0 ? bn[start]! - 1 : bn[start]!;
    out.push(`@@ -${aStart},${aLen} +${bStart},${bLen} @@`);
    for (const o of hunk) out.push(`${o.kind === 'equal' ? ' ' : o.kind === 'delete' ? '-' : '+'}${visible(o.line)}`);
    i = stop;
    start = stop;
  }
  return out.join('\n');
}

/** trailing blanks and control characters made visible, so that a whitespace-only difference shows */
function visible(line: string): string {
  let s = line.replace(/[\u0000-\u0008\u000B-\u001F\u007F\u200B-\u200F\u2028\u2029\uFEFF]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
  const m = /[ \t]+$/.exec(s);
  if (m) s = s.slice(0, m.index) + m[0].replace(/ /g, '·').replace(/\t/g, '→');
  return s;
}
