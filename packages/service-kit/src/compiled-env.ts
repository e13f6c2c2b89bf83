/**
 * The environment for a compiled entry point (`node dist/…`). Jest and tsx runs put `--conditions=source` in
 * NODE_OPTIONS so workspace packages resolve to their TypeScript sources; plain node must resolve them to dist/.
 */
export function compiledEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, NODE_OPTIONS: withoutSourceCondition(env.NODE_OPTIONS) };
}

/** NODE_OPTIONS without `--conditions=source`. */
export function withoutSourceCondition(nodeOptions: string | undefined): string {
  return (nodeOptions ?? '').replace(/--conditions[= ]source\b/g, '').trim();
}
