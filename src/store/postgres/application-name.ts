/**
 * The name every connection of this brick-work gives the server (`application_name`, ADR 0027 §5): which
 * computer, which process. A job's owner on a server is a session; this name is how a desk tells its own
 * sessions (the runner thread's, the writer's) from another desk's, and how the jobs list names the
 * computer that runs a job. It decides nothing about ownership: that stays the session, compared exactly.
 */
import os from 'node:os';
import { identityOf, type OwnerIdentity } from '../../identity/owner.ts';

const PREFIX = 'brick-work ';
/** The server keeps 63 bytes of it. */
const MOST = 63;

/** This process on this computer: `brick-work <pid>[.<start ticks>] <host>`, the same in every thread. */
export function applicationName(me: OwnerIdentity = identityOf(), host: string = os.hostname()): string {
  const process = me.startTicks === null ? String(me.pid) : `${me.pid}.${me.startTicks}`;
  // ASCII only, so the server's 63-byte cut can't split a character.
  const name = `${PREFIX}${process} ${host.replace(/[^\x21-\x7e]/g, '?')}`;
  return name.slice(0, MOST);
}

/** The computer a brick-work session's name gives; null for a name that is not brick-work's. */
export function hostOf(name: string): string | null {
  if (!name.startsWith(PREFIX)) return null;
  const parts = name.slice(PREFIX.length).split(' ');
  return parts.length === 2 && /^\d+(\.\d+)?$/.test(parts[0] ?? '') && parts[1] ? parts[1] : null;
}
