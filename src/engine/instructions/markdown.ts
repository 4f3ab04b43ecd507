// Block-level HTML comment stripping and @include extraction, both following CommonMark block
// tokens (marked's lexer without GFM), as Claude Code does.
import type { Token } from 'marked';

// marked is loaded on first use (the editor's extension host starts without it)
let LexerClass: typeof import('marked').Lexer | undefined;

export function lexMarkdown(text: string): Token[] | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (the engine is synchronous)
    LexerClass ??= (require('marked') as typeof import('marked')).Lexer;
    return new LexerClass({ gfm: false }).lex(text);
  } catch {
    return undefined;
  }
}

const COMMENT = /<!--[\s\S]*?-->/g;

function isCommentBlock(raw: string): boolean {
  const t = raw.trimStart();
  return t.startsWith('<!--') && t.includes('-->');
}

/** Remove `<!--…-->` from block-level HTML tokens that start with a comment; drop the token if nothing remains. */
export function stripBlockComments(tokens: Token[]): { content: string; stripped: boolean } {
  let out = '';
  let stripped = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'html' && isCommentBlock(t.raw)) {
      // Claude Code's lexer keeps the blank lines after an HTML block inside the block's text;
      // marked gives them a `space` token of their own: fold it back in.
      let raw = t.raw;
      while (tokens[i + 1]?.type === 'space') raw += tokens[++i]!.raw;
      const rest = raw.replace(COMMENT, '');
      stripped = true;
      if (rest.trim().length > 0) out += rest;
      continue;
    }
    out += t.raw;
  }
  return { content: out, stripped };
}

const INCLUDE = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;

export interface IncludeRef {
  /** the path as written, after `#fragment` removal and `\ ` unescaping */
  spec: string;
}

function acceptable(p: string): boolean {
  if (p.startsWith('./') || p.startsWith('~/') || (p.startsWith('/') && p !== '/')) return true;
  return !p.startsWith('@') && !/^[#%^&*()]+/.test(p) && /^[a-zA-Z0-9._-]/.test(p);
}

function scan(text: string, out: string[]): void {
  INCLUDE.lastIndex = 0;
  for (let m = INCLUDE.exec(text); m !== null; m = INCLUDE.exec(text)) {
    let p = m[1];
    if (!p) continue;
    const hash = p.indexOf('#');
    if (hash !== -1) p = p.substring(0, hash);
    if (!p) continue;
    p = p.replaceAll('\\ ', ' ');
    if (p && acceptable(p)) out.push(p);
  }
}

/** @-references in text tokens (not code, code spans, HTML blocks or comments), in order of appearance. */
export function extractIncludeSpecs(tokens: Token[]): string[] {
  const out: string[] = [];
  const walk = (list: Token[]): void => {
    for (const t of list) {
      if (t.type === 'code' || t.type === 'codespan') continue;
      if (t.type === 'html') {
        const raw = t.raw || '';
        if (isCommentBlock(raw)) {
          const rest = raw.replace(COMMENT, '');
          if (rest.trim().length > 0) scan(rest, out);
        }
        continue;
      }
      if (t.type === 'text') scan((t as { text?: string }).text || '', out);
      const nested = (t as { tokens?: Token[] }).tokens;
      if (nested) walk(nested);
      const items = (t as { items?: Token[] }).items;
      if (items) walk(items);
    }
  };
  walk(tokens);
  return [...new Set(out)];
}
