import { createHash } from 'node:crypto';
import { escapeHtml } from '@platform/service-kit/html';

/** The public pages' only style sheet, inline; the CSP allows exactly this text by its hash, and nothing from elsewhere. */
const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2933}
main{max-width:960px;margin:0 auto;padding:24px}
h1{font-size:1.6rem;margin:0 0 4px}
h2{font-size:1.2rem;margin:24px 0 8px}
.status{padding:12px 16px;border-radius:8px;font-weight:600;margin:16px 0;overflow-wrap:anywhere}
.status.valid{background:#e3f9e5;color:#0e5a1c}
.status.revoked,.status.expired,.status.tampered,.status.unknown{background:#fde8e8;color:#8a1c1c}
.status.pending{background:#e8eefc;color:#1e3a8a}
.status.test{background:#fef3c7;color:#78350f;border:2px dashed #b45309}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:16px 0}
dt{font-weight:600}
dd{margin:0;min-width:0;overflow-wrap:anywhere}
img.preview{width:100%;height:auto;border:1px solid #d3d7de;border-radius:4px;background:#fff}
.heading{display:flex;justify-content:space-between;align-items:center;gap:16px}
.heading>div{min-width:0;overflow-wrap:anywhere}
img.badge{flex:none;width:96px;height:96px}
a.download,a.share,button{display:inline-block;margin:12px 8px 0 0;padding:10px 16px;background:#1d4ed8;color:#fff;border:0;border-radius:6px;text-decoration:none;font:inherit;cursor:pointer}
a.share.linkedin{background:#0a66c2}
a.download.secondary,button.secondary{background:#fff;color:#1d4ed8;border:1px solid #1d4ed8}
.actions{margin:8px 0 16px}
.box{background:#fff;border:1px solid #d3d7de;border-radius:8px;padding:16px;margin:16px 0}
label{display:block;font-weight:600;margin:0 0 6px}
textarea,input[type=text]{box-sizing:border-box;width:100%;padding:8px;border:1px solid #9aa5b1;border-radius:6px;font:inherit}
textarea{min-height:8rem;font-family:ui-monospace,monospace;font-size:.85rem}
.drop.dragging textarea{outline:3px dashed #1d4ed8}
.hint{color:#52606d;font-size:.9rem;margin:6px 0 0}
`;

/** A style sheet's CSP source: `'sha256-…'` of its exact text. */
export function styleHashSource(sheet: string): string {
  return `'sha256-${createHash('sha256').update(sheet).digest('base64')}'`;
}

/** The pages' one script (copy link, the verifier): served by this service, the only script the CSP allows. */
export const PAGE_SCRIPT_PATH = '/credentials/assets/credentials.js';

/**
 * Scripts, images and requests only to this page's own origin; the style sheet by its hash (and a branded page's
 * second sheet, the issuer's colours, by its own); no frames; forms only to this origin (the "verify a code" box).
 */
export function pageCsp(extraSheets: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "img-src 'self'",
    `style-src ${[STYLE, ...extraSheets].map(styleHashSource).join(' ')}`,
    "script-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const CREDENTIAL_PAGE_CSP = pageCsp();

/** What a branded page adds: a second inline style sheet (allowed by `pageCsp([style])`) and HTML above `<main>`. */
export interface PageBranding {
  style: string;
  top: string;
}

export function page(title: string, head: string, body: string, branded?: PageBranding): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
${head}<style>${STYLE}</style>${branded ? `<style>${branded.style}</style>` : ''}
<script src="${PAGE_SCRIPT_PATH}" defer></script>
</head>
<body>${branded?.top ?? ''}<main>
${body}
</main></body>
</html>
`;
}

/** The "verify a code" box: a plain form to the verifier page, which checks the code it is given. */
export function verifyCodeBox(heading = 'Verify a code'): string {
  return `<form class="box" method="get" action="/credentials/verify">
<h2>${escapeHtml(heading)}</h2>
<label for="code">Verification code</label>
<input type="text" id="code" name="code" autocomplete="off" spellcheck="false" placeholder="ABCDEF-GHJKMN-PQRSTU" maxlength="64" required>
<button type="submit">Verify</button>
</form>`;
}
