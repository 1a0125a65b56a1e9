import type { Command } from '../command.ts';
import { catalogueColours, catalogueImport, catalogueLookup } from './catalogue.ts';
import {
  documents,
  exportBricklink,
  exportSummary,
  importDocument,
  lines,
  orders,
  place,
  placements,
  placementsForget,
  redoCommand,
  takeBackCommand,
  undoCommand,
} from './documents.ts';
import { jobsCancel, jobsList, jobsRecover } from './jobs.ts';
import { settings } from './settings.ts';
import { storeInfo, storeUpgrade } from './store.ts';
import { suggest } from './suggest.ts';

/** Every CLI command, in the order the usage text lists them. */
export const COMMANDS: readonly Command[] = [
  storeInfo,
  storeUpgrade,
  catalogueImport,
  catalogueLookup,
  catalogueColours,
  importDocument,
  orders,
  lines,
  suggest,
  place,
  placements,
  placementsForget,
  undoCommand,
  redoCommand,
  takeBackCommand,
  documents,
  exportSummary,
  exportBricklink,
  jobsList,
  jobsRecover,
  jobsCancel,
  settings,
];
