// SnapshotFileAccess: one disk call per path until the path is invalidated; an invalidation forgets
// the path, everything below it, its folder's listing and the real paths that lead through it (also
// for keys read long before the first invalidation: the folder tree of keys is built only then).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileAccess, type FileAccess } from '../../src/engine/files/file-access.js';
import { SnapshotFileAccess } from '../../src/engine/files/snapshot.js';

function counting(): { fa: FileAccess; calls: string[] } {
  const calls: string[] = [];
  const fa: FileAccess = {
    stat: (p) => (calls.push(`stat ${p}`), nodeFileAccess.stat(p)),
    lstat: (p) => (calls.push(`lstat ${p}`), nodeFileAccess.lstat(p)),
    readDir: (p) => (calls.push(`readDir ${p}`), nodeFileAccess.readDir(p)),
    readFile: (p, m) => (calls.push(`readFile ${p}`), nodeFileAccess.readFile(p, m)),
    realpath: (p) => (calls.push(`realpath ${p}`), nodeFileAccess.realpath(p)),
  };
  return { fa, calls };
}

test('memoised until invalidated: the path, what is below it, its folder listing and real paths through it', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-snap-')));
  try {
    fs.mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a', 'b', 'f.md'), 'one');
    fs.writeFileSync(path.join(dir, 'other.md'), 'x');
    fs.symlinkSync(path.join(dir, 'a'), path.join(dir, 'link'));
    const { fa, calls } = counting();
    const s = new SnapshotFileAccess(fa);
    const f = path.join(dir, 'a', 'b', 'f.md');
    const viaLink = path.join(dir, 'link', 'b', 'f.md');
    const read = () => [s.stat(f), s.readFile(f, 100), s.readDir(path.join(dir, 'a')), s.realpath(viaLink), s.stat(path.join(dir, 'other.md'))];
    read();
    const first = calls.length;
    read();
    assert.equal(calls.length, first, 'the second round is answered from memory');

    // invalidating the folder a/ forgets f.md below it and the real path that goes through it
    fs.writeFileSync(f, 'two!');
    calls.length = 0;
    s.invalidate(path.join(dir, 'a'));
    read();
    const st = s.stat(f);
    const bytes = s.readFile(f, 100);
    const real = s.realpath(viaLink);
    assert.ok(st.ok && st.value.size === 4);
    assert.ok(bytes.ok && Buffer.from(bytes.value).toString() === 'two!');
    assert.ok(real.ok && real.value === f);
    assert.deepEqual(calls.sort(), [`readDir ${path.join(dir, 'a')}`, `readFile ${f}`, `realpath ${viaLink}`, `stat ${f}`].sort(), 'other.md is still known');

    // keys added after an invalidation are forgotten by the next one
    const g = path.join(dir, 'a', 'g.md');
    fs.writeFileSync(g, 'g');
    assert.ok(s.stat(g).ok);
    calls.length = 0;
    s.invalidate(g);
    s.stat(g);
    assert.deepEqual(calls, [`stat ${g}`]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
