// Lints stdin as if it were the file named in argv[2] with the repository's eslint.config.mjs, and prints the messages
// as JSON. A separate process because ESLint loads its (ESM) config with a dynamic import, which jest's CommonJS
// runtime refuses.
import { ESLint } from 'eslint';

const [cwd, filePath] = process.argv.slice(2);
let code = '';
for await (const chunk of process.stdin) code += chunk;
const [result] = await new ESLint({ cwd }).lintText(code, { filePath });
process.stdout.write(JSON.stringify(result.messages));
