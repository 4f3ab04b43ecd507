// explain, lint and render: folders given on the command line must exist (a typo in --home would otherwise
// silently explain an empty HOME). --managed-dir may be missing: no managed policy is the normal case.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { many, one, UsageError, type ParsedArgs } from './args.js';

function mustBeFolder(flag: string, value: string, base: string): void {
  const abs = path.resolve(base, value);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    throw new UsageError(`${flag} ${value} does not exist`);
  }
  if (!st.isDirectory()) throw new UsageError(`${flag} ${value} is not a folder`);
}

export function checkPathFlags(p: ParsedArgs): void {
  const cwdFlag = one(p, 'cwd');
  if (cwdFlag !== undefined) mustBeFolder('--cwd', cwdFlag, process.cwd());
  const home = one(p, 'home');
  if (home !== undefined) mustBeFolder('--home', home, process.cwd());
  const cwd = path.resolve(cwdFlag ?? '.');
  for (const d of many(p, 'add-dir')) mustBeFolder('--add-dir', d, cwd);
}
