// First an old Node: one line naming the version to install.
require('./node-version.cjs').requireSupportedNode();
// Refuse `npm install` at the root: the workspace and its lockfile are pnpm's.
const agent = process.env.npm_config_user_agent || '';
if (!agent.startsWith('pnpm/')) {
  console.error('This workspace uses pnpm: run `./pnpmw install` (or `./pnpmw start` / `./pnpmw test`), which brings the pinned Node and pnpm.');
  process.exit(1);
}
