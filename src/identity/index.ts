export { identityOf, isAlive, pidExists, PID_ONLY, SYSTEM_PROC, type OwnerIdentity } from './owner.ts';
export { procView, type ProcView } from './proc.ts';
export { parseStat, parseTgid, type ProcStat } from './stat.ts';
