// sweep, latency and rank pictures
export function renderSweep(root) { root.append('sweep'); }
export function renderLatency(root) { root.append('latency'); }
export function renderRank(root) { root.append('rank'); }
