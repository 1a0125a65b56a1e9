import { describe, expect, it } from 'vitest';
import { machineArch } from '../helpers/electron-builder.ts';

// Issue 63 §1: the packaging tests package for the machine they run on, which native-electron.mjs builds for.
describe('the build machine’s arch, which the packaging tests package for', () => {
  it('is the machine’s own: arm64 on Apple silicon, x64 on Intel; any other is said', () => {
    expect(machineArch('arm64')).toBe('arm64');
    expect(machineArch('x64')).toBe('x64');
    expect(() => machineArch('ia32')).toThrow("not for this machine's ia32");
    expect(machineArch()).toBe(process.arch);
  });
});
