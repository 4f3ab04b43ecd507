// Writes USER_DATA_DIR/languagepacks.json for the language packs installed in EXTENSIONS_DIR, in the
// shape VS Code's LanguagePacksCache writes it (src/vs/platform/languagePacks/node/languagePacks.ts).
// Why: the server resolves a display language other than English only through this file, and only
// the running server's extension service writes it (an install participant); `code-server
// --install-extension`, the CLI run.sh uses, installs the pack without registering it.
//   node register-language-packs.mjs USER_DATA_DIR EXTENSIONS_DIR
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const [userData, extDir] = process.argv.slice(2);
const packs = {};
for (const e of JSON.parse(fs.readFileSync(path.join(extDir, 'extensions.json'), 'utf8'))) {
  const dir = e.location?.path ?? path.join(extDir, e.relativeLocation);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  for (const l of manifest.contributes?.localizations ?? []) {
    const pack = (packs[l.languageId] ??= { hash: '', extensions: [], translations: {}, label: l.localizedLanguageName ?? l.languageName });
    pack.extensions.push({ extensionIdentifier: e.identifier, version: manifest.version });
    for (const t of l.translations) pack.translations[t.id] = path.join(dir, t.path);
  }
}
for (const pack of Object.values(packs)) {
  const md5 = createHash('md5');
  for (const x of pack.extensions) md5.update(x.extensionIdentifier.uuid ?? x.extensionIdentifier.id).update(x.version);
  pack.hash = md5.digest('hex');
}
fs.writeFileSync(path.join(userData, 'languagepacks.json'), JSON.stringify(packs));
console.log(`[e2e] language packs registered: ${Object.keys(packs).join(', ') || 'none'}`);
