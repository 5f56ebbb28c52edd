/*
 * The script of the authorization page and of the identity app's screens. It only improves the
 * pages: without it, every button and link works the same.
 *
 * - No silent waits: a pressed button (or the continue link) shows that it is working (disabled,
 *   `aria-busy`, "Working…" in a `role=status` line). When the answer is the way back to the
 *   relying party, the line says "Returning you to {client}… {n} s", counted every second until
 *   the browser leaves the page (the relying party's own work after the redirect can take long).
 * - The Back button: a page restored from the back-forward cache is loaded again, so it shows
 *   where the verification stands now (a used one explains itself and links back).
 * - On the authorization page (`data-status-url`): it polls the status every 2 s while the page
 *   is visible (6 s while hidden), shows where the app stands (a phone waiting for its code to be
 *   typed here, the confirmed phone's step), and follows the continue link once the app decided.
 *   A completed verification reloads the page (which then says so); an expired one is said and
 *   the polling stops; so does a locked hand-off. A failed request (the network, a busy emulator,
 *   an abort while leaving) is retried quietly, each time later (up to 30 s): nothing is logged.
 *
 * Its words come from the page, in the page's language (`data-text-*` attributes); the status
 * endpoint's own `message` is protocol text in English, used only if the page has none.
 */
'use strict';
(function () {
  var leaving = false;
  var counter;

  window.addEventListener('pageshow', function (event) {
    if (event.persisted) window.location.reload();
  });
  window.addEventListener('pagehide', function (event) {
    if (!event.persisted) leaving = true;
  });

  /** The status line for progress nearest to `element`, else the page's first. */
  function progressLine(element) {
    var scope = element && element.closest ? element.closest('section, main, .device') : null;
    return (scope && scope.querySelector('[data-busy-status]')) || document.querySelector('[data-busy-status]');
  }

  /** Says, in `line`, that the page is working, or counts the seconds while returning to the client. */
  function showProgress(line, returning) {
    if (!line) return;
    var working = line.getAttribute('data-text-working') || 'Working…';
    var back = returning ? line.getAttribute('data-text-returning') : null;
    if (!back) {
      line.textContent = working;
      return;
    }
    var started = Date.now();
    var render = function () {
      var seconds = Math.floor((Date.now() - started) / 1000);
      line.textContent = back.replace('{n}', function () {
        return String(seconds);
      });
    };
    render();
    window.clearInterval(counter);
    counter = window.setInterval(render, 1000);
  }

  function markBusy(control) {
    control.setAttribute('aria-busy', 'true');
    control.setAttribute('aria-disabled', 'true');
    if (control.tagName === 'BUTTON') control.disabled = true;
  }

  /** Whether a form's answer is the way back to the client: the decision buttons, on a page that returns there. */
  function returnsToClient(submitter) {
    return !!submitter && submitter.name === 'outcome' && document.querySelector('[data-returns-to-client]') !== null;
  }

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || form.getAttribute('data-testid') === 'language-switch') return;
    if (form.getAttribute('data-submitting') === 'true') {
      event.preventDefault();
      return;
    }
    form.setAttribute('data-submitting', 'true');
    form.setAttribute('aria-busy', 'true');
    // The page is being left: the status poll stops, or its news (the verification is
    // completed, by this very form) would reload the page and cut the navigation short.
    leaving = true;
    var submitter = event.submitter;
    // A disabled button is not sent: its name and value go in a hidden field instead.
    if (submitter && submitter.name) {
      var copy = document.createElement('input');
      copy.type = 'hidden';
      copy.name = submitter.name;
      copy.value = submitter.value;
      form.appendChild(copy);
    }
    Array.prototype.forEach.call(form.querySelectorAll('button'), function (button) {
      if (button === submitter) markBusy(button);
      else button.disabled = true;
    });
    showProgress(progressLine(form), returnsToClient(submitter));
  });

  /** Follows a link of the page, showing it is working (and counting, when it returns to the client). */
  function follow(link, returning) {
    if (link.getAttribute('aria-busy') === 'true') return;
    leaving = true;
    markBusy(link);
    showProgress(progressLine(link), returning);
  }

  document.addEventListener('click', function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[data-continue], a[data-testid="use-app-on-this-device"]') : null;
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.getAttribute('aria-busy') === 'true') {
      event.preventDefault();
      return;
    }
    follow(link, link.hasAttribute('data-continue'));
  });

  var root = document.querySelector('[data-status-url]');
  var line = document.querySelector('[data-device-status]');
  var next = document.querySelector('[data-continue]');
  if (!root || !line || !next || !window.fetch) return;
  var statusUrl = root.getAttribute('data-status-url');
  var delay = 2000;
  var failures = 0;

  /** The page's words for `name`, or undefined. */
  function text(name) {
    var value = root.getAttribute('data-text-' + name);
    return value === null ? undefined : value;
  }

  function show(message, state) {
    if (line.textContent !== message) line.textContent = message;
    line.setAttribute('data-state', state);
  }

  /** The next poll: every 2 s (6 s while hidden), later after each failure, at most 30 s. */
  function later() {
    if (leaving) return;
    var wait = (document.visibilityState === 'hidden' ? delay * 3 : delay) * Math.pow(2, Math.min(failures, 4));
    window.setTimeout(poll, Math.min(wait, 30000));
  }

  function poll() {
    if (leaving) return;
    fetch(statusUrl, { cache: 'no-store', headers: { Accept: 'application/json' } })
      .then(function (response) {
        return response.json().then(function (body) {
          return { ok: response.ok, status: response.status, body: body };
        });
      })
      .then(function (result) {
        // An answer that arrives once the page is being left changes nothing.
        if (leaving) return;
        if (result.status === 429 || result.status === 503) {
          failures += 1;
          later();
          return;
        }
        if (!result.ok) {
          var reason = result.body.error_description || text('unknown-reason') || 'error';
          var failed = text('failed') || 'This verification can no longer continue here: {reason}.';
          // A function, so `$&` and the like in the reason stay literal.
          show(
            failed.replace('{reason}', function () {
              return reason;
            }),
            'error',
          );
          return;
        }
        failures = 0;
        var status = result.body.status;
        var words = status === 'in_progress' ? text('step-' + result.body.step) : text(status);
        show(words || result.body.message, status === 'gone' ? 'error' : status);
        if (status === 'decided') {
          leaving = true;
          follow(next, true);
          window.location.assign(next.href);
        } else if (status === 'completed') {
          // The page again: it now says the verification was used, and links back to the client.
          leaving = true;
          window.location.reload();
        } else if (status !== 'locked' && status !== 'gone') {
          later();
        }
      })
      .catch(function () {
        // The network, an answer that is not JSON, or the request cut off as the page leaves.
        failures += 1;
        later();
      });
  }

  later();
})();
