// Formatting and DOM helpers of the report page. Times are UTC, numbers use "." and ",".

/** Creates an element: `el('td', { class: 'num' }, '12.5')`; children may be nodes, text or arrays. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** `1,234.57`: `places` decimals, thousands grouped; `+` in front when `signed` and positive. */
export function formatNumber(value, places = 2, signed = false) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const text = Math.abs(value).toLocaleString('en-US', {
    minimumFractionDigits: places,
    maximumFractionDigits: places,
  });
  const zero = Number(text.replace(/,/g, '')) === 0;
  return `${value < 0 && !zero ? '-' : signed && !zero ? '+' : ''}${text}`;
}

export const formatUsd = (value, signed = false) => `${formatNumber(value, 2, signed)} USD`;
export const formatPercent = (value, signed = false) => `${formatNumber(value, 2, signed)} %`;

/** A price of any size with six significant digits: 0.000000198731, 1,234.56. */
export function formatPrice(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (value === 0) return '0';
  const digits = Math.max(0, 5 - Math.floor(Math.log10(Math.abs(value))));
  return value.toLocaleString('en-US', { maximumFractionDigits: Math.min(20, digits) });
}

/** `2024-03-10 14:05:09` (UTC) from seconds since the epoch. */
export function formatTime(seconds) {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** `8jbY…67Hn`, `0x8b73…900e`: enough to recognise an address. */
export function shortAddress(address) {
  const head = address.startsWith('0x') ? 6 : 4;
  return address.length <= head + 5 ? address : `${address.slice(0, head)}…${address.slice(-4)}`;
}

/**
 * Colours of the special tags (how a deal closed), and of a deal closed by a leader's sell: hues
 * of D3's category palette chosen so that every two are far apart (test/web/tag-colours.test.ts
 * holds them to a CIEDE2000 distance), and no two exits read as one.
 */
export const TAG_COLOURS = {
  none: '#1f77b4',
  close_all: '#9467bd',
  sell_timefix: '#ff7f0e',
  sell_timefix_final: '#d62728',
  take_profit: '#2ca02c',
  stop_loss: '#bcbd22',
  trailing_stop: '#17becf',
  max_hold: '#7f7f7f',
};
