// Where the sidebar's UI memory (open sections, branches, scroll) is kept on the host side: the
// workspace state, and a small file in the extension's workspace storage written at once. A window
// reload can end the extension host before VS Code flushes its storage; the file is already on disk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseUiMemory, type UiMemoryData } from '../../../webview/protocol.js';

const MAX_BYTES = 256 * 1024;

export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export class UiMemoryStore {
  private readonly file: string | undefined;
  constructor(
    private readonly state: MementoLike,
    storageDir: string | undefined,
    private readonly key = 'claudeLayers.uiMemory',
  ) {
    this.file = storageDir ? path.join(storageDir, 'ui-memory.json') : undefined;
  }

  save(m: UiMemoryData): void {
    void this.state.update(this.key, m);
    if (!this.file) return;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(this.file, JSON.stringify(m));
    } catch {
      /* the workspace state still has it */
    }
  }

  /** the newer of the two copies */
  load(): UiMemoryData | undefined {
    const a = parseUiMemory(this.state.get<unknown>(this.key));
    let b: UiMemoryData | undefined;
    if (this.file)
      try {
        const st = fs.statSync(this.file);
        if (st.isFile() && st.size <= MAX_BYTES) b = parseUiMemory(JSON.parse(fs.readFileSync(this.file, 'utf8')) as unknown);
      } catch {
        /* no file yet */
      }
    if (!a) return b;
    if (!b) return a;
    return (b.savedAt ?? 0) >= (a.savedAt ?? 0) ? b : a;
  }
}
