// dist/cli.js: starts the CLI (dist/cli-main.js) with a V8 code cache. Compiling the bundle and
// the chunks it loads is a tenth of a lint run's time (lint at 100,000 files, interleaved runs: min
// 492 → 458 ms, median 537 → 507 ms);
// V8 can keep what it compiled in a run and take it back in the next one. Node 22 does this with
// module.enableCompileCache() (used here when it is there); the Node this CLI supports from (20)
// has only vm.Script's cachedData, so this launcher does what that does, for our own files only:
//   - one cache file per file compiled, per command (`lint` compiles other functions than `explain`),
//     per Node version and per content hash of the file (V8 checks a cache against the length of its
//     source only, so a cache made for other code of the same length would run that code);
//   - in a folder of the user's own (XDG_CACHE_HOME or ~/.cache, claude-layers/code-cache, mode
//     0700), never in a shared one; a cache file not owned by the user, over 32 MiB or whose
//     checksum is wrong is not given to V8 (it does not verify a cache's contents itself);
//   - written at exit, when the run had none or V8 refused it, to a temporary name then renamed
//     (runs at the same time never see half a file), replacing the cache of the same file and command
//     made for other code or another Node; any error on the way means no cache, never a
//     failure. CLAUDE_LAYERS_CODE_CACHE=0 turns it off; CLAUDE_LAYERS_CODE_CACHE=debug says on
//     stderr what happened to each file.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';

const MAX_CACHE_BYTES = 32 * 1024 * 1024;
const HASH_BYTES = 32;
const debug = process.env.CLAUDE_LAYERS_CODE_CACHE === 'debug';

/** the cache folder, or undefined when there is none to use */
function cacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.CLAUDE_LAYERS_CODE_CACHE === '0') return undefined;
  const xdg = env.XDG_CACHE_HOME;
  let base: string;
  if (xdg && path.isAbsolute(xdg)) base = xdg;
  else {
    let home: string;
    try {
      home = os.homedir();
    } catch {
      return undefined;
    }
    if (!home || !path.isAbsolute(home)) return undefined;
    base = path.join(home, '.cache');
  }
  return path.join(base, 'claude-layers', 'code-cache');
}

/** the subcommand (its cache is its own), as a safe file name part */
function commandOf(argv: readonly string[]): string {
  const c = argv.find((a) => !a.startsWith('-'));
  return c && /^[a-z][a-z-]{0,19}$/.test(c) ? c : 'other';
}

const sha256 = (b: Uint8Array | string) => crypto.createHash('sha256').update(b).digest();

/** a cache file's payload when it is ours, whole and unchanged (checksum first, then the payload) */
function readCache(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size <= HASH_BYTES || st.size > MAX_CACHE_BYTES) return undefined;
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return undefined;
    const all = Buffer.alloc(st.size);
    let got = 0;
    while (got < all.length) {
      const n = fs.readSync(fd, all, got, all.length - got, got);
      if (n === 0) return undefined;
      got += n;
    }
    const payload = all.subarray(HASH_BYTES);
    return sha256(payload).equals(all.subarray(0, HASH_BYTES)) ? payload : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Write `file` (its checksum, then `data`) through a temporary name. `stale`: the name's prefix
 * shared by the caches it replaces (the same bundle file and command for another content or Node
 * version), removed once it is written, so that the folder holds one cache per file and command.
 */
function writeCache(dir: string, file: string, data: Buffer, stale: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, Buffer.concat([sha256(data), data]), { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch {
    // no cache this time (and no half-written file left: a full disk, say)
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // nothing to remove
    }
    return;
  }
  try {
    const name = path.basename(file);
    for (const f of fs.readdirSync(dir)) if (f !== name && f.startsWith(stale) && f.endsWith('.bin')) fs.rmSync(path.join(dir, f), { force: true });
  } catch {
    // the old ones stay
  }
}

const toWrite: { script: vm.Script; file: string; dir: string; stale: string }[] = [];
const loaded = new Map<string, unknown>();

/** run a CommonJS file of ours compiled with its cache; its `./chunks/…` requires go through here too */
function run(file: string, command: string, dir: string | undefined): unknown {
  const done = loaded.get(file);
  if (done) return done;
  const source = fs.readFileSync(file, 'utf8');
  const code = source.startsWith('#!') ? `//${source.slice(2)}` : source;
  const wrapped = Module.wrap(code);
  const stale = `${path.basename(file, '.js')}-${command}-`;
  const cacheFile = dir && path.join(dir, `${stale}${process.version}-${process.arch}-${sha256(wrapped).toString('hex').slice(0, 32)}.bin`);
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  // (no importModuleDynamically: the one import() in our bundles, secretlint's P12 rule reading the
  // file its text came from, fails for the names lint gives its texts either way, and Node 20 warns
  // on stderr when the default loader is lent to a script)
  const script = new vm.Script(wrapped, { filename: file, ...(cachedData && { cachedData }) });
  if (debug) process.stderr.write(`code cache: ${path.basename(file)} ${cachedData ? (script.cachedDataRejected ? 'refused by V8' : 'used') : 'none'}\n`);
  if (dir && cacheFile && (!cachedData || script.cachedDataRejected)) toWrite.push({ script, file: cacheFile, dir, stale });
  const mod = new Module(file);
  mod.filename = file;
  const base = createRequire(file);
  const req = Object.assign((id: string): unknown => (id.startsWith('./chunks/') ? run(path.join(path.dirname(file), id), command, dir) : (base(id) as unknown)), { resolve: base.resolve, cache: base.cache, main: base.main, extensions: base.extensions });
  const fn = script.runInThisContext() as (exports: unknown, require: unknown, module: unknown, filename: string, dirname: string) => void;
  loaded.set(file, mod.exports);
  fn.call(mod.exports, mod.exports, req, mod, file, path.dirname(file));
  loaded.set(file, mod.exports);
  return mod.exports;
}

process.on('exit', () => {
  for (const w of toWrite) {
    let data: Buffer;
    try {
      data = w.script.createCachedData();
    } catch {
      continue;
    }
    writeCache(w.dir, w.file, data, w.stale);
    if (debug) process.stderr.write(`code cache: wrote ${path.basename(w.file)} (${data.length} bytes)\n`);
  }
});

const main = path.join(__dirname, 'cli-main.js');
const dir = cacheDir(process.env);
// Node 22.1 and later have the cache built in (checked, per-file): give it our folder
const builtIn = (Module as unknown as { enableCompileCache?: (dir: string) => { status: number } }).enableCompileCache;
if (builtIn && dir) {
  try {
    builtIn(dir);
  } catch {
    // no cache
  }
  createRequire(__filename)(main);
} else run(main, commandOf(process.argv.slice(2)), dir);
