/**
 * The environment for a compiled entry point (`node dist/…`). Jest and tsx runs put `--conditions=source` in
 * NODE_OPTIONS so workspace packages resolve to their TypeScript sources; plain node must resolve them to dist/.
 */
export function compiledEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const nodeOptions = (env.NODE_OPTIONS ?? '').replace(/--conditions[= ]source\b/g, '').trim();
  return { ...env, NODE_OPTIONS: nodeOptions };
}
