// The sandbox console: shows one business's state, read from the control
// API (GET /_sandbox/state, at most once a second), and acts on it with the
// control API's routes. The API key lives in this tab's sessionStorage and
// travels only in the x-api-key header, never in a URL.
//
// Everything shown is built with text nodes (no innerHTML): payment
// references, business names and paths are the integrator's text.
'use strict';

(function () {
  const KEY_STORAGE = 'crossborder-sandbox-key';
  const POLL_MS = 1000;
  const TABS = ['balances', 'collections', 'payouts', 'businesses', 'webhooks', 'requests', 'faults'];
  const MINOR_UNITS = JSON.parse(document.getElementById('minor-units').textContent);

  // ---- Amounts: the SDK's Money display (crossborder-core money.rs,
  // display_amount), by string arithmetic on the decimal text so nothing is
  // ever rounded through a float: trailing zeros dropped, then padded to the
  // currency's minor units; more decimals than that are kept.
  function displayAmount(text, currency) {
    const raw = String(text);
    const parts = /^(-?)(\d+)(?:\.(\d+))?$/.exec(raw);
    const minor = MINOR_UNITS[currency];
    if (!parts || minor === undefined) return raw;
    const whole = parts[2].replace(/^0+(?=\d)/, '');
    const fraction = (parts[3] || '').replace(/0+$/, '').padEnd(minor, '0');
    const zero = /^0*$/.test(whole + fraction);
    const sign = parts[1] && !zero ? '-' : '';
    return sign + whole + (fraction ? '.' + fraction : '');
  }

  // The same with the whole part grouped by thousands, as the CLI's tables
  // show amounts (crossborder-core display_grouped): 4,912,500.50 NGN. Form
  // fields keep the plain text, which is what the API accepts.
  function groupedAmount(text, currency) {
    const shown = displayAmount(text, currency);
    const parts = /^(-?)(\d+)(\.\d+)?$/.exec(shown);
    if (!parts) return shown;
    return parts[1] + parts[2].replace(/\B(?=(\d{3})+$)/g, ',') + (parts[3] || '');
  }

  function money(text, currency) {
    if (text === null || text === undefined || text === '') return '';
    return groupedAmount(text, currency) + ' ' + currency;
  }

  // The key as the sandbox's request log masks it (mask_key): its
  // environment prefix and last four characters, or only the prefix when
  // the key is too short to show any of it.
  function maskKey(key) {
    const prefix = ['test_', 'live_'].find((p) => key.startsWith(p)) || '';
    const chars = Array.from(key);
    if (chars.length < prefix.length + 8) return prefix + '…';
    return prefix + '…' + chars.slice(-4).join('');
  }

  // ---- DOM helpers.
  const $ = (id) => document.getElementById(id);

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [name, value] of Object.entries(props)) {
        if (value === undefined || value === null) continue;
        if (name === 'dataset') Object.assign(node.dataset, value);
        else if (name === 'className' || name === 'textContent' || name === 'type' || name === 'disabled') node[name] = value;
        else node.setAttribute(name, value);
      }
    }
    for (const child of children) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child);
    }
    return node;
  }

  function when(text) {
    if (!text) return '';
    const parts = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(text);
    const shown = parts ? parts[1] + ' ' + parts[2] + (parts[3] === 'Z' ? '' : ' ' + parts[3]) : text;
    return el('time', { datetime: text, title: text }, shown);
  }

  function pill(status) {
    if (status === null || status === undefined) return '';
    const word = String(status);
    return el('span', { className: 'pill pill-' + word.toLowerCase().replace(/[^a-z0-9]+/g, '-') }, word);
  }

  function lines(...items) {
    const kept = items.filter((item) => item !== undefined && item !== null && item !== '');
    return el('span', { className: 'lines' }, ...kept.map((item) => el('span', null, item)));
  }

  // ---- The control API.
  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  // The API's error shape: {statusCode, message, errors: [{field, message}]}.
  function errorText(status, body, text) {
    if (body && typeof body === 'object' && body.message !== undefined) {
      const message = Array.isArray(body.message) ? body.message.join('; ') : String(body.message);
      return status + ': ' + message;
    }
    return status + ': ' + (text ? text.slice(0, 200) : 'no message');
  }

  async function call(method, path, body) {
    const init = { method, cache: 'no-store', headers: { 'x-api-key': key, accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      throw new ApiError(0, 'The sandbox does not answer: ' + error.message);
    }
    const text = await response.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch (error) {
      json = null;
    }
    if (!response.ok) throw new ApiError(response.status, errorText(response.status, json, text));
    return { text, json };
  }

  const segment = encodeURIComponent;

  // ---- State and polling.
  let key = null;
  let state = null;
  let lastText = null;
  let timer = null;
  let sent = 0;
  let applied = 0;

  async function refresh() {
    const mine = ++sent;
    const { text, json } = await call('GET', '/_sandbox/state');
    if (mine < applied || !key) return;
    applied = mine;
    const now = new Date();
    $('updated').textContent = 'Updated ' + now.toTimeString().slice(0, 8);
    if (text === lastText) return;
    lastText = text;
    state = json || {};
    render();
  }

  async function tick() {
    timer = null;
    if (!key) return;
    try {
      await refresh();
      if (notice.source === 'poll') hideNotice();
    } catch (error) {
      if (!handleAuth(error)) showNotice(error.message, 'poll');
    }
    if (key && timer === null) timer = setTimeout(tick, POLL_MS);
  }

  // A 401 or 403 means the key is wrong: forget it and ask again.
  function handleAuth(error) {
    if (error.status !== 401 && error.status !== 403) return false;
    closeConsole();
    $('key-error').textContent = 'The sandbox refused this key (' + error.message + ')';
    $('api-key').focus();
    return true;
  }

  // ---- Messages.
  const notice = { source: null };

  function showNotice(message, source) {
    notice.source = source || 'action';
    $('notice-text').textContent = message;
    $('notice').hidden = false;
  }

  function hideNotice() {
    notice.source = null;
    $('notice').hidden = true;
    $('notice-text').textContent = '';
  }

  function announce(message) {
    $('status').textContent = message;
  }

  // ---- Actions: each button runs one control API call, then reads the
  // state again at once; a refusal is shown with the API's own message.
  async function act(button, describe, method, path, body) {
    button.disabled = true;
    try {
      await call(method, path, body);
      hideNotice();
      announce(describe + ': done.');
      await refresh();
    } catch (error) {
      if (!handleAuth(error)) showNotice(describe + ' failed: ' + error.message);
    } finally {
      button.disabled = false;
    }
  }

  function actionButton(label, name, action, id, onPress) {
    const button = el('button', { type: 'button', 'aria-label': name, dataset: { action, id } }, label);
    button.addEventListener('click', () => onPress(button));
    return button;
  }

  function actions(...buttons) {
    return el('div', { className: 'actions' }, ...buttons);
  }

  // ---- The dialog that asks for an amount, a reason or a confirmation.
  const dialog = { run: null, opener: null, required: false };

  function ask(options) {
    dialog.run = options.run;
    dialog.opener = options.opener ? { action: options.opener.dataset.action, id: options.opener.dataset.id } : null;
    dialog.required = Boolean(options.required);
    $('dialog-title').textContent = options.title;
    $('dialog-text').textContent = options.text || '';
    $('dialog-error').textContent = '';
    $('dialog-ok').textContent = options.ok;
    $('dialog-ok').disabled = false;
    const field = $('dialog-field');
    const input = $('dialog-input');
    field.hidden = !options.label;
    $('dialog-label').textContent = options.label || '';
    input.value = options.value || '';
    input.placeholder = options.placeholder || '';
    input.required = dialog.required;
    input.inputMode = options.inputMode || 'text';
    $('dialog').showModal();
    if (options.label) {
      input.focus();
      input.select();
    } else {
      $('dialog-ok').focus();
    }
  }

  function closeDialog() {
    const opener = dialog.opener;
    dialog.run = null;
    if ($('dialog').open) $('dialog').close();
    refocus(opener);
  }

  async function submitDialog(event) {
    event.preventDefault();
    if (!dialog.run) return;
    const value = $('dialog-input').value.trim();
    if (dialog.required && !$('dialog-field').hidden && value === '') {
      $('dialog-error').textContent = $('dialog-label').textContent + ' is required.';
      $('dialog-input').focus();
      return;
    }
    $('dialog-ok').disabled = true;
    try {
      await dialog.run(value);
      hideNotice();
      closeDialog();
      await refresh();
    } catch (error) {
      if (handleAuth(error)) {
        closeDialog();
        return;
      }
      $('dialog-error').textContent = error.message;
      $('dialog-ok').disabled = false;
      $('dialog-input').focus();
    }
  }

  // ---- Rendering. Each poll that brings a different state rebuilds the
  // rows; the focused button is found again by its action and id, so a
  // keyboard user keeps their place.
  function render() {
    const focused = document.activeElement;
    const place = focused && focused.dataset && focused.dataset.action
      ? { action: focused.dataset.action, id: focused.dataset.id }
      : null;
    const inRows = focused && focused.closest && focused.closest('.rows');
    renderBalances();
    renderCollections();
    renderPayouts();
    renderBusinesses();
    renderWebhooks();
    renderRequests();
    renderFaults();
    renderSettlement();
    for (const name of TABS) {
      const count = (state[name] || []).length;
      $('tab-' + name).querySelector('.count').textContent = String(count);
    }
    if (inRows && !document.activeElement.closest('.rows')) refocus(place);
  }

  function findButton(place) {
    if (!place) return null;
    for (const button of document.querySelectorAll('.rows button[data-action]')) {
      if (button.dataset.action === place.action && button.dataset.id === place.id) return button;
    }
    return null;
  }

  // Back to the button that was pressed, or to its panel's heading when the
  // action took the button away (a funded collection has no "Fund").
  function refocus(place) {
    const button = findButton(place);
    if (button && !button.disabled) {
      button.focus();
      return;
    }
    const panel = document.querySelector('.panel:not([hidden]) h2');
    if (panel) panel.focus();
  }

  function fill(name, columns, rows, empty) {
    const holder = document.querySelector('#panel-' + name + ' .rows');
    if (!rows.length) {
      holder.replaceChildren(el('p', { className: 'empty' }, empty));
      return;
    }
    const head = el('tr', null, ...columns.map((column) => el('th', { scope: 'col', className: column.className }, column.label)));
    const body = el('tbody');
    for (const row of rows) {
      const line = el('tr', { dataset: { row: columns.rowId(row) } });
      for (const column of columns) {
        line.append(el('td', { className: column.className, 'data-label': column.label }, column.cell(row)));
      }
      body.append(line);
    }
    holder.replaceChildren(el('table', null, el('thead', null, head), body));
  }

  function columnsOf(rowId, list) {
    list.rowId = rowId;
    return list;
  }

  function renderBalances() {
    const columns = columnsOf((b) => b.currency, [
      { label: 'Currency', cell: (b) => el('strong', null, b.currency) },
      { label: 'Balance', className: 'amount', cell: (b) => money(b.amount, b.currency) },
      {
        label: 'Actions',
        className: 'act',
        cell: (b) => actions(actionButton('Set…', 'Set the ' + b.currency + ' balance', 'set-balance', b.currency, (button) => ask({
          opener: button,
          title: 'Set the ' + b.currency + ' balance',
          text: 'The wallet holds ' + money(b.amount, b.currency) + '.',
          label: 'New balance (' + b.currency + ')',
          value: displayAmount(b.amount, b.currency),
          inputMode: 'decimal',
          required: true,
          ok: 'Set balance',
          run: (amount) => call('PUT', '/_sandbox/balances/' + segment(b.currency), { amount }),
        }))),
      },
    ]);
    fill('balances', columns, state.balances || [], 'No balances.');
  }

  // Where the payer pays, as the payment instruction says: a bank account,
  // or a wallet address on a network for a crypto collection (the memo is
  // in the Reference column).
  function instruction(c) {
    const list = [].concat(c.paymentInstruction || []).filter((p) => p && typeof p === 'object');
    return lines(...list.map((p) => lines(
      p.address ? p.network || p.bankName : p.bankName,
      el('code', null, p.address || p.accountNumber || ''),
      p.address ? '' : el('span', { className: 'muted' }, p.accountName || ''),
    )));
  }

  // What was paid: the total, what remains, and each funding (newest
  // first) with the wallet's credit when that is another currency.
  function paid(c) {
    const remains = c.remainingAmount && !/^-?0*(\.0*)?$/.test(c.remainingAmount)
      ? el('span', { className: 'muted' }, money(c.remainingAmount, c.currency) + ' remaining')
      : '';
    const each = (c.fundings || []).map((f) => el('span', { className: 'funding' },
      '+' + money(f.amount, c.currency),
      c.toCurrency && c.toCurrency !== c.currency && f.credited ? ' (' + money(f.credited, c.toCurrency) + ')' : '',
      ' ', when(f.at)));
    return lines(money(c.paidAmount, c.currency), remains, ...each);
  }

  function collectionActions(c) {
    if (c.status !== 'PENDING' && c.status !== 'PARTIALLY_PAID') return '';
    const ref = c.paymentReference;
    return actions(
      actionButton('Fund', 'Fund collection ' + ref + ' in full', 'fund', ref, (button) => act(button, 'Fund ' + ref, 'POST', '/_sandbox/collections/' + segment(ref) + '/fund', {})),
      actionButton('Fund part…', 'Fund part of collection ' + ref, 'fund-part', ref, (button) => ask({
        opener: button,
        title: 'Fund part of ' + ref,
        text: money(c.remainingAmount, c.currency) + ' remains to be paid.',
        label: 'Amount (' + c.currency + ')',
        placeholder: displayAmount(c.remainingAmount, c.currency),
        inputMode: 'decimal',
        required: true,
        ok: 'Fund',
        run: (amount) => call('POST', '/_sandbox/collections/' + segment(ref) + '/fund', { amount }),
      })),
      actionButton('Expire', 'Expire collection ' + ref, 'expire', ref, (button) => act(button, 'Expire ' + ref, 'POST', '/_sandbox/collections/' + segment(ref) + '/expire')),
    );
  }

  function renderCollections() {
    const columns = columnsOf((c) => c.paymentReference, [
      { label: 'Reference', cell: (c) => lines(el('strong', null, c.paymentReference), c.memo ? el('code', null, c.memo) : '', when(c.createdAt)) },
      {
        label: 'Status',
        cell: (c) => lines(pill(c.status), c.expiresAt && (c.status === 'PENDING' || c.status === 'PARTIALLY_PAID') ? el('span', { className: 'muted' }, 'until ', when(c.expiresAt)) : ''),
      },
      {
        label: 'Amount',
        className: 'amount',
        cell: (c) => lines(money(c.amount, c.currency), c.toCurrency && c.toCurrency !== c.currency ? el('span', { className: 'muted' }, '→ ' + money(c.toAmount, c.toCurrency)) : ''),
      },
      { label: 'Paid', className: 'amount', cell: paid },
      { label: 'Pay into', className: 'wide', cell: instruction },
      { label: 'Actions', className: 'act', cell: collectionActions },
    ]);
    fill('collections', columns, state.collections || [], 'No collections yet: create one with the SDK (client.collections()) or POST /v1/api/initiate-payment.');
  }

  function payoutActions(p) {
    if (p.status !== 'PENDING') return '';
    const id = p.sessionId;
    return actions(
      actionButton('Complete', 'Complete payout ' + id, 'complete', id, (button) => act(button, 'Complete ' + id, 'POST', '/_sandbox/payouts/' + segment(id) + '/complete')),
      actionButton('Fail…', 'Fail payout ' + id, 'fail', id, (button) => ask({
        opener: button,
        title: 'Fail payout ' + id,
        text: 'The payout is refunded in full, fee included: ' + money(p.totalAmount || p.amount, p.fromCurrency) + ' back to the ' + p.fromCurrency + ' wallet.',
        label: 'Reason (optional)',
        ok: 'Fail payout',
        run: (reason) => call('POST', '/_sandbox/payouts/' + segment(id) + '/fail', reason ? { reason } : {}),
      })),
    );
  }

  function renderPayouts() {
    const columns = columnsOf((p) => p.sessionId, [
      { label: 'Session', cell: (p) => lines(el('strong', null, p.sessionId), when(p.createdAt)) },
      {
        label: 'Status',
        cell: (p) => lines(pill(p.status), p.reason ? el('span', { className: 'muted' }, p.reason) : '', p.settlesAt ? el('span', { className: 'muted' }, 'settles ', when(p.settlesAt)) : ''),
      },
      { label: 'Amount', className: 'amount', cell: (p) => money(p.amount, p.fromCurrency) },
      { label: 'Fee', className: 'amount', cell: (p) => money(p.fee, p.fromCurrency) },
      {
        label: 'Pays',
        className: 'wide',
        cell: (p) => lines(money(p.toAmount, p.toCurrency) || p.toCurrency, el('span', { className: 'muted' }, p.destination || '')),
      },
      { label: 'Actions', className: 'act', cell: payoutActions },
    ]);
    fill('payouts', columns, state.payouts || [], 'No payouts yet: create one with the SDK (client.payouts()) or POST /v1/api/payout.');
  }

  // Approve and reject apply to a submitted business awaiting a decision
  // (SUBMITTED, or PENDING again after an update of a submitted one).
  function businessActions(b) {
    if (b.status !== 'SUBMITTED' && !(b.status === 'PENDING' && b.submittedAt)) return '';
    const id = b.businessId;
    const name = b.businessName || id;
    return actions(
      actionButton('Approve', 'Approve business ' + name, 'approve', id, (button) => act(button, 'Approve ' + name, 'POST', '/_sandbox/businesses/' + segment(id) + '/approve')),
      actionButton('Reject…', 'Reject business ' + name, 'reject', id, (button) => ask({
        opener: button,
        title: 'Reject ' + name,
        text: 'The reason is what GET /v1/api/business/' + id + ' returns as rejectionReason.',
        label: 'Reason',
        required: true,
        ok: 'Reject business',
        run: (reason) => call('POST', '/_sandbox/businesses/' + segment(id) + '/reject', { reason }),
      })),
    );
  }

  function names(list) {
    return (list || []).map((person) => person.name).filter(Boolean).join(', ');
  }

  function renderBusinesses() {
    const columns = columnsOf((b) => b.businessId, [
      { label: 'Business', cell: (b) => lines(el('strong', null, b.businessName || ''), b.businessId, b.registrationNumber ? 'Reg. ' + b.registrationNumber : '') },
      { label: 'Status', cell: (b) => lines(pill(b.status), b.reason ? el('span', { className: 'muted' }, b.reason) : '') },
      { label: 'People', className: 'wide', cell: (b) => lines(names(b.directors) && 'Directors: ' + names(b.directors), names(b.ubos) && 'UBOs: ' + names(b.ubos)) },
      { label: 'Documents', className: 'wide', cell: (b) => lines(...(b.documents || []).map((d) => [d.kind, d.fileName].filter(Boolean).join(': '))) },
      { label: 'Actions', className: 'act', cell: businessActions },
    ]);
    fill('businesses', columns, state.businesses || [], 'No businesses yet: create one with the SDK (client.businesses()) or POST /v1/api/business.');
  }

  function renderWebhooks() {
    const columns = columnsOf((w) => w.deliveryId, [
      { label: 'Event', cell: (w) => lines(pill(w.event), w.paymentReference) },
      { label: 'Delivered', cell: (w) => lines(pill(w.status), when(w.deliveredAt)) },
      { label: 'Receiver answered', cell: (w) => lines(w.responseStatus !== null && w.responseStatus !== undefined ? 'HTTP ' + w.responseStatus : '', w.error ? el('span', { className: 'muted' }, w.error) : '', w.attempts ? w.attempts + (w.attempts === 1 ? ' attempt' : ' attempts') : '') },
      { label: 'URL', className: 'wide', cell: (w) => el('code', null, w.url || '') },
      {
        label: 'Actions',
        className: 'act',
        cell: (w) => actions(actionButton('Redeliver', 'Redeliver webhook ' + w.deliveryId, 'redeliver', w.deliveryId, (button) => act(button, 'Redeliver ' + w.deliveryId, 'POST', '/_sandbox/webhooks/' + segment(w.deliveryId) + '/redeliver'))),
      },
    ]);
    fill('webhooks', columns, state.webhooks || [], 'No webhook deliveries yet: set a URL with PUT /v1/api/set-webhook, then fund a collection.');
  }

  function renderRequests() {
    let n = 0;
    const columns = columnsOf(() => String(n++), [
      { label: 'At', cell: (r) => when(r.at) },
      { label: 'Method', cell: (r) => el('strong', null, r.method || '') },
      { label: 'Path', className: 'wide', cell: (r) => el('code', null, r.path || '') },
      {
        label: 'Status',
        cell: (r) => lines(
          r.fault && !r.status ? el('span', { className: 'code code-0' }, 'none') : el('span', { className: 'code code-' + String(r.status).charAt(0) }, String(r.status)),
          r.fault ? el('span', { className: 'fault' }, 'fault ' + r.fault) : '',
        ),
      },
    ]);
    fill('requests', columns, state.requests || [], 'No requests with this key yet.');
  }

  // The faults the sandbox injected for this key (--faults, PUT
  // /_sandbox/faults), newest first, and the settings they were drawn with.
  function renderFaults() {
    const settings = state.faultSettings;
    if (settings) {
      const rates = Object.entries(settings.rates || {})
        .filter(([, rate]) => !/^0*(\.0*)?$/.test(String(rate)))
        .map(([kind, rate]) => kind + ' ' + rate);
      $('fault-settings').textContent = 'Profile ' + settings.profile + ', seed ' + settings.seed + (rates.length ? ': ' + rates.join(', ') : ': no faults');
    }
    const columns = columnsOf((f) => f.faultId, [
      { label: 'At', cell: (f) => lines(when(f.at), el('span', { className: 'muted' }, f.faultId)) },
      { label: 'Kind', cell: (f) => el('strong', null, f.kind) },
      { label: 'Hit', className: 'wide', cell: (f) => el('code', null, f.target || '') },
      { label: 'What the sandbox did', className: 'wide', cell: (f) => f.applied || '' },
    ]);
    fill('faults', columns, state.faults || [], 'No faults injected: start the sandbox with --faults standard, or PUT /_sandbox/faults.');
  }

  // ---- Payout settlement: instant, manual, or a delay such as 30s.
  const settlement = { dirty: false };

  function showDelay() {
    const delay = $('settlement').value === 'delay';
    for (const node of document.querySelectorAll('#settlement-form .delay')) node.hidden = !delay;
  }

  function renderSettlement() {
    const now = (state.settings && state.settings.payoutSettlement) || 'instant';
    $('settlement-now').textContent = 'Now: ' + now;
    if (settlement.dirty || $('settlement-form').contains(document.activeElement)) return;
    const known = now === 'instant' || now === 'manual';
    $('settlement').value = known ? now : 'delay';
    $('settlement-delay').value = known ? '' : now;
    showDelay();
  }

  async function saveSettlement(event) {
    event.preventDefault();
    const choice = $('settlement').value;
    const value = choice === 'delay' ? $('settlement-delay').value.trim() : choice;
    const button = event.submitter || $('settlement-form').querySelector('button');
    button.disabled = true;
    try {
      await call('PUT', '/_sandbox/settings', { payoutSettlement: value });
      settlement.dirty = false;
      hideNotice();
      announce('Payout settlement: ' + value + '.');
      lastText = null;
      await refresh();
    } catch (error) {
      if (!handleAuth(error)) showNotice('Saving the payout settlement failed: ' + error.message);
    } finally {
      button.disabled = false;
    }
  }

  // ---- Any wallet's balance, including one the business does not hold yet.
  async function saveBalance(event) {
    event.preventDefault();
    const currency = $('balance-currency').value;
    const amount = $('balance-amount').value.trim();
    const button = event.submitter || $('balance-form').querySelector('button');
    button.disabled = true;
    try {
      await call('PUT', '/_sandbox/balances/' + segment(currency), { amount });
      $('balance-amount').value = '';
      hideNotice();
      announce('The ' + currency + ' balance is ' + money(amount, currency) + '.');
      await refresh();
    } catch (error) {
      if (!handleAuth(error)) showNotice('Setting the ' + currency + ' balance failed: ' + error.message);
    } finally {
      button.disabled = false;
    }
  }

  // ---- Tabs (the ARIA tabs pattern: one tab in the Tab order, arrows move).
  function selectTab(name, focus) {
    for (const tab of TABS) {
      const selected = tab === name;
      const button = $('tab-' + tab);
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
      $('panel-' + tab).hidden = !selected;
    }
    if (focus) $('tab-' + name).focus();
    if (location.hash !== '#' + name) history.replaceState(null, '', '#' + name);
  }

  function tabKeys(event) {
    const index = TABS.indexOf(event.target.dataset.tab);
    if (index < 0) return;
    const moves = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    selectTab(TABS[(moves[event.key] + TABS.length) % TABS.length], true);
  }

  // ---- Opening and closing.
  function openConsole(newKey) {
    key = newKey;
    sessionStorage.setItem(KEY_STORAGE, key);
    $('key-error').textContent = '';
    $('api-key').value = '';
    $('who').textContent = 'Key ' + maskKey(key);
    $('key-panel').hidden = true;
    $('session').hidden = false;
    $('console').hidden = false;
    lastText = null;
    const hash = location.hash.slice(1);
    selectTab(TABS.includes(hash) ? hash : 'collections', false);
    if (timer !== null) clearTimeout(timer);
    timer = null;
    tick();
  }

  function closeConsole() {
    key = null;
    state = null;
    lastText = null;
    sessionStorage.removeItem(KEY_STORAGE);
    if (timer !== null) clearTimeout(timer);
    timer = null;
    hideNotice();
    $('console').hidden = true;
    $('session').hidden = true;
    $('key-panel').hidden = false;
    for (const holder of document.querySelectorAll('.rows')) holder.replaceChildren();
  }

  function start() {
    $('key-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const entered = $('api-key').value.trim();
      if (!entered) {
        $('key-error').textContent = 'API key is required.';
        return;
      }
      openConsole(entered);
      document.querySelector('[role="tab"][aria-selected="true"]').focus();
    });
    $('forget').addEventListener('click', () => {
      closeConsole();
      $('api-key').focus();
    });
    $('reset').addEventListener('click', () => ask({
      opener: null,
      title: 'Reset this business?',
      text: 'Every collection, payout, business, webhook delivery and balance of this key goes back to how the sandbox started.',
      ok: 'Reset business',
      run: () => call('POST', '/_sandbox/reset'),
    }));
    $('notice-close').addEventListener('click', hideNotice);
    $('dialog-form').addEventListener('submit', submitDialog);
    $('dialog-cancel').addEventListener('click', closeDialog);
    $('dialog').addEventListener('cancel', (event) => {
      event.preventDefault();
      closeDialog();
    });
    for (const tab of TABS) {
      $('tab-' + tab).addEventListener('click', () => selectTab(tab, false));
      $('tab-' + tab).addEventListener('keydown', tabKeys);
    }
    $('settlement').addEventListener('change', () => {
      settlement.dirty = true;
      showDelay();
      if ($('settlement').value === 'delay') $('settlement-delay').focus();
    });
    $('settlement-delay').addEventListener('input', () => {
      settlement.dirty = true;
    });
    $('settlement-form').addEventListener('submit', saveSettlement);
    for (const currency of Object.keys(MINOR_UNITS)) $('balance-currency').append(el('option', { value: currency }, currency));
    $('balance-form').addEventListener('submit', saveBalance);
    showDelay();
    const saved = sessionStorage.getItem(KEY_STORAGE);
    if (saved) openConsole(saved);
    else $('api-key').focus();
  }

  // For the browser tests: the display rules, checked against the Rust ones.
  window.crossborderConsole = { displayAmount, groupedAmount, maskKey };
  start();
})();
