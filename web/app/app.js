// The service's page: enter an API key, pick wallets from the wallet list, fill in the
// settings, run the simulator and see its report; a wallet's own page on a click. Everything
// goes through the public /v1 API with the key entered here, and costs its credits.
import { el, formatNumber, formatPercent, shortAddress } from '../report/format.js';
import { renderReport } from '../report/report.js';
import { simulationData } from '../report/simulation-data.js';
import { Api, openApiDocument, problemText, servedTapes } from './api.js';
import { settingsForm } from './settings-form.js';
import { showWallet } from './wallet-page.js';

const root = document.getElementById('app');
const state = {
  api: null,
  network: 'sol',
  picked: new Set(),
  wallets: [],
  sort: { key: 'pnl_total', descending: true },
};

const keyInput = el('input', {
  type: 'password',
  placeholder: 'your API key (copysim keys create)',
  'data-test': 'key',
  autocomplete: 'off',
});
const networkSelect = el(
  'select',
  { 'data-test': 'network' },
  el('option', { value: 'sol' }, 'sol'),
  el('option', { value: 'eth' }, 'eth'),
);
const credits = el('span', { class: 'credits', 'data-test': 'credits' }, '–');
const message = el('div', { class: 'message', 'data-test': 'message' });
const walletSection = el('section', {});
// Wallets that are not on the list's page: pasted, one address a line.
const extraWallets = el('textarea', {
  'data-test': 'extra-wallets',
  rows: 3,
  cols: 60,
  placeholder: 'more wallets to copy: one address a line',
});
const settingsSection = el('section', {});
const reportSection = el('section', { 'data-test': 'report' });
const walletPage = el('section', { 'data-test': 'wallet-page' });

root.replaceChildren(
  el('h1', {}, 'copysim'),
  el(
    'p',
    { class: 'muted' },
    'Copy-trade simulations over the served tapes.' +
      ' Each call spends your key’s credits: the wallet list 5, the simulator 10, a wallet’s read 1.',
  ),
  el(
    'div',
    { class: 'bar' },
    el('label', {}, 'API key ', keyInput),
    el('label', {}, 'network ', networkSelect),
    el('button', { 'data-test': 'connect', onclick: guarded(connect) }, 'Open the wallet list (5 credits)'),
    el('span', {}, 'credits left: ', credits),
  ),
  message,
  walletSection,
  settingsSection,
  reportSection,
  walletPage,
);

let form = null;
// The days each served tape spans (GET /health, free): the form's dates start as a tape's.
let tapes = {};
let filledDates = { from: '', to: '' };

/** Fills in the dates of the network's tape, where the user has not typed others. */
function fillDates(network) {
  const tape = tapes[network];
  if (!form || !tape?.first_day) return;
  form.fillDates(tape.first_day, tape.last_day, filledDates);
  filledDates = { from: tape.first_day, to: tape.last_day };
}

networkSelect.addEventListener('change', () => {
  form?.setNetwork(networkSelect.value);
  fillDates(networkSelect.value);
});

Promise.all([openApiDocument(), servedTapes()]).then(
  ([doc, served]) => {
    tapes = served;
    const schema = doc.paths['/v1/wallets/simulator'].post.requestBody.content['application/json'].schema;
    const initial = {
      buy_percentage: 50,
      max_buy_amount: 300,
      max_position_amount: 800,
      priority_fee: 0.0005,
      bribe: 0.0001,
      max_dupe_buy_times: 2,
    };
    form = settingsForm(schema, initial, networkSelect.value);
    fillDates(networkSelect.value);
    settingsSection.replaceChildren(
      el('h2', {}, 'Settings'),
      el(
        'p',
        { class: 'muted' },
        'Fields marked * are required; an empty field takes the service’s default. ' +
          'The dates start as the served tape’s first and last day. The wallets are the ones ticked in the list.',
      ),
      form.element,
      el('p', {}, el('button', { 'data-test': 'run', onclick: guarded(run) }, 'Run the simulation (10 credits)')),
    );
  },
  (e) => say(`The service's OpenAPI document could not be read: ${e.message}`),
);

function say(text) {
  message.textContent = text;
}

/** Runs an action of the page; a failure (the service unreachable, …) is said, not thrown. */
function guarded(action) {
  return (...args) =>
    action(...args).catch((e) => say(`That did not work: ${e.message}. Is the service still running?`));
}

async function connect() {
  say('');
  state.api = new Api(keyInput.value.trim(), (n) => (credits.textContent = String(n)));
  state.network = networkSelect.value;
  const answer = await state.api.call('POST', '/v1/wallets', {
    body: { network: state.network, sort_by: { indicator: 'pnl_total', period: 'all' } },
  });
  if (answer.status !== 200) return say(problemText(answer.status, answer.body));
  state.wallets = answer.body.result.wallets;
  state.picked = new Set(state.wallets.slice(0, 3).map((w) => w.address));
  drawWallets();
}

const WALLET_COLUMNS = [
  { key: 'pnl_total', label: 'PnL USD (all)', show: (v) => formatNumber(v, 2, true) },
  { key: 'roi_total', label: 'ROI (all)', show: (v) => formatPercent(v, true) },
  { key: 'winrate', label: 'win rate (all)', show: (v) => formatPercent(v) },
  { key: 'deals_number', label: 'deals (all)', show: (v) => String(v) },
];

function drawWallets() {
  const { key, descending } = state.sort;
  const value = (w) => (key === 'address' ? w.address : w.indicators[key].all.initial);
  const rows = [...state.wallets].sort(
    (a, b) => (descending ? -1 : 1) * (key === 'address' ? value(a).localeCompare(value(b)) : value(a) - value(b)),
  );
  const sortBy = (k) => {
    state.sort = state.sort.key === k ? { key: k, descending: !descending } : { key: k, descending: k !== 'address' };
    drawWallets();
  };
  const header = (k, label, num) =>
    el(
      'th',
      {
        class: `sortable${num ? ' num' : ''}${k === key ? ' sorted' : ''}`,
        'data-key': k,
        'data-direction': k === key ? (descending ? 'descending' : 'ascending') : '',
        onclick: () => sortBy(k),
      },
      label,
    );
  walletSection.replaceChildren(
    el('h2', {}, `Wallets (${state.network}, the list’s first page; tick the ones to copy)`),
    el(
      'table',
      { class: 'wallets', 'data-test': 'wallet-list' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', {}, 'copy'),
          header('address', 'wallet'),
          WALLET_COLUMNS.map((c) => header(c.key, c.label, true)),
        ),
      ),
      el(
        'tbody',
        {},
        rows.map((w) =>
          el(
            'tr',
            { class: state.picked.has(w.address) ? 'picked' : '', 'data-wallet': w.address },
            el(
              'td',
              {},
              el('input', {
                type: 'checkbox',
                checked: state.picked.has(w.address),
                onchange: (e) => pick(w.address, e.target.checked),
              }),
            ),
            el(
              'td',
              {},
              el(
                'a',
                { class: 'wallet-link', title: w.address, onclick: guarded(() => openWallet(w.address)) },
                shortAddress(w.address),
              ),
            ),
            WALLET_COLUMNS.map((c) => el('td', { class: 'num' }, c.show(w.indicators[c.key].all.initial))),
          ),
        ),
      ),
    ),
    el('p', {}, el('label', {}, 'Also copy ', extraWallets)),
  );
}

function pick(address, on) {
  if (on) state.picked.add(address);
  else state.picked.delete(address);
  drawWallets();
}

async function openWallet(address) {
  await showWallet(walletPage, state.api, state.network, address);
  walletPage.scrollIntoView({ block: 'start' });
}

async function run() {
  say('');
  if (!state.api) return say('Enter your API key and open the wallet list first.');
  if (!form) return say('The settings form is not ready yet.');
  const pasted = extraWallets.value
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const request = { wallets: [...new Set([...state.picked, ...pasted])], network: state.network, ...form.read() };
  const answer = await state.api.call('POST', '/v1/wallets/simulator', { body: request });
  if (answer.status !== 200) {
    const unplaced =
      answer.status === 400 && Array.isArray(answer.body.detail) ? form.showProblems(answer.body.detail) : null;
    return say(
      unplaced === null
        ? problemText(answer.status, answer.body)
        : unplaced.length > 0
          ? unplaced.join('\n')
          : `The settings have problems: see ${answer.body.detail.map((d) => d.path).join(', ')} (marked in red).`,
    );
  }
  form.showProblems([]);
  const title =
    `Simulation of ${request.wallets.length} wallet${request.wallets.length === 1 ? '' : 's'}` +
    `, ${request.from_date} → ${request.to_date}`;
  // The service has no tape prices to give: a deal's chart shows the follower's trades alone.
  renderReport(reportSection, simulationData({ title, request, response: answer.body, prices: null }));
  reportSection.scrollIntoView({ block: 'start' });
}
