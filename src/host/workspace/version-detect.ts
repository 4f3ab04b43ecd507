// `claude --version`, run only in a trusted workspace and only from a path given in user settings
// or found on PATH (never from a workspace setting); no shell, a short timeout, output parsed
// for one version number.
import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { findOnPath } from '../../ground-truth/process.js';

export { findOnPath };

export function parseVersion(out: string): string | undefined {
  return /(\d+\.\d+\.\d+)/.exec(out)?.[1];
}

export interface Detection {
  version?: string;
  executable?: string;
  error?: string;
  /** why no version was found, for a truthful message and the right action */
  reason?: 'untrusted' | 'not-found' | 'not-absolute' | 'failed';
}

export function detectVersion(trusted: boolean, userPath: string | undefined, timeoutMs = 5000): Promise<Detection> {
  if (!trusted) return Promise.resolve({ error: 'workspace not trusted: nothing is run', reason: 'untrusted' });
  const exe = userPath ?? findOnPath('claude', process.env.PATH ?? '');
  if (!exe) return Promise.resolve({ error: 'claude not found on PATH', reason: 'not-found' });
  if (!path.isAbsolute(exe)) return Promise.resolve({ error: 'claudeLayers.claudePath must be an absolute path', reason: 'not-absolute' });
  return new Promise((resolve) => {
    execFile(exe, ['--version'], { timeout: timeoutMs, cwd: os.homedir(), windowsHide: true, shell: false, maxBuffer: 64 * 1024 }, (err, stdout) => {
      const version = parseVersion(String(stdout ?? ''));
      if (version) resolve({ version, executable: exe });
      else resolve({ executable: exe, error: err ? err.message : 'no version in the output of claude --version', reason: 'failed' });
    });
  });
}
