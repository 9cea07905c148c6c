// The deals table: sortable by any column, filtered by token and by how the deal closed, a page
// at a time; a click on a row calls `onSelect(index)` (the deal's index in the response).
import { el, formatNumber, formatPercent, formatTime, shortAddress } from './format.js';

const PAGE_ROWS = 50;

/** A deal row of the report data read back by column name (`token` from the report's token list). */
export function dealReader(data) {
  const at = Object.fromEntries(data.deal_columns.map((name, i) => [name, i]));
  return (row, name) => (name === 'token' ? data.tokens[row[at.token]] : row[at[name]]);
}

export function tokenLabel(token) {
  return token.symbol ?? token.name ?? shortAddress(token.address);
}

const COLUMNS = [
  { key: 'index', label: '#', num: true, value: (d) => d.index },
  { key: 'token', label: 'token', value: (d) => tokenLabel(d.token) },
  { key: 'open_time', label: 'open (UTC)', value: (d) => d.open_time, show: formatTime },
  { key: 'last_operation_time', label: 'last trade (UTC)', value: (d) => d.last_operation_time, show: formatTime },
  { key: 'status', label: 'status', value: (d) => d.status },
  {
    key: 'investment_amount',
    label: 'invested USD',
    num: true,
    value: (d) => d.investment_amount,
    show: (v) => formatNumber(v),
  },
  { key: 'pnl_total', label: 'PnL USD', num: true, value: (d) => d.pnl_total, show: (v) => formatNumber(v, 2, true) },
  { key: 'roi_total', label: 'ROI', num: true, value: (d) => d.roi_total, show: (v) => formatPercent(v, true) },
  { key: 'trades_number', label: 'trades', num: true, value: (d) => d.trades_number },
  { key: 'special_tag', label: 'closed by', value: (d) => d.special_tag ?? '–' },
];

/** Draws the table into `container`; returns nothing (it redraws itself on every change). */
export function dealsTable(container, data, onSelect) {
  const read = dealReader(data);
  const deals = data.deals.map((row, index) => ({
    index,
    token: read(row, 'token'),
    open_time: read(row, 'open_time'),
    last_operation_time: read(row, 'last_operation_time'),
    status: read(row, 'status'),
    investment_amount: read(row, 'investment_amount'),
    pnl_total: read(row, 'pnl_total'),
    roi_total: read(row, 'roi_total'),
    trades_number: read(row, 'trades_number'),
    special_tag: read(row, 'special_tag'),
  }));
  const tags = [...new Set(deals.map((d) => d.special_tag ?? 'none'))].sort();
  const state = { text: '', tag: 'all', sort: 'index', descending: false, page: 0, selected: -1 };

  const search = el('input', {
    type: 'search',
    placeholder: 'token symbol, name or address',
    'data-test': 'token-filter',
    oninput: (e) => update({ text: e.target.value.trim().toLowerCase(), page: 0 }),
  });
  const tagSelect = el(
    'select',
    { 'data-test': 'tag-filter', onchange: (e) => update({ tag: e.target.value, page: 0 }) },
    el('option', { value: 'all' }, 'every way of closing'),
    tags.map((t) => el('option', { value: t }, t === 'none' ? 'no special tag (a leader sold, or open)' : t)),
  );
  const count = el('span', { class: 'muted', 'data-test': 'deal-count' });
  const head = el(
    'tr',
    {},
    COLUMNS.map((c) =>
      el(
        'th',
        { class: c.num ? 'num sortable' : 'sortable', 'data-key': c.key, onclick: () => sortBy(c.key) },
        c.label,
      ),
    ),
  );
  const body = el('tbody');
  const pager = el('div', { class: 'pager' });
  container.append(
    el(
      'div',
      { class: 'filters' },
      el('label', {}, 'Token ', search),
      el('label', {}, ' Closed by ', tagSelect),
      ' ',
      count,
    ),
    el('table', { class: 'deals', 'data-test': 'deals-table' }, el('thead', {}, head), body),
    pager,
  );

  function sortBy(key) {
    update(
      state.sort === key
        ? { descending: !state.descending }
        : { sort: key, descending: key !== 'index' && key !== 'token', page: 0 },
    );
  }

  function visible() {
    const column = COLUMNS.find((c) => c.key === state.sort);
    const rows = deals.filter(
      (d) =>
        (state.tag === 'all' || (d.special_tag ?? 'none') === state.tag) &&
        (state.text === '' ||
          [d.token.symbol, d.token.name, d.token.address].some((s) => s?.toLowerCase().includes(state.text))),
    );
    const sign = state.descending ? -1 : 1;
    // Ties keep deal order: the sort is stable and the rows start in deal order.
    return rows.sort((a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      return sign * (typeof x === 'string' ? x.localeCompare(y) : x - y);
    });
  }

  function update(change) {
    Object.assign(state, change);
    const rows = visible();
    const pages = Math.max(1, Math.ceil(rows.length / PAGE_ROWS));
    state.page = Math.min(state.page, pages - 1);
    count.textContent = `${rows.length} of ${deals.length} deals`;
    for (const th of head.children) {
      th.classList.toggle('sorted', th.dataset.key === state.sort);
      th.dataset.direction = th.dataset.key === state.sort ? (state.descending ? 'descending' : 'ascending') : '';
    }
    body.replaceChildren(
      ...rows.slice(state.page * PAGE_ROWS, (state.page + 1) * PAGE_ROWS).map((d) =>
        el(
          'tr',
          { class: d.index === state.selected ? 'selected' : '', 'data-deal': d.index, onclick: () => select(d.index) },
          COLUMNS.map((c) => {
            const v = c.value(d);
            return el(
              'td',
              { class: c.num ? 'num' : '', title: c.key === 'token' ? d.token.address : undefined },
              c.show ? c.show(v) : v,
            );
          }),
        ),
      ),
    );
    pager.replaceChildren(
      el('button', { disabled: state.page === 0, onclick: () => update({ page: state.page - 1 }) }, '‹ previous'),
      ` page ${state.page + 1} of ${pages} `,
      el('button', { disabled: state.page >= pages - 1, onclick: () => update({ page: state.page + 1 }) }, 'next ›'),
    );
  }

  function select(index) {
    update({ selected: index });
    onSelect(index);
  }

  update({});
}
