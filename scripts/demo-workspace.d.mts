// Types of demo-workspace.mjs (a plain ES module shared by npm start, the docs script and the CLI tests).
export declare const projectRoot: string;
export declare const demoSource: string;
/** Claude Code's memory folder key: the real path of the git root, every non-alphanumeric as '-' */
export declare function memoryKey(gitRoot: string): string;
export interface Demo {
  tmp: string;
  repo: string;
  home: string;
  managed: string;
  memory: string;
  cleanup: () => void;
}
export declare function setupDemo(parent?: string): Demo;
