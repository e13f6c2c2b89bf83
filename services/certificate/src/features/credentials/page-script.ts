/**
 * The public pages' one script, served as `/credentials/assets/credentials.js` (plain ES2017, no build step, no
 * dependency). It copies the credential page's link, and runs the verifier page: it reads a pasted, dropped or chosen
 * credential (or a typed code) and posts it to this origin's `POST /credentials/verify`; nothing goes anywhere else.
 * Every text it shows is set with textContent.
 */
export const PAGE_SCRIPT = String.raw`'use strict';
(function () {
  var copy = document.querySelector('[data-copy]');
  if (copy) {
    copy.addEventListener('click', function () {
      var link = copy.getAttribute('data-copy');
      var status = document.getElementById('copy-status');
      var say = function (text) { if (status) status.textContent = text; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(link).then(function () { say('Link copied.'); }, function () { say('Copy this link: ' + link); });
      } else {
        say('Copy this link: ' + link);
      }
    });
  }

  var credentialForm = document.getElementById('credential-form');
  if (!credentialForm) return;
  var textArea = document.getElementById('credential-text');
  var fileInput = document.getElementById('credential-file');
  var codeForm = document.querySelector('form[action="/credentials/verify"]');
  var codeInput = document.getElementById('code');
  var result = document.getElementById('result');
  var details = document.getElementById('result-details');
  var HEADINGS = { valid: 'Valid', revoked: 'Revoked', expired: 'Expired', test: 'TEST', tampered: 'Tampered or not from this platform', unknown: 'Not found' };

  function show(status, text, credential) {
    result.hidden = false;
    result.className = 'status ' + status;
    result.setAttribute('data-status', status);
    result.textContent = (HEADINGS[status] ? HEADINGS[status] + ': ' : '') + text;
    details.textContent = '';
    details.hidden = !credential;
    if (!credential) return;
    [['Recipient', credential.recipient_name], ['Achievement', credential.achievement], ['Issued by', credential.issuer_name && (credential.issuer_identity ? credential.issuer_name + ' (' + credential.issuer_identity + ')' : credential.issuer_name)],
      ['Valid from', credential.valid_from], ['Valid until', credential.valid_until || 'Does not expire'], ['Credential', credential.id]]
      .forEach(function (row) {
        if (!row[1]) return;
        var term = document.createElement('dt');
        term.textContent = row[0];
        var value = document.createElement('dd');
        value.textContent = row[1];
        details.appendChild(term);
        details.appendChild(value);
      });
  }

  function verify(body) {
    show('pending', 'Checking…', null);
    fetch('/credentials/verify', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body), credentials: 'omit' })
      .then(function (response) { return response.json().then(function (answer) { return { ok: response.ok, answer: answer }; }); })
      .then(function (reply) {
        if (!reply.ok) return show('tampered', reply.answer.error || 'The platform could not check this.', null);
        show(reply.answer.status, reply.answer.reason, reply.answer.credential);
      })
      .catch(function () { show('pending', 'The platform could not be reached. Try again.', null); });
  }

  function readFile(file) {
    var reader = new FileReader();
    reader.onload = function () { textArea.value = String(reader.result); verify({ credential: textArea.value }); };
    reader.readAsText(file);
  }

  credentialForm.addEventListener('submit', function (event) {
    event.preventDefault();
    if (fileInput.files && fileInput.files[0] && !textArea.value.trim()) return readFile(fileInput.files[0]);
    if (!textArea.value.trim()) return show('pending', 'Paste a credential or choose its file first.', null);
    verify({ credential: textArea.value });
  });
  fileInput.addEventListener('change', function () { if (fileInput.files && fileInput.files[0]) readFile(fileInput.files[0]); });
  credentialForm.addEventListener('dragover', function (event) { event.preventDefault(); credentialForm.classList.add('dragging'); });
  credentialForm.addEventListener('dragleave', function () { credentialForm.classList.remove('dragging'); });
  credentialForm.addEventListener('drop', function (event) {
    event.preventDefault();
    credentialForm.classList.remove('dragging');
    var file = event.dataTransfer && event.dataTransfer.files && event.dataTransfer.files[0];
    if (file) readFile(file);
  });
  codeForm.addEventListener('submit', function (event) {
    event.preventDefault();
    history.replaceState(null, '', '/credentials/verify?code=' + encodeURIComponent(codeInput.value.trim()));
    verify({ code: codeInput.value.trim() });
  });
  var typed = new URLSearchParams(location.search).get('code');
  if (typed) {
    codeInput.value = typed;
    verify({ code: typed });
  }
})();
`;
