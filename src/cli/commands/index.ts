import type { Command } from '../command.ts';
import { jobsCancel, jobsList, jobsRecover } from './jobs.ts';
import { storeInfo, storeUpgrade } from './store.ts';

/** Every CLI command, in the order the usage text lists them. */
export const COMMANDS: readonly Command[] = [storeInfo, storeUpgrade, jobsList, jobsRecover, jobsCancel];
