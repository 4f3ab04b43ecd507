// The CLI's name and version, for `--version` and SARIF's tool.driver.
import pkg from '../../package.json';

export const TOOL = { name: 'claude-layers', version: String((pkg as { version?: string }).version ?? '0.0.0') };
