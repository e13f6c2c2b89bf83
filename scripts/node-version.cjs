// The Node version the workspace needs: the root package.json's engines.node (">=MAJOR.MINOR"). Plain CommonJS, no
// syntax newer than Node 12, so it runs under any node: `pnpm install` (preinstall) and `pnpm start` call it first and
// an old Node ends them with one line saying what to install instead of a stack trace from deep inside a dependency.
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
      return `Node ${String(version).replace(/^v/, '')} is too old: this project needs Node ${minimum} or newer (24 LTS recommended): run \`nvm install 24\`, or \`npm install --prefix ~/.node24 node@24\` and put ~/.node24/node_modules/node/bin first on your PATH.`;
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
