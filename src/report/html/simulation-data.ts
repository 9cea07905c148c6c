import type { IndexedTape } from '../../engine/tape-index.js';
import type { SimulatorRequest } from '../../model/request.js';
import type { SimulatorResponse } from '../../model/response.js';
import { simulationData, type SimulationReportData } from '../../../web/report/simulation-data.js';
import { dealPrices } from './tape-prices.js';

// The data are built by the page's own module, so that a report file and the service's page
// draw the same data from the same response; only the tape's prices are Node's to add.
export type { SimulationReportData };

/** Options of {@link simulationReportData}. */
export interface SimulationReportInputs {
  readonly title: string;
  readonly response: SimulatorResponse;
  readonly request: SimulatorRequest | null;
  /** The tape the response was simulated on: for the price panel. */
  readonly tape: IndexedTape | null;
  /** The run's cash and equity points (`ResponseParts.copierPoints`): for the copier's chart. */
  readonly copierPoints?: readonly number[] | null;
}

/** The report's data from a simulator response (and the tape, for each deal's price panel). */
export function simulationReportData(inputs: SimulationReportInputs): SimulationReportData {
  const { title, response, request, tape, copierPoints = null } = inputs;
  const prices = tape === null ? null : dealPrices(tape, response.deals, request?.wallets ?? []);
  return simulationData({ title, request, response, prices, copierPoints });
}
