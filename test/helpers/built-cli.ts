// The built CLI is three parts: dist/cli.js (the code-cache launcher, src/cli/launch.ts), the CLI
// it starts (dist/cli-main.js) and the chunks it loads on first use (dist/chunks/). Tests that run
// it from elsewhere (as `nobody`, who cannot enter a checkout under /root; from a sandbox of its own)
// copy all three, readable by every user.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** copy the built CLI of `dist` into the folder `to` (which exists); returns the launcher's path there */
export function copyBuiltCli(dist: string, to: string): string {
  for (const f of ['cli.js', 'cli-main.js']) {
    fs.copyFileSync(path.join(dist, f), path.join(to, f));
    fs.chmodSync(path.join(to, f), 0o644);
  }
  const chunks = path.join(dist, 'chunks');
  if (fs.existsSync(chunks)) {
    fs.mkdirSync(path.join(to, 'chunks'), { mode: 0o755 });
    fs.chmodSync(path.join(to, 'chunks'), 0o755);
    for (const f of fs.readdirSync(chunks)) {
      fs.copyFileSync(path.join(chunks, f), path.join(to, 'chunks', f));
      fs.chmodSync(path.join(to, 'chunks', f), 0o644);
    }
  }
  return path.join(to, 'cli.js');
}
