// claude-layers: the CLI over the engine. Thin: parse, ask the engine, print.
import { UsageError } from './args.js';
import { renderCommand } from './render-command.js';

const USAGE = `usage: claude-layers <command> [options]

commands:
  render   --cwd DIR [--home DIR] [--claude-version V] [--model ID] [--add-dir DIR]...
           [--setting-sources LIST] [--env NAME=VALUE]... [--managed-dir DIR] [--bare]
           [--touch TOOL:ABS_PATH]... --json        the exact request text as JSON
  explain  [FILE] [--cwd DIR] ...                    layers in order, eager and lazy, with sizes
  lint     [--cwd DIR] ... [--format text|json|sarif|github] [--fail-on error|warning|info]
`;

export function main(argv: string[]): number {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'render': {
        const { json, request } = renderCommand(rest);
        process.stdout.write(request !== undefined ? request : `${JSON.stringify(json, null, 2)}\n`);
        return 0;
      }
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(USAGE);
        return cmd === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${cmd}"`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`claude-layers: ${e.message}\n${USAGE}`);
      return 2;
    }
    process.stderr.write(`claude-layers: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    return 3;
  }
}

process.exitCode = main(process.argv.slice(2));
