/** A swap's time: seconds since the epoch below 10¹¹ (model 1.1); larger values are milliseconds by mistake. */
export const SWAP_TIME_LIMIT = 1e11;
