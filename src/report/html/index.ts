/**
 * HTML reports: one self-contained file a person opens in a browser, with the charts drawn by
 * uPlot (inlined) from the data embedded in the page. docs/report.md describes the design.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { InputError } from '../../model/errors.js';
import { htmlPage } from './page.js';
import { simulationReportData, type SimulationReportInputs } from './simulation-data.js';

export { simulationReportData, type SimulationReportData, type SimulationReportInputs } from './simulation-data.js';
export { htmlPage } from './page.js';

/**
 * The HTML report of a simulation: summary and settings, PnL, fees and drawdown over time, every
 * deal's PnL by how it closed, the deals table with each deal's trades and, with the tape, the
 * token's price over the deal's life.
 *
 * @example
 * const html = simulationReportHtml({ title: 'sol example', response: simulate(tape, request), request, tape });
 * writeHtmlFile('out/report.html', html);
 */
export function simulationReportHtml(inputs: SimulationReportInputs): string {
  // Trades and prices are read only when a deal is opened: apart, they do not slow the opening.
  const { trades, prices, ...main } = simulationReportData(inputs);
  return htmlPage(inputs.title, main, { trades, prices });
}

/** Writes a report, making its folder; a failure is an {@link InputError} naming the file. */
export function writeHtmlFile(file: string, html: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
  } catch (e) {
    throw new InputError(`cannot write the report ${file}: ${(e as Error).message}`, { source: file });
  }
}
