import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

const OWNER = /^lease:(\d+)@(.+)#[0-9a-f]+$/;

/**
 * Names a generation lease holder after this process (`lease:<pid>@<host>#<random>`) and tells
 * whether a holder's process is gone: only for holders on this machine whose pid no longer exists
 * (ESRCH). Anything else — another machine sharing the data folder, a pid now used by another
 * process, a holder name in another format — counts as alive, so its lease is left to expire.
 */
export function createProcessDriver(pid: number = process.pid, host: string = hostname()): { newOwner: () => string; isGone: (owner: string) => boolean } {
  return {
    newOwner: () => `lease:${pid}@${host}#${randomUUID().replace(/-/g, '').slice(0, 12)}`,
    isGone(owner) {
      const match = OWNER.exec(owner);
      if (!match || match[2] !== host) return false;
      try {
        process.kill(Number(match[1]), 0);
        return false;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'ESRCH';
      }
    },
  };
}
