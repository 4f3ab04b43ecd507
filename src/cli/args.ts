// Command-line parsing shared by every command: known flags only, one-line errors.
export class UsageError extends Error {}

export interface FlagSpec {
  /** flag takes a value */
  value?: boolean;
  /** may be repeated (values collected in order) */
  repeat?: boolean;
}

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string[]>;
}

export function parseArgs(argv: string[], spec: Record<string, FlagSpec>): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('--') || a === '--') {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq === -1 ? a.slice(2) : a.slice(2, eq);
    const s = spec[name];
    if (!s) throw new UsageError(`unknown option --${name}`);
    let value = 'true';
    if (s.value) {
      if (eq !== -1) value = a.slice(eq + 1);
      else {
        // a missing value before the next known option (`--format --cwd x`) is an error, not the value
        const next = argv[i + 1];
        if (next === undefined || (next.startsWith('--') && spec[next.slice(2).split('=')[0]!] !== undefined)) throw new UsageError(`--${name} needs a value`);
        value = argv[++i]!;
      }
    } else if (eq !== -1) throw new UsageError(`--${name} takes no value`);
    const list = flags.get(name) ?? [];
    if (list.length && !s.repeat) throw new UsageError(`--${name} given twice`);
    list.push(value);
    flags.set(name, list);
  }
  return { positionals, flags };
}

export const one = (p: ParsedArgs, name: string): string | undefined => p.flags.get(name)?.[0];
export const many = (p: ParsedArgs, name: string): string[] => p.flags.get(name) ?? [];
export const has = (p: ParsedArgs, name: string): boolean => p.flags.has(name);
