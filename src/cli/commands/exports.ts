import type { ExportFileView } from '../../api/contract.ts';
import { numberArg, type CommandOutput, type ContractCommand } from '../command.ts';

/** The file, written where --out says (the app's save dialog), else printed. */
function output(file: ExportFileView): CommandOutput {
  return file.savedTo === null
    ? { json: file, text: file.content.replace(/\r?\n$/, '') }
    : { json: file, text: `Wrote ${file.savedTo}` };
}

export const exportSummary: ContractCommand = {
  name: ['export', 'summary'],
  synopsis: '[--out FILE]',
  summary: 'the summary CSV of the orders with saved lines',
  options: { out: { type: 'string' } },
  args: { min: 0, max: 0 },
  calls: ['export.summary'],
  async run(api) {
    return output(await api.call('export.summary', {}));
  },
};

export const exportBricklink: ContractCommand = {
  name: ['export', 'bricklink'],
  synopsis: 'ORDER_ID [--out FILE]',
  summary: "BrickLink XML (mass upload) of an order's placed lines",
  options: { out: { type: 'string' } },
  args: { min: 1, max: 1 },
  calls: ['export.bricklink'],
  async run(api, [orderId]) {
    return output(await api.call('export.bricklink', { orderId: numberArg(orderId) }));
  },
};
