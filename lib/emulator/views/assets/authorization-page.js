/*
 * The authorization page's script. It only improves the page: without it, the button "I've
 * finished on my phone" does the same. It polls the status URL in `data-status-url` (every 2 s
 * while the page is visible), shows where the app stands in the status line (a phone waiting for
 * its code to be typed here, the confirmed phone's step), and follows the page's continue link
 * once the app has decided. It stops on an error (expired, completed) and once the hand-off is
 * locked, and only waits longer when the emulator is busy (429, 503). It never moves the focus.
 *
 * Its words come from the page, in the page's language (`data-text-*` on the same element); the
 * status endpoint's own `message` is protocol text in English, used only if the page has none.
 */
'use strict';
(function () {
  var root = document.querySelector('[data-status-url]');
  var line = document.querySelector('[data-device-status]');
  var next = document.querySelector('[data-continue]');
  if (!root || !line || !next || !window.fetch) return;
  var statusUrl = root.getAttribute('data-status-url');
  var delay = 2000;

  /** The page's words for `name`, or undefined. */
  function text(name) {
    var value = root.getAttribute('data-text-' + name);
    return value === null ? undefined : value;
  }

  function show(message, state) {
    if (line.textContent !== message) line.textContent = message;
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
          var reason = result.body.error_description || text('unknown-reason') || 'error';
          var failed = text('failed') || 'This verification can no longer continue here: {reason}.';
          // A function, so `$&` and the like in the reason stay literal.
          show(failed.replace('{reason}', function () { return reason; }), 'error');
          return;
        }
        var status = result.body.status;
        var words = status === 'in_progress' ? text('step-' + result.body.step) : text(status);
        show(words || result.body.message, status);
        if (status === 'decided') window.location.assign(next.href);
        else if (status !== 'locked') later();
      })
      .catch(function () { later(); });
  }

  later();
})();
