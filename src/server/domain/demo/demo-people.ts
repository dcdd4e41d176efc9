import type { DemoAuthorizationRequestInput } from '../../../shared/contract/index.ts';

/** A device as a request describes it. */
export interface DemoDevice {
  DeviceType: string;
  Manufacturer: string;
  Model: string;
  OsVersion: string;
}

/** The phones the demo's people carry: each model with its own maker and platform. */
export const DEMO_DEVICES: readonly DemoDevice[] = [
  { DeviceType: 'iOS', Manufacturer: 'Apple', Model: 'iPhone 16 Pro', OsVersion: '18.1' },
  { DeviceType: 'iOS', Manufacturer: 'Apple', Model: 'iPhone 15', OsVersion: '17.6.1' },
  { DeviceType: 'iOS', Manufacturer: 'Apple', Model: 'iPad Air', OsVersion: '18.0' },
  { DeviceType: 'Android', Manufacturer: 'Samsung', Model: 'Galaxy S24', OsVersion: '14' },
  { DeviceType: 'Android', Manufacturer: 'Google', Model: 'Pixel 9', OsVersion: '15' },
  { DeviceType: 'Android', Manufacturer: 'Motorola', Model: 'Edge 50', OsVersion: '14' },
];

/** The demo's people: a user name and the e-mail address made from it. */
export const DEMO_PEOPLE: readonly (readonly [userName: string, email: string])[] = [
  'alice.ng',
  'bram.de.vries',
  'chen.wei',
  'dana.okafor',
  'emil.larsen',
  'farah.haddad',
  'gus.moreno',
  'hana.sato',
  'ivan.petrov',
  'jo.mensah',
  'kai.mueller',
].map((name) => [`ACME\\${name}`, `${name}@acme.example`] as const);

/** Chooses one of a non-empty list (random in the service, fixed in tests). */
export type Chooser = <T>(items: readonly T[]) => T;

const same = (a: string | undefined, b: string) => a === undefined || a.toLowerCase() === b.toLowerCase();

/** The platform and maker a model name gives away when it is not one of the demo's phones. */
function guessFromModel(model: string): Pick<DemoDevice, 'DeviceType' | 'Manufacturer'> | null {
  if (/^(iphone|ipad)/i.test(model)) return { DeviceType: 'iOS', Manufacturer: 'Apple' };
  if (/^pixel/i.test(model)) return { DeviceType: 'Android', Manufacturer: 'Google' };
  if (/^(galaxy|sm-)/i.test(model)) return { DeviceType: 'Android', Manufacturer: 'Samsung' };
  return null;
}

/**
 * The device of a demo request: what the console gave, and the rest from a phone that agrees with it (a model
 * keeps its maker and platform, a maker its platform), so the demo never shows an "Apple Pixel 9". What no phone
 * of the demo matches is completed as well as the given fields tell.
 */
export function completeDemoDevice(input: DemoAuthorizationRequestInput, pick: Chooser): DemoDevice {
  const given = { DeviceType: input.DeviceType, Manufacturer: input.Manufacturer, Model: input.Model };
  const agreeing = DEMO_DEVICES.filter(
    (device) =>
      same(given.DeviceType, device.DeviceType) &&
      same(given.Manufacturer, device.Manufacturer) &&
      same(given.Model, device.Model),
  );
  if (agreeing.length > 0) {
    const base = pick(agreeing);
    return {
      DeviceType: given.DeviceType ?? base.DeviceType,
      Manufacturer: given.Manufacturer ?? base.Manufacturer,
      Model: given.Model ?? base.Model,
      OsVersion: input.OsVersion ?? base.OsVersion,
    };
  }
  // An unknown model: its maker and platform as its name tells, else those of a phone of the given maker or platform.
  const guessed = given.Model ? guessFromModel(given.Model) : null;
  const related = DEMO_DEVICES.filter(
    (device) =>
      same(given.Manufacturer ?? guessed?.Manufacturer, device.Manufacturer) &&
      same(given.DeviceType ?? guessed?.DeviceType, device.DeviceType),
  );
  const base = related.length > 0 ? pick(related) : null;
  const deviceType = given.DeviceType ?? guessed?.DeviceType ?? base?.DeviceType ?? 'Android';
  return {
    DeviceType: deviceType,
    Manufacturer: given.Manufacturer ?? guessed?.Manufacturer ?? base?.Manufacturer ?? given.Model?.split(' ')[0] ?? '',
    // A maker or platform alone that no demo phone has: the model says only that much.
    Model: given.Model ?? base?.Model ?? `${given.Manufacturer ?? deviceType} phone`,
    OsVersion: input.OsVersion ?? (base && base.DeviceType === deviceType ? base.OsVersion : ''),
  };
}

/** "ACME\jane.doe" from "jane.doe@acme.example", "jane.doe@acme.example" from "ACME\jane.doe". */
const nameFromEmail = (email: string) => {
  const [local = email, domain = ''] = email.split('@');
  const realm = domain.split('.')[0]?.toUpperCase() || 'ACME';
  return `${realm}\\${local}`;
};
const emailFromName = (userName: string) => {
  const [realm, local] = userName.includes('\\') ? userName.split('\\') : ['ACME', userName];
  return `${(local ?? userName).toLowerCase()}@${(realm ?? 'ACME').toLowerCase()}.example`;
};

/**
 * The person of a demo request: what the console gave, and the other half made from it, so a request never pairs
 * one person's name with another's e-mail address; one of the demo's people when neither is given.
 */
export function completeDemoPerson(
  input: DemoAuthorizationRequestInput,
  pick: Chooser,
): { UserName: string; UserEmail: string } {
  if (input.UserName !== undefined && input.UserEmail !== undefined) {
    return { UserName: input.UserName, UserEmail: input.UserEmail };
  }
  if (input.UserName !== undefined) {
    const known = DEMO_PEOPLE.find(([userName]) => same(input.UserName, userName));
    return { UserName: input.UserName, UserEmail: known?.[1] ?? emailFromName(input.UserName) };
  }
  if (input.UserEmail !== undefined) {
    const known = DEMO_PEOPLE.find(([, email]) => same(input.UserEmail, email));
    return { UserName: known?.[0] ?? nameFromEmail(input.UserEmail), UserEmail: input.UserEmail };
  }
  const [UserName, UserEmail] = pick(DEMO_PEOPLE);
  return { UserName, UserEmail };
}
