// What Claude Code makes of one instruction file's bytes: decoding, frontmatter, `paths:`,
// block comments and the @includes it names. Pure functions of (bytes, path, profile).
import * as path from 'node:path';
import { parseFrontmatter, frontmatterKeyLine } from './frontmatter.js';
import { rulePatterns, splitPatterns } from '../globs/globs.js';
import { extractIncludeSpecs, lexMarkdown, stripBlockComments } from './markdown.js';

/** 4 MiB: larger instruction files are skipped whole */
export const MAX_INSTRUCTION_BYTES = 4 * 1024 * 1024;
/** Claude Code's /memory view flags instruction files from this many characters on (they still load) */
export const LARGE_FILE_CHARS = 40_000;

/** Extensions an @include may have (or none). */
export const INCLUDE_EXTENSIONS = new Set(
  ('.md .txt .text .json .yaml .yml .toml .xml .csv .html .htm .css .scss .sass .less .js .ts .tsx .jsx .mjs .cjs .mts .cts ' +
    '.py .pyi .pyw .rb .erb .rake .go .rs .java .kt .kts .scala .c .cpp .cc .cxx .h .hpp .hxx .cs .swift .sh .bash .zsh .fish ' +
    '.ps1 .bat .cmd .env .ini .cfg .conf .config .properties .sql .graphql .gql .proto .vue .svelte .astro .ejs .hbs .pug .jade ' +
    '.php .pl .pm .lua .r .R .dart .ex .exs .erl .hrl .clj .cljs .cljc .edn .hs .lhs .elm .ml .mli .f .f90 .f95 .for .cmake ' +
    '.make .makefile .gradle .sbt .rst .adoc .asciidoc .org .tex .latex .lock .log .diff .patch').split(' '),
);

export function decodeUtf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

export function hasTextExtension(filePath: string): boolean {
  const ext = path.extname(filePath).toLowerCase();
  return !ext || INCLUDE_EXTENSIONS.has(ext);
}

export interface ProcessedFile {
  /** content after frontmatter and block comments are removed (not trimmed) */
  content: string;
  /** rule gating patterns from `paths:`, undefined when unconditional */
  globs?: string[];
  /** `paths:` as written, split on commas */
  rawGlobs?: string[];
  pathsLine?: number;
  frontmatter: Record<string, unknown>;
  hasFrontmatter: boolean;
  yamlError?: string;
  /** the frontmatter nests deeper than MAX_YAML_DEPTH (parsed leniently, as text) */
  yamlTooDeep?: boolean;
  /** @include targets, resolved absolute paths, in order of first appearance */
  includes: string[];
  /** the include specs as written, parallel to `includes` */
  includeSpecs: string[];
  /** 1-based line of each include in the file, parallel to `includes` (undefined when not found) */
  includeLines: (number | undefined)[];
  commentsStripped: boolean;
}

export interface ProcessOptions {
  stripBomBeforeFrontmatter: boolean;
  /** collect @includes (not for MEMORY.md) */
  collectIncludes: boolean;
  home: string;
}

/** Resolve an include spec against the including file's folder, as Claude Code does. */
export function resolveIncludePath(spec: string, fromFile: string, home: string): string {
  const s = spec.trim();
  if (s === '~') return path.normalize(home);
  if (s.startsWith('~/')) return path.normalize(path.join(home, s.slice(2)));
  if (path.isAbsolute(s)) return path.normalize(s);
  return path.normalize(path.join(path.dirname(fromFile), s));
}

/** 1-based line where `@spec` (as written, spaces possibly escaped) first stands in the text */
export function lineOfInclude(text: string, spec: string): number | undefined {
  for (const needle of [`@${spec}`, `@${spec.replaceAll(' ', '\\ ')}`]) {
    const i = text.indexOf(needle);
    if (i !== -1) return text.slice(0, i).split('\n').length;
  }
  return undefined;
}

export function processInstructionText(text: string, filePath: string, opts: ProcessOptions): ProcessedFile {
  const fm = parseFrontmatter(text, opts.stripBomBeforeFrontmatter);
  const body = fm.body;
  const rawPaths = fm.data.paths;
  const globs = rulePatterns(rawPaths);
  const hasComments = body.includes('<!--');
  const wantIncludes = opts.collectIncludes && body.includes('@');
  const tokens = hasComments || wantIncludes ? lexMarkdown(body) : undefined;
  let content = body;
  let commentsStripped = false;
  if (hasComments && tokens) {
    const r = stripBlockComments(tokens);
    content = r.content;
    commentsStripped = r.stripped;
  }
  const includeSpecs = tokens && wantIncludes ? extractIncludeSpecs(tokens) : [];
  const includes: string[] = [];
  const specs: string[] = [];
  const seen = new Set<string>();
  for (const spec of includeSpecs) {
    const abs = resolveIncludePath(spec, filePath, opts.home);
    if (seen.has(abs)) continue;
    seen.add(abs);
    includes.push(abs);
    specs.push(spec);
  }
  return {
    content,
    includeLines: specs.map((spec) => lineOfInclude(text, spec)),
    globs,
    rawGlobs: rawPaths === undefined ? undefined : splitPatterns(rawPaths),
    pathsLine: rawPaths === undefined ? undefined : frontmatterKeyLine(text, 'paths'),
    frontmatter: fm.data,
    hasFrontmatter: fm.yaml !== undefined,
    yamlError: fm.yamlError,
    yamlTooDeep: fm.tooDeep,
    includes,
    includeSpecs: specs,
    commentsStripped,
  };
}
