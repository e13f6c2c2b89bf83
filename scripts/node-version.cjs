// The Node version the workspace needs: the root package.json's engines.node (">=MAJOR.MINOR"). Plain CommonJS, no
// syntax newer than Node 12, so it runs under any node: ./pnpmw asks it whether to fetch Node 24, and `pnpm install`
// (preinstall) and `pnpm start` call it first, so an old Node that bypassed ./pnpmw ends them with one line naming
// ./pnpmw instead of a stack trace from deep inside a dependency.
const { engines } = require('../package.json');

const MINIMUM = engines.node.replace(/^>=\s*/, '');

function parts(version) {
  return String(version).replace(/^v/, '').split('.').map((part) => Number.parseInt(part, 10) || 0);
}

/** The one-line refusal when `version` (e.g. "20.20.2" or "v20.20.2") is older than `minimum`, else undefined. */
function nodeTooOldMessage(version, minimum = MINIMUM) {
  const have = parts(version);
  const need = parts(minimum);
  for (let i = 0; i < 3; i++) {
    if ((have[i] || 0) > (need[i] || 0)) return undefined;
    if ((have[i] || 0) < (need[i] || 0)) {
      return `Node ${String(version).replace(/^v/, '')} is too old: this project needs Node ${minimum} or newer: run pnpm through \`./pnpmw\` (\`./pnpmw start\`, \`./pnpmw test\`), which fetches Node 24 LTS once.`;
    }
  }
  return undefined;
}

/** Ends the process with that line on stderr when the running Node is too old. */
function requireSupportedNode() {
  const message = nodeTooOldMessage(process.versions.node);
  if (message) {
    console.error(message);
    process.exit(1);
  }
}

module.exports = { MINIMUM, nodeTooOldMessage, requireSupportedNode };
