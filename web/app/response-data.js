// A simulator response, as the API returns it, in the form the report draws (the same as a
// report file's data: src/report/html/simulation-data.ts). The service has no tape prices to
// give, so a deal's chart shows the follower's trades alone.

export function simulationData(title, request, response) {
  const dealColumns = Object.keys(response.deals[0] ?? { token: null }).filter((name) => name !== 'trades');
  const tradeColumns = Object.keys(response.deals.find((d) => d.trades.length > 0)?.trades[0] ?? {});
  const tokens = [];
  const tokenIndex = new Map();
  const deals = response.deals.map((deal) =>
    dealColumns.map((column) => {
      if (column !== 'token') return deal[column];
      if (!tokenIndex.has(deal.token.address)) tokenIndex.set(deal.token.address, tokens.push(deal.token) - 1);
      return tokenIndex.get(deal.token.address);
    }),
  );
  let skipped = null;
  if (response.skipped_copies) {
    skipped = {};
    for (const s of response.skipped_copies) skipped[s.reason] = (skipped[s.reason] ?? 0) + 1;
  }
  return {
    kind: 'simulation',
    title,
    request,
    summary: response.summary,
    chart: response.cumulative_pnl_and_fee_chart,
    deal_columns: dealColumns,
    tokens,
    trade_columns: tradeColumns,
    deals,
    trades: response.deals.map((deal) => deal.trades.map((t) => tradeColumns.map((c) => t[c]))),
    skipped,
    prices: null,
  };
}
