/*
 * The authorization page's script. It only improves the page: without it, the button "I've
 * finished on my phone" does the same. It polls the status URL in `data-status-url` (every 2 s
 * while the page is visible), shows the message in the status line, and follows the page's
 * continue link once the app has decided. It stops on an error (expired, completed), and only
 * waits longer when the emulator is busy (429, 503).
 */
'use strict';
(function () {
  var root = document.querySelector('[data-status-url]');
  var line = document.querySelector('[data-device-status]');
  var next = document.querySelector('[data-continue]');
  if (!root || !line || !next || !window.fetch) return;
  var statusUrl = root.getAttribute('data-status-url');
  var delay = 2000;

  function show(text, state) {
    if (line.textContent !== text) line.textContent = text;
    line.setAttribute('data-state', state);
  }

  function later() {
    window.setTimeout(poll, document.visibilityState === 'hidden' ? delay * 3 : delay);
  }

  function poll() {
    fetch(statusUrl, { cache: 'no-store', headers: { Accept: 'application/json' } })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, status: response.status, body: body }; });
      })
      .then(function (result) {
        if (result.status === 429 || result.status === 503) {
          window.setTimeout(poll, delay * 5);
          return;
        }
        if (!result.ok) {
          show('This verification can no longer continue here: ' + (result.body.error_description || 'error') + '.', 'error');
          return;
        }
        show(result.body.message, result.body.status);
        if (result.body.status === 'decided') window.location.assign(next.href);
        else later();
      })
      .catch(function () { later(); });
  }

  later();
})();
