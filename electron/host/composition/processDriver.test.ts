import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createProcessDriver } from './processDriver';

describe('the process driver identity of generation leases', () => {
  it('calls a holder gone only when its process on this machine has exited', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const childDriver = createProcessDriver(child.pid!, 'this-host');
    const here = createProcessDriver(process.pid, 'this-host');
    const owner = childDriver.newOwner();
    expect(here.isGone(owner)).toBe(false);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(here.isGone(owner)).toBe(true);
  });

  it('keeps a living holder, another machine\'s holder and a foreign holder name alive', () => {
    const here = createProcessDriver(process.pid, 'this-host');
    expect(here.isGone(here.newOwner())).toBe(false);
    expect(here.isGone(createProcessDriver(2 ** 22 + 7, 'other-host').newOwner())).toBe(false);
    expect(here.isGone('lease_0123456789abcdef')).toBe(false);
  });
});
