// Lints small sources as if they were files of the real tree (`lintText` with a `filePath` inside it), with the
// repository's own eslint.config.mjs. Reads [{ filePath, text }] as JSON on stdin; writes each one's messages as JSON.
// A child process of the test: ESLint loads its ES-module config with import(), which jest's module sandbox refuses.
import { ESLint } from 'eslint';

const root = process.argv[2];
let input = '';
for await (const chunk of process.stdin) input += chunk;
const eslint = new ESLint({ cwd: root });
const results = [];
for (const { filePath, text } of JSON.parse(input)) {
  const [result] = await eslint.lintText(text, { filePath: `${root}/${filePath}` });
  results.push(result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}
process.stdout.write(JSON.stringify(results));
