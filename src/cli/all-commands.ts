import type { Command } from './command.ts';
import { catalogueColours } from './shell/catalogue-colours.ts';
import { jobsRecover } from './shell/jobs-recover.ts';
import { storeCopy, storeInfo, storeUpgrade } from './shell/store.ts';
import { catalogueImport, catalogueLookup } from './commands/catalogue.ts';
import { compare } from './commands/compare.ts';
import { exportBricklink, exportRebrickable, exportSummary } from './commands/exports.ts';
import { historyCommand, redoCommand, undoCommand } from './commands/history.ts';
import { importDocument } from './commands/import.ts';
import { jobsCancel, jobsList } from './commands/jobs.ts';
import { documents, lines, orders, takeBack } from './commands/orders.ts';
import { pick } from './commands/pick.ts';
import { place, placements, placementsForget } from './commands/placements.ts';
import { settings } from './commands/settings.ts';
import { stockImport, stockInfo, stockLookup } from './commands/stock.ts';
import { putAway } from './commands/put-away.ts';
import { suggest } from './commands/suggest.ts';

/**
 * Every CLI command, in the order the usage text lists them. Those in `commands/` go through the contract
 * (`ContractCommand`); those in `shell/` are the shell's alone, each saying why (`ShellCommand`).
 */
export const COMMANDS: readonly Command[] = [
  storeInfo,
  storeUpgrade,
  storeCopy,
  catalogueImport,
  catalogueLookup,
  catalogueColours,
  importDocument,
  stockImport,
  stockInfo,
  pick,
  stockLookup,
  putAway,
  compare,
  orders,
  lines,
  suggest,
  place,
  placements,
  placementsForget,
  undoCommand,
  historyCommand,
  redoCommand,
  takeBack,
  documents,
  exportSummary,
  exportBricklink,
  exportRebrickable,
  jobsList,
  jobsRecover,
  jobsCancel,
  settings,
];
