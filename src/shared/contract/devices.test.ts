import { describe, expect, it } from 'vitest';
import { describeNewDevice } from './devices.ts';

const device = (Manufacturer: string, Model: string, OsVersion: string, DeviceType = 'Android') => ({
  DeviceType,
  Manufacturer,
  Model,
  OsVersion,
});

describe('a new device, in plain words', () => {
  it('names make and model, its system in brackets, then its type', () => {
    expect(describeNewDevice(device('Samsung', 'Galaxy S24', 'Android 15'))).toBe(
      'Samsung Galaxy S24 (Android 15), Android',
    );
  });

  it('leaves out what the device did not say', () => {
    expect(describeNewDevice(device('', 'iPad', ''))).toBe('iPad, Android');
    expect(describeNewDevice(device(' ', '', '18.4', 'iOS'))).toBe('18.4, iOS');
    expect(describeNewDevice(device('', '', '', 'Windows'))).toBe('Windows');
  });
});
