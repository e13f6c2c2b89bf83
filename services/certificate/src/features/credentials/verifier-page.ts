import { page, verifyCodeBox } from './page-shell';

/**
 * `/credentials/verify`: paste or drop a credential (the `.json` download or the bare JWT), or type a code. The page's
 * script (`/credentials/assets/credentials.js`) sends it to `POST /credentials/verify` on this same origin, and nowhere
 * else, then shows valid, revoked, expired or tampered with the reason.
 */
export function verifierPageHtml(): string {
  const body = `<h1>Verify a certificate</h1>
<p>Check a verifiable credential issued on this platform, or a certificate's verification code. The credential is checked by this platform only: it is sent nowhere else.</p>
<form class="box drop" id="credential-form">
<h2>Verify a credential file</h2>
<label for="credential-text">Paste the credential, or drop its file here</label>
<textarea id="credential-text" name="credential" spellcheck="false" placeholder="The contents of credential.json, or the credential's JWT"></textarea>
<label for="credential-file" class="hint">Or choose the file</label>
<input type="file" id="credential-file" accept=".json,.jwt,application/json,application/vc+ld+json,application/vc+jwt,text/plain">
<button type="submit">Verify the credential</button>
</form>
${verifyCodeBox()}
<p class="status pending" id="result" role="status" data-status="none" hidden></p>
<dl id="result-details" hidden></dl>`;
  return page('Verify a certificate', '<meta name="description" content="Check a certificate or verifiable credential issued on this platform.">\n', body);
}
