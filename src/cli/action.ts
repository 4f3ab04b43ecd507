// dist/action.js, the entry of the GitHub Action (action.yml): runs the steps (action-steps.ts)
// with the runner's environment and exits with their code; an unexpected error is one line, exit 2.
import { errorText } from './escape.js';
import { runAction } from './action-steps.js';

runAction(process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stdout.write(`::error::claude-layers action: internal error: ${errorText(e instanceof Error ? e.message.split('\n')[0]! : String(e))}\n`);
    process.exitCode = 2;
  },
);
