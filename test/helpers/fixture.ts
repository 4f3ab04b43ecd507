// Fixture trees in temp folders: a declarative map of relative path → content (or a symlink).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export type Node = string | Buffer | { symlink: string } | { dir: true } | { mode: number; content: string };

export function makeTree(files: Record<string, Node>): { root: string; p: (rel: string) => string; cleanup: () => void } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-fx-')));
  for (const [rel, node] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (typeof node === 'string' || Buffer.isBuffer(node)) fs.writeFileSync(abs, node);
    else if ('symlink' in node) fs.symlinkSync(node.symlink, abs);
    else if ('dir' in node) fs.mkdirSync(abs, { recursive: true });
    else {
      fs.writeFileSync(abs, node.content);
      fs.chmodSync(abs, node.mode);
    }
  }
  return { root, p: (rel) => path.join(root, rel), cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}
