// The simulator's settings as a form made from the request's JSON Schema (the service's
// OpenAPI document): one field per member, with the schema's limits as the inputs' limits and
// hints, each member's unit (USD, %, s, h, and the network's coin for the fees), nullable
// objects (the time-fix, the strategy) as sections switched on and off. The service's own
// messages are shown under the fields they name.
import { el } from '../report/format.js';

/** The members the page fills itself: the wallets picked from the list, the network of the list. */
const FROM_THE_LIST = new Set(['wallets', 'network']);

/** The network's own coin, in which the fees a trade are given. */
const NATIVE = 'native';

/**
 * Each member's unit, shown after its input (`native`: the network's coin, SOL or ETH), and what
 * an empty field or its default means where the schema cannot say (the copier's wallet, model 3.0,
 * takes its defaults in the engine).
 */
const MEMBERS = {
  buy_percentage: { unit: '%', note: "of the leader's buy" },
  max_buy_amount: { unit: 'USD', note: 'a buy at most' },
  max_position_amount: { unit: 'USD', note: 'a deal at most' },
  priority_fee: { unit: NATIVE, note: 'a trade' },
  bribe: { unit: NATIVE, note: 'a trade' },
  max_dupe_buy_times: { note: 'extra buys into an open deal' },
  hours: { unit: 'h', note: 'without a trade, then sold' },
  copy_delay_seconds: { unit: 's' },
  fixed_buy_amount: { unit: 'USD' },
  min_leader_buy_usd: { unit: 'USD' },
  min_liquidity_usd: { unit: 'USD' },
  max_token_age_hours: { unit: 'h' },
  stop_loss_percent: { unit: '%' },
  trailing_stop_percent: { unit: '%' },
  max_hold_hours: { unit: 'h' },
  report_skipped: { note: 'list the leader swaps not copied' },
  starting_balance_usd: { unit: 'USD', note: 'empty: unlimited' },
  reserve_usd: { unit: 'USD', note: 'default 0; needs a starting balance' },
  max_open_deals: { note: 'empty: no limit' },
  slippage_tolerance_percent: { unit: '%', note: 'empty: no limit, nothing fails for its price' },
  failed_transaction_percent: { unit: '%', note: 'of attempts dropped; default 0' },
  retries: { note: 'default 0' },
  retry_delay_seconds: { unit: 's', note: 'default 2' },
  sandwich_percent: { unit: '%', note: 'of landed copies; default 0; needs a tolerance' },
  random_seed: { note: 'default 0' },
  report_wallet: { note: "add the copier's wallet to the answer" },
  report_leaders: { note: "add each leader's share of the result" },
};

/** The schema's object form of a member, and whether null is allowed (`anyOf [X, null]`). */
function unwrap(schema) {
  if (Array.isArray(schema.anyOf)) {
    const inner = schema.anyOf.find((s) => s.type !== 'null');
    return { schema: { ...inner, default: schema.default }, nullable: schema.anyOf.some((s) => s.type === 'null') };
  }
  return { schema, nullable: false };
}

/** The limits of a number in words: "integer, > 0", "1 … 192". */
function limits(schema) {
  const parts = [schema.type === 'integer' ? 'whole number' : 'number'];
  const low =
    schema.minimum !== undefined
      ? `≥ ${schema.minimum}`
      : schema.exclusiveMinimum !== undefined
        ? `> ${schema.exclusiveMinimum}`
        : '';
  const big = Number.MAX_SAFE_INTEGER;
  const high =
    schema.maximum !== undefined && schema.maximum < big
      ? `≤ ${schema.maximum}`
      : schema.exclusiveMaximum !== undefined
        ? `< ${schema.exclusiveMaximum}`
        : '';
  return [...parts, low, high].filter(Boolean).join(', ');
}

/**
 * Builds the form. `read()` gives the request body (empty fields left out, so the service
 * applies its defaults); `showProblems(detail)` puts each `{path, message}` under its field.
 */
export function settingsForm(requestSchema, initial = {}, network = 'sol') {
  const problemSlots = new Map();
  const nativeUnits = [];
  const inputs = new Map();
  const form = el('form', {
    class: 'settings-form',
    'data-test': 'settings-form',
    onsubmit: (e) => e.preventDefault(),
  });

  /** The unit after an input, and the note in the hint. */
  function unitOf(name) {
    const unit = MEMBERS[name]?.unit;
    if (unit === undefined) return null;
    const span = el('span', { class: 'unit', 'data-unit': name }, unit === NATIVE ? network.toUpperCase() : unit);
    if (unit === NATIVE) nativeUnits.push(span);
    return span;
  }

  function field(container, path, name, member, required) {
    const { schema, nullable } = unwrap(member);
    const id = `field-${path.replace(/\W/g, '-')}`;
    const problem = el('span', { class: 'problem', 'data-problem': path });
    problemSlots.set(path, problem);
    const value = path.split('.').reduce((v, k) => (v == null ? undefined : v[k]), initial);

    if (schema.type === 'object') {
      const on = el('input', { type: 'checkbox', id, 'data-path': path, checked: value != null });
      const inner = el('div');
      const box = el(
        'fieldset',
        {},
        el('legend', {}, el('label', { for: id }, on, ` ${name}`, nullable ? ' (off: null)' : '')),
        inner,
        problem,
      );
      container.append(box);
      const nested = Object.entries(schema.properties).map(([key, sub]) =>
        field(inner, `${path}.${key}`, key, sub, (schema.required ?? []).includes(key)),
      );
      return {
        key: name,
        read: () =>
          on.checked
            ? Object.fromEntries(nested.map((r) => [r.key, r.read()]).filter(([, v]) => v !== undefined))
            : nullable
              ? null
              : undefined,
      };
    }

    let input;
    let read;
    let hint = '';
    if (schema.type === 'boolean') {
      input = el('input', { type: 'checkbox', id, 'data-path': path, checked: value ?? schema.default ?? false });
      hint = MEMBERS[name]?.note ?? '';
      read = () => input.checked;
    } else if (schema.enum) {
      input = el(
        'select',
        { id, 'data-path': path },
        schema.enum.map((v) => el('option', { value: v, selected: v === (value ?? schema.default) }, v)),
      );
      read = () => input.value;
    } else if (schema.type === 'integer' || schema.type === 'number') {
      const min = schema.minimum ?? schema.exclusiveMinimum;
      const max =
        schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER
          ? schema.maximum
          : schema.exclusiveMaximum;
      input = el('input', {
        type: 'number',
        id,
        'data-path': path,
        step: schema.type === 'integer' ? 1 : 'any',
        min,
        max,
        value: value ?? schema.default ?? '',
      });
      const note = MEMBERS[name]?.note;
      hint = limits(schema) + (note ? `; ${note}` : nullable ? '; empty: none' : '');
      read = () => (input.value === '' ? (nullable ? null : undefined) : Number(input.value));
    } else if (schema.type === 'array') {
      input = el('input', {
        type: 'text',
        id,
        'data-path': path,
        value: value === undefined ? '' : JSON.stringify(value),
        placeholder: JSON.stringify(schema.default ?? []),
      });
      hint =
        `JSON list${schema.maxItems ? `, at most ${schema.maxItems}` : ''}` +
        `${schema.items?.properties ? ` of {${Object.keys(schema.items.properties).join(', ')}}` : ''}`;
      read = () => {
        if (input.value.trim() === '') return undefined;
        try {
          return JSON.parse(input.value);
        } catch {
          return input.value; // sent as it is: the service names the problem
        }
      };
    } else {
      input = el('input', {
        type: 'text',
        id,
        'data-path': path,
        value: value ?? '',
        pattern: schema.pattern,
        placeholder: schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$' ? 'YYYY-MM-DD' : '',
      });
      read = () => (input.value === '' ? undefined : input.value);
    }
    inputs.set(path, input);
    const hintSpan = hint ? el('span', { class: 'hint' }, hint) : null;
    const label = el('label', { for: id }, name, required ? ' *' : '');
    container.append(label, el('div', { class: 'field' }, input, unitOf(name), hintSpan, problem));
    return { key: name, read };
  }

  const properties = Object.entries(requestSchema.properties).filter(([name]) => !FROM_THE_LIST.has(name));
  const members = properties.map(([name, member]) =>
    field(form, name, name, member, (requestSchema.required ?? []).includes(name)),
  );

  return {
    element: form,
    read: () => Object.fromEntries(members.map((m) => [m.key, m.read()]).filter(([, v]) => v !== undefined)),
    /** The network the request is for: the fees' unit follows it. */
    setNetwork(next) {
      network = next;
      for (const span of nativeUnits) span.textContent = next.toUpperCase();
    },
    /** Fills in the dates, unless the user has typed others than those filled in before. */
    fillDates(from, to, before = { from: '', to: '' }) {
      for (const [path, date, old] of [
        ['from_date', from, before.from],
        ['to_date', to, before.to],
      ]) {
        const input = inputs.get(path);
        if (input && date && (input.value === '' || input.value === old)) input.value = date;
      }
    },
    showProblems(detail) {
      for (const slot of problemSlots.values()) slot.textContent = '';
      const unplaced = [];
      for (const { path, message } of detail) {
        // The closest field: `strategy.take_profit[0].roi` goes under `strategy.take_profit`.
        let key = path.replace(/\[\d+\]/g, '');
        while (key && !problemSlots.has(key)) key = key.includes('.') ? key.slice(0, key.lastIndexOf('.')) : '';
        if (key) problemSlots.get(key).textContent = message;
        else unplaced.push(`${path || '(request)'}: ${message}`);
      }
      return unplaced;
    },
  };
}
